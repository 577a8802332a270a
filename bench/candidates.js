'use strict'
// The agent's per-candidate-line path alone, in this process: a line the byte pre-filter kept ->
// toAlertLine (parse) -> AlertPipeline#ingest (rule, censoring, incident key, incident state, the
// alert engine) with a dispatcher stub that keeps nothing and the real incident state file in a
// temp dir. No tailing, no outbox, no HTTP: what the agent spends per line it did not drop.
// There is no external peer to compare with, so it prints the cost per line and what the lines of
// the 200 MB run of bench/agent.js (10,400 JSON / 16,700 text error lines) cost against the agent's
// whole CPU budget at 0.3x grep (210 MB at 0.3 x 1.5 GB/s: 0.47 s of one core). Each scenario runs
// in a fresh process with the agent's node flags: `cold` is its first pass over as many lines as the
// 200 MB run has (V8 still interpreting, then compiling: what the agent pays in that run), `warm`
// the best and median of the later passes (what a long-running agent pays).
// Usage: npm run build && node bench/candidates.js [--lines 20000] [--rounds 15] [--dist dist]
//   --dist: another build to measure (a copy of dist/ from before a change, with node_modules next to it).

const { mkdtempSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join, resolve } = require('node:path')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const lineCount = Number(option('lines', 20_000))
const rounds = Number(option('rounds', 15))
const dist = resolve(option('dist', join(__dirname, '..', 'dist')))
// --scenario <index>: that scenario alone in this process, printed as JSON. The parent runs each
// scenario in a fresh process: its first pass is what a just-started agent pays while V8 has not
// optimised the path yet (cold), and no scenario's objects make another's code polymorphic (warm).
const only = option('scenario', undefined)

const { parseAgentConfig } = require(join(dist, 'agent/config/load/load-config.js'))
const { toAlertLine } = require(join(dist, 'agent/events/alert-line.js'))
const { createAlertPipeline } = require(join(dist, 'agent/delivery/alert-pipeline.js'))
const { createIncidentState } = require(join(dist, 'agent/incidents/incident-state.js'))
const { setupOfConfig } = require(join(dist, 'agent/delivery/alert-setup.js'))
const { createAgentLogger } = require(join(dist, 'agent/daemon/logger.js'))

const BUDGET_S = 210e6 / (0.3 * 1.5e9)
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]
const best = (values) => Math.min(...values)

// The error lines of bench/generate-log.js, and variants whose incidents differ (messages, types).
function jsonLines(n) {
  const out = []
  const types = ['TimeoutError', 'TimeoutError', 'TimeoutError', 'DbError', 'TypeError']
  for (let i = 0; i < n; i++) {
    const type = types[i % types.length]
    out.push(`{"level":50,"time":${1_700_000_000_000 + i * 700},"pid":4242,"hostname":"api-7f9c","reqId":"req-${i * 100}","err":{"type":"${type}","message":"upstream timed out after ${3000 + (i % 7)}ms","stack":"${type}: upstream timed out\\n    at Timeout.<anonymous> (/srv/api/lib/upstream.js:88:17)"},"msg":"request failed"}`)
  }
  return out
}

function textLines(n) {
  const paths = ['/api/items', '/api/orders/42', '/api/users/me', '/health', '/api/search?q=shoes']
  const out = []
  for (let i = 0; i < n; i++) {
    const stamp = new Date(1_700_000_000_000 + i * 700).toISOString()
    out.push(`${stamp} ERROR [api-7f9c] req-${i * 100} upstream timed out after 3000ms (TimeoutError at /srv/api/lib/upstream.js:88:17) while calling ${paths[i % paths.length]}`)
  }
  return out
}

const dispatcher = {
  dispatch() {},
  setChannels() {},
  setRules() {},
  closeLead() {},
  stats: () => ({ sent: {}, failed: {}, retried: 0, dead: 0, depth: 0 }),
  queuedPages: () => [],
  sync() {},
  drain: async () => ({ drained: true, pending: 0 }),
  close: async () => {},
}
const log = createAgentLogger({ level: 'silent', destination: { write: () => true } })

// `extra`: YAML keys added to the config (redact), `secrets`: the endpoint's secrets.
function scenario(name, format, lines, rule, { extra = '', secrets = [] } = {}) {
  return { name, format, lines, rule, extra, secrets }
}

