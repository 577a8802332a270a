'use strict'
// Alerting benchmarks. Usage: npm run build && node bench/alerts.js [--rounds 7] [--lines 200000]
//   [--only filter,overhead,absence] [--dist <dir>: the build filter and absence load; overhead runs the package's own]
//
// 1. filter: NDJSON at 1% error lines through logx-tail-filter (bytes first, parse only candidates)
//    vs a plain filter that JSON.parses every line and checks the level, in the same process,
//    alternating rounds, 64 KiB chunks (what a worker receives). Reports MB/s and lines/s.
// 2. overhead: the app's own logging (log calls returning, 1% errors, all one failure) with
//    targets [logx/file] vs [logx/file + logx-sms-alert], the alert target delivering to a sandbox
//    in a child process. Reports accepted lines/s and the ratio.
// 3. absence: engine.ingest of app lines from 50 hosts (1% errors), every line selected by an absence
//    rule (`absent: { for: 5m }`, group_by hostname) beside an error rule, vs the same engine without
//    the absence rule, alternating rounds. The issue's promise: nothing per line beyond a map update.

const { spawn } = require('node:child_process')
const { once } = require('node:events')
const { mkdtempSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { Transform } = require('node:stream')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(args[index + 1])
}
const rounds = option('rounds', 7)
const lines = option('lines', 200_000)
const stringOption = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : String(args[index + 1])
}
const only = new Set(stringOption('only', 'filter,overhead,absence').split(','))
const dist = require('node:path').resolve(stringOption('dist', join(__dirname, '..', 'dist')))
const dir = mkdtempSync(join(tmpdir(), 'logx-bench-alerts-'))
// For bench/run.js (bench/summary.js): the figures printed below.
const summaryRows = []

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

// ---- 1. filter ----------------------------------------------------------------------------------

function makeInput() {
  const parts = []
  for (let i = 0; i < lines; i++) {
    const error = i % 100 === 0
    parts.push(
      JSON.stringify({
        level: error ? 50 : 30,
        time: 1700000000000 + i,
        pid: 4242,
        hostname: 'web-1',
        reqId: `req-${i}`,
        req: { method: 'GET', url: `/api/items/${i}`, headers: { 'user-agent': 'bench/1.0' } },
        responseTime: i % 97,
        msg: error ? 'database query failed' : 'request completed',
      }),
    )
  }
  const text = `${parts.join('\n')}\n`
  const buf = Buffer.from(text)
  const chunks = []
  for (let at = 0; at < buf.length; ) {
    let end = Math.min(buf.length, at + 65536)
    // Chunks end anywhere: the worker's chunks do not respect line boundaries either.
    chunks.push(buf.subarray(at, end))
    at = end
  }
  return { chunks, bytes: buf.length }
}

function plainFilter() {
  let carry = ''
  return new Transform({
    transform(chunk, _enc, cb) {
      const text = carry + chunk.toString()
      const all = text.split('\n')
      carry = all.pop()
      const out = []
      for (const line of all) {
        if (line === '') continue
        try {
          if (JSON.parse(line).level >= 50) out.push(line)
        } catch {}
      }
      cb(null, out.length ? `${out.join('\n')}\n` : undefined)
    },
  })
}

async function runFilter(make, input) {
  const stream = make()
  let passed = 0
  stream.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) passed++
  })
  const done = once(stream, 'end')
  const start = process.hrtime.bigint()
  for (const chunk of input.chunks) stream.write(chunk)
  stream.end()
  await done
  const ns = Number(process.hrtime.bigint() - start)
  if (passed !== lines / 100) throw new Error(`passed ${passed}, expected ${lines / 100}`)
  return { mbPerSec: input.bytes / 1e6 / (ns / 1e9), linesPerSec: lines / (ns / 1e9) }
}

