'use strict'
// What the intake benches (bench/intake-*.js) share: the agent they start on a config of their own (in a
// temporary directory, on a port known before it starts, profiled on request), the counter they wait
// on, the agent's CPU time, one POST, and the command line of each. One home for each; the cases keep
// only what they measure.
//
// LOGX_BENCH_CPU_PROF=<dir> makes the agent a bench starts write a V8 .cpuprofile there as it stops
// (node --cpu-prof), to see where an intake's time goes under load.
const http = require('node:http')
const net = require('node:net')
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { startAgent, waitFor } = require('./agent-process')

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ: 100 on every Linux the benches run on). */
const CLOCK_TICKS = 100

const fmt = (n) => Math.round(n).toLocaleString('en-US')

/** The extra node arguments for startAgent: none unless LOGX_BENCH_CPU_PROF names a directory. */
function profileArgs() {
  const dir = process.env.LOGX_BENCH_CPU_PROF
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', '--cpu-prof-dir', dir]
}

/** A free port on 127.0.0.1, known before the agent starts (a source's `listen` names it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** CPU seconds (user + system) process `pid` has used so far. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
}

/** The embedded sandbox on a port of its own: its default one (4010) may be another agent's. */
const OWN_SANDBOX = 'messaging: { sandbox: { listen: "127.0.0.1:0" } }\n'

/**
 * The config of every intake case: `head` (a messaging block; default: the embedded sandbox on a free
 * port), one source, an SMS channel, one rule and metrics on loopback (the benches read their counters).
 */
function oneSourceConfig(state, source, rule, head = OWN_SANDBOX) {
  return `${head}state_dir: ${state}
sources:
  - ${source}
channels:
  sms: { type: sms, numbers: [919800000001] }
rules:
  - ${rule}
metrics: { listen: 127.0.0.1:0 }
`
}

/**
 * Starts the agent on the config `configOf(port, stateDir)` writes, in a temporary directory named after
 * `name`; `profile`: with the LOGX_BENCH_CPU_PROF switch. stop() ends the agent and removes the directory.
 */
async function startIntakeAgent(name, configOf, { profile = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `logx-bench-${name}-`))
  const port = await freePort()
  const config = join(dir, 'agent.yaml')
  writeFileSync(config, configOf(port, join(dir, 'state')))
  const agent = startAgent(config, { extraNodeArgs: profile ? profileArgs() : [] })
  return {
    port,
    banner: agent.banner,
    hwmMb: () => agent.hwmMb(),
    cpuSeconds: () => cpuSeconds(agent.child.pid),
    async stop() {
      await agent.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function metricValue(metricsUrl, name) {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(name))
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1))
}

/** Resolves once the agent has journaled `count` events of `source` (logx_agent_intake_events_total). */
function eventsTaken(metricsUrl, source, count) {
  const name = `logx_agent_intake_events_total{source="${source}"}`
  return waitFor(async () => (await metricValue(metricsUrl, name)) >= count, 120_000, 20)
}

/** One POST of `body` over the keep-alive `agent`; resolves with the status. */
function post(agent, port, path, contentType, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': contentType } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** The command line's `--name value` options: option(name, fallback) -> the value as text. */
function commandOptions(args = process.argv.slice(2)) {
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`)
    return i === -1 ? fallback : args[i + 1]
  }
}

/** Each of `values` a whole number above `min`, or exits 2 with `usage`. */
function requireWholeNumbers(values, usage, min = 1) {
  if (values.every((n) => Number.isInteger(n) && n >= min)) return
  console.error(usage)
  process.exit(2)
}

/** Runs `main` when `module` is the script node was started with; a failure exits 1. */
function runWhenMain(module, main) {
  if (require.main !== module) return
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}

module.exports = {
  commandOptions,
  cpuSeconds,
  eventsTaken,
  fmt,
  freePort,
  metricValue,
  oneSourceConfig,
  post,
  profileArgs,
  requireWholeNumbers,
  runWhenMain,
  startIntakeAgent,
}