function run(s) {
  const stateDir = mkdtempSync(join(tmpdir(), 'logx-bench-candidates-'))
  try {
    const parsed = parseAgentConfig(`state_dir: ${stateDir}
sources: [{ name: app, paths: [${stateDir}/*.log], format: ${s.format} }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
${s.extra}rules:
  - ${s.rule}
`, 'agent.yaml')
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    const pipeline = createAlertPipeline({ setup: setupOfConfig(parsed.config, s.secrets), state: createIncidentState(join(stateDir, 'incidents.json')), dispatcher, log, now: 0 })
    const perLine = []
    let now = 1000
    const pass = (lines) => {
      const started = process.hrtime.bigint()
      for (const text of lines) pipeline.ingest(toAlertLine(text, s.format, 'app').line, now++)
      return Number(process.hrtime.bigint() - started) / 1000 / lines.length
    }
    // The first pass: as many lines as the 200 MB run of bench/agent.js has.
    const coldLines = s.lines.slice(0, s.format === 'json' ? 10_400 : 16_700)
    const cold = pass(coldLines)
    for (let round = 0; round < rounds; round++) perLine.push(pass(s.lines))
    if (pipeline.stats().matches !== coldLines.length + rounds * s.lines.length) throw new Error(`${s.name}: not every line matched`)
    return { cold, median: median(perLine), best: best(perLine) }
  } finally {
    rmSync(stateDir, { recursive: true, force: true })
  }
}

const json = jsonLines(lineCount)
const text = textLines(lineCount)
const scenarios = [
  scenario('json, group_by err.type (bench/agent.js)', 'json', json, '{ name: errors, level: error, group_wait: 0s, group_by: [err.type] }'),
  scenario('json, default fingerprint', 'json', json, '{ name: errors, level: error, group_wait: 0s }'),
  scenario('json, default fingerprint, redact + secrets', 'json', json, '{ name: errors, level: error, group_wait: 0s }',
    { extra: 'redact: [reqId, err.stack]\n', secrets: ['sk_live_0123456789abcdef', 'tok-5e3b91a7c2'] }),
  scenario('text (bench/agent.js --format text)', 'text', text, '{ name: errors, level: error, group_wait: 0s }'),
  scenario('text, secrets', 'text', text, '{ name: errors, level: error, group_wait: 0s }', { secrets: ['sk_live_0123456789abcdef', 'tok-5e3b91a7c2'] }),
]

if (only !== undefined) {
  console.log(JSON.stringify(run(scenarios[Number(only)])))
  process.exit(0)
}

// The agent's own node flags (ecosystem.config.js), as in bench/agent.js.
const nodeFlags = require('../ecosystem.config.js').apps[0].node_args ?? []
function runApart(index) {
  const { execFileSync } = require('node:child_process')
  const out = execFileSync(process.execPath, [...nodeFlags, __filename, ...args, '--scenario', String(index)], { encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').pop())
}

// On a shared machine the best round is the steadier figure (other jobs only ever add time); the
// cost of the 200 MB run and its share of the budget are computed from it.
console.log(`${dist}: ${lineCount} candidate lines x ${rounds} rounds, node ${process.version}`)
console.log('                                               warm us/line     200 MB run, warm     cold: first pass in a fresh process')
console.log('scenario                                       best   median     ms   share of 0.47 s   us/line    ms   share')
const share = (ms) => `${((ms / 1000 / BUDGET_S) * 100).toFixed(1)}%`
// For bench/run.js (bench/summary.js): no peer here, so each run's cost is set against the budget.
const summaryRows = []
const budget = { peer: 'budget (0.3x grep)', peerValue: BUDGET_S * 1000, unit: 'ms per 200 MB run', better: 'lower' }
scenarios.forEach((s, index) => {
  const { median: mid, best: us, cold: coldUs } = runApart(index)
  const runLines = s.format === 'json' ? 10_400 : 16_700
  const ms = (us * runLines) / 1000
  const coldMs = (coldUs * runLines) / 1000
  console.log(`${s.name.padEnd(46)} ${us.toFixed(2).padStart(5)} ${mid.toFixed(2).padStart(7)} ${ms.toFixed(1).padStart(7)} ${share(ms).padStart(10)} ${coldUs.toFixed(2).padStart(13)} ${coldMs.toFixed(1).padStart(6)} ${share(coldMs).padStart(7)}`)
  summaryRows.push({ case: `${s.name}, warm`, logx: ms, ...budget }, { case: `${s.name}, cold`, logx: coldMs, ...budget })
})
require('./summary').reportSummary('candidates', summaryRows)