async function benchFilter() {
  const { createTailFilter } = require(join(dist, 'agent/transports/tail-filter/index.js'))
  const input = makeInput()
  const impls = { 'logx-tail-filter': () => createTailFilter({}), 'JSON.parse per line': plainFilter }
  for (const make of Object.values(impls)) await runFilter(make, input) // warm-up
  const results = Object.fromEntries(Object.keys(impls).map((k) => [k, []]))
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? Object.keys(impls).reverse() : Object.keys(impls)
    for (const name of order) results[name].push(await runFilter(impls[name], input))
  }
  console.log(`\nfilter: ${lines} NDJSON lines, ${(input.bytes / 1e6).toFixed(1)} MB, 1% error lines, ${rounds} rounds (median)`)
  console.log('| filter | MB/s | lines/s |')
  console.log('|---|---:|---:|')
  for (const [name, rs] of Object.entries(results)) {
    console.log(`| ${name} | ${median(rs.map((x) => x.mbPerSec)).toFixed(0)} | ${Math.round(median(rs.map((x) => x.linesPerSec))).toLocaleString('en-US')} |`)
  }
  const ratio = median(results['logx-tail-filter'].map((x) => x.mbPerSec)) / median(results['JSON.parse per line'].map((x) => x.mbPerSec))
  console.log(`logx-tail-filter is ${ratio.toFixed(1)}x the JSON.parse filter`)
  const mbPerSec = (name) => median(results[name].map((x) => x.mbPerSec))
  summaryRows.push({ case: 'filter', logx: mbPerSec('logx-tail-filter'), peer: 'JSON.parse per line', peerValue: mbPerSec('JSON.parse per line'), unit: 'MB/s', better: 'higher', ratio })
}

// ---- 2. overhead --------------------------------------------------------------------------------

async function startSandboxProcess() {
  // Its own process: the app's logging loop must not be what delays the API's answers.
  const code = `require(${JSON.stringify(join(__dirname, '..', 'dist', 'agent', 'sandbox', 'index.js'))}).startSandbox({ port: 0 }).then((s) => { process.send(s.info); process.on('disconnect', () => s.close().then(() => process.exit(0))) })`
  const child = spawn(process.execPath, ['-e', code], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] })
  const [info] = await once(child, 'message')
  return { info, close: () => { child.disconnect() } }
}

let fileNumber = 0
async function runApp(withAlert, sandbox) {
  const logx = require('..')
  const file = join(dir, `app-${++fileNumber}.log`)
  const targets = [{ target: 'logx/file', options: { destination: file } }]
  if (withAlert) {
    targets.push({
      target: 'logx-sms-alert',
      level: 'error',
      options: { messagingUrl: sandbox.info.baseUrl, apiKey: 'sandbox-api-key', numbers: [919800000001] },
    })
  }
  const stream = logx.transport({ targets })
  const logger = logx(stream)
  await once(stream, 'ready')
  const closed = once(stream, 'close')
  const err = new Error('database query failed')
  const start = process.hrtime.bigint()
  for (let i = 0; i < lines; i++) {
    if (i % 100 === 0) logger.error({ err, reqId: `req-${i}` }, 'database query failed')
    else logger.info({ reqId: `req-${i}`, req: { method: 'GET', url: '/api/items' }, responseTime: i % 97 }, 'request completed')
  }
  const ns = Number(process.hrtime.bigint() - start)
  stream.end()
  await closed
  rmSync(file)
  return lines / (ns / 1e9)
}

async function benchOverhead() {
  const sandbox = await startSandboxProcess()
  try {
    await runApp(false, sandbox)
    await runApp(true, sandbox) // warm-up
    const plain = []
    const alert = []
    for (let r = 0; r < rounds; r++) {
      if (r % 2) {
        alert.push(await runApp(true, sandbox))
        plain.push(await runApp(false, sandbox))
      } else {
        plain.push(await runApp(false, sandbox))
        alert.push(await runApp(true, sandbox))
      }
    }
    const p = median(plain)
    const a = median(alert)
    // Paired per round: drift of the machine affects both halves of a round alike.
    const ratios = plain.map((value, i) => alert[i] / value)
    console.log(`\noverhead: the app logs ${lines} lines (1% errors, one failure), ${rounds} rounds (median)`)
    console.log('| transport | accepted lines/s |')
    console.log('|---|---:|')
    console.log(`| logx/file | ${Math.round(p).toLocaleString('en-US')} |`)
    console.log(`| logx/file + logx-sms-alert (level error) | ${Math.round(a).toLocaleString('en-US')} |`)
    const pct = (ratio) => `${((1 - ratio) * 100).toFixed(1)}%`
    const sorted = [...ratios].sort((x, y) => x - y)
    console.log(`overhead (median of paired rounds): ${pct(median(ratios))}; rounds ranged ${pct(sorted[sorted.length - 1])} .. ${pct(sorted[0])}`)
    summaryRows.push({ case: 'app logging + logx-sms-alert', logx: a, peer: 'logx/file alone', peerValue: p, unit: 'accepted lines/s', better: 'higher', ratio: median(ratios) })
  } finally {
    sandbox.close()
  }
}

