'use strict'
// The agent as a benchmark runs it: bin/logx-agent.js in a process of its own, with the node flags it
// has under pm2 (ecosystem.config.js, the same as `npm start`), optionally pinned to one CPU; and the
// poll-with-a-deadline the benches wait with. Shared by bench/agent.js and bench/fleet.js.
const { spawn, spawnSync } = require('node:child_process')
const { readFileSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const bin = join(root, 'bin', 'logx-agent.js')
const nodeArgs = require('../ecosystem.config.js').apps[0].node_args ?? []
const canPin = spawnSync('taskset', ['-c', '0', 'true']).status === 0

/** The command prefix that pins a process to `cpu`, or [] where taskset is missing. */
const pinTo = (cpu) => (canPin ? ['taskset', '-c', String(cpu)] : [])

/**
 * Starts the agent on `configFile`; `banner` resolves with its metrics URL once it prints it.
 * pinned: on CPU `cpu` (default 0); extraNodeArgs: e.g. --cpu-prof and its directory.
 */
function startAgent(configFile, { pinned = false, cpu = 0, extraNodeArgs = [] } = {}) {
  const command = [...(pinned ? pinTo(cpu) : []), process.execPath, ...nodeArgs, ...extraNodeArgs, bin, 'run', '--config', configFile]
  const started = process.hrtime.bigint()
  const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  const banner = new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`agent exited ${code}: ${out}`)))
    const check = () => {
      const metrics = /metrics: (\S+)\/metrics/.exec(out)
      if (metrics) resolve(metrics[1])
      else setTimeout(check, 5)
    }
    check()
  })
  return {
    child,
    started,
    banner,
    hwmMb: () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

async function waitFor(probe, timeoutMs = 600_000, everyMs = 10) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await probe()) return
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

module.exports = { root, bin, nodeArgs, pinTo, startAgent, waitFor }
