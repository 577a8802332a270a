'use strict'
// The intake benches' profiling switch: LOGX_BENCH_CPU_PROF=<dir> makes the agent they start write a
// V8 .cpuprofile there as it stops (node --cpu-prof), to see where an intake's time goes under load.

/** The extra node arguments for startAgent: none unless LOGX_BENCH_CPU_PROF names a directory. */
function profileArgs() {
  const dir = process.env.LOGX_BENCH_CPU_PROF
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', '--cpu-prof-dir', dir]
}

module.exports = { profileArgs }