// ---- 3. absence ---------------------------------------------------------------------------------

function absenceInput() {
  const out = []
  for (let i = 0; i < lines; i++) {
    const error = i % 100 === 0
    out.push(JSON.stringify({
      level: error ? 50 : 30,
      time: 1700000000000 + i,
      pid: 4242,
      hostname: `web-${i % 50}`,
      reqId: `req-${i}`,
      msg: error ? 'database query failed' : 'request completed',
    }))
  }
  return out
}

function absenceEngines() {
  const { parseAgentConfig } = require(join(dist, 'agent/config/load/load-config.js'))
  const { createAlertEngine } = require(join(dist, 'alerts/index.js'))
  const configOf = (rules) => {
    const parsed = parseAgentConfig(`sources: [{ name: app, paths: [${join(dir, '*.log')}] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
rules:
${rules.map((r) => `  - ${r}`).join('\n')}
`, 'agent.yaml')
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    return { rules: parsed.config.rules, channels: parsed.config.channels }
  }
  const errors = '{ name: errors, level: error }'
  const alive = '{ name: alive, level: info, group_by: [hostname], absent: { for: 5m } }'
  return { 'rules [errors]': configOf([errors]), 'rules [alive (absent, group_by hostname), errors]': configOf([alive, errors]), createAlertEngine }
}

function runAbsence(createAlertEngine, options, input) {
  // A fresh engine a run: the same keys (50 hosts) and the one error incident in every run.
  const engine = createAlertEngine(options)
  const start = process.hrtime.bigint()
  for (let i = 0; i < input.length; i++) engine.ingest(input[i], 1700000000000 + i)
  const ns = Number(process.hrtime.bigint() - start)
  if (engine.stats().lines !== input.length) throw new Error('not every line was ingested')
  return input.length / (ns / 1e9)
}

function benchAbsence() {
  const { createAlertEngine, ...engines } = absenceEngines()
  const [plainName, absentName] = Object.keys(engines)
  const input = absenceInput()
  for (const name of [plainName, absentName]) runAbsence(createAlertEngine, engines[name], input) // warm-up
  const plain = []
  const absent = []
  for (let r = 0; r < rounds; r++) {
    if (r % 2) {
      absent.push(runAbsence(createAlertEngine, engines[absentName], input))
      plain.push(runAbsence(createAlertEngine, engines[plainName], input))
    } else {
      plain.push(runAbsence(createAlertEngine, engines[plainName], input))
      absent.push(runAbsence(createAlertEngine, engines[absentName], input))
    }
  }
  const p = median(plain)
  const a = median(absent)
  // Paired per round, as the overhead row.
  const ratios = plain.map((value, i) => absent[i] / value)
  console.log(`\nabsence: engine.ingest of ${lines} JSON lines from 50 hosts (1% errors), ${rounds} rounds (median)`)
  console.log('| engine | lines/s | ns/line |')
  console.log('|---|---:|---:|')
  console.log(`| ${plainName} | ${Math.round(p).toLocaleString('en-US')} | ${(1e9 / p).toFixed(0)} |`)
  console.log(`| ${absentName} | ${Math.round(a).toLocaleString('en-US')} | ${(1e9 / a).toFixed(0)} |`)
  console.log(`with the absence rule: ${median(ratios).toFixed(2)}x the throughput (median of paired rounds), ${(1e9 / a - 1e9 / p).toFixed(0)} ns more a line`)
  summaryRows.push({ case: 'engine.ingest + absence rule', logx: a, peer: 'same engine without it', peerValue: p, unit: 'lines/s', better: 'higher', ratio: median(ratios) })
}

async function main() {
  console.log(`node ${process.version}, ${require('node:os').cpus()[0]?.model ?? 'cpu'}`)
  if (only.has('filter')) await benchFilter()
  if (only.has('overhead')) await benchOverhead()
  if (only.has('absence')) benchAbsence()
  rmSync(dir, { recursive: true, force: true })
  require('./summary').reportSummary('alerts', summaryRows)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
