'use strict'
// The agent's console API under load: issue #14 asks it to answer in under 100 ms with 10,000 open
// incidents. A server process (the agent's node flags, ecosystem.config.js) runs the console as the
// agent mounts it, on the metrics server (startMetricsServer + createConsoleHandler from dist/),
// with the agent's own backend (console-backend.ts) over a real alert path holding --incidents open
// incidents, each with a --timeline-entry timeline. This process is
// the client: one keep-alive connection, one request at a time, --requests per route after 20 to
// warm up, each timed from sending to the last byte of the answer, with the token in the header.
//   GET /api/incidents        every incident (about 3 MB of JSON at 10,000)
//   GET /api/incidents?limit=1000  the 1,000 seen last, as the page polls every 3 s
//   GET /api/incidents/:id    one incident with its timeline, by full key (random ones)
//   GET /                     the page
// There is no peer: p99 is set against the 100 ms budget; the ratio printed (and in the summary
// line, bench/summary.js) is budget / p99: above 1 the console is within it.
// Usage: npm run build && node bench/console.js [--incidents 10000] [--timeline 20] [--requests 200] [--dist dist] [--flags agent|none] [--churn]
//   --churn: error lines keep arriving for the open incidents (one every 5 ms), so every request
//   finds some incidents changed (the backend keeps each incident's summary until it changes)
//   --flags none: the server without the agent's node flags (--optimize-for-size costs the full list most)

const { spawn } = require('node:child_process')
const { Agent, request } = require('node:http')
const { join, resolve } = require('node:path')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const incidentCount = Number(option('incidents', 10_000))
const timelineLength = Number(option('timeline', 20))
const requests = Number(option('requests', 200))
const dist = resolve(option('dist', join(__dirname, '..', 'dist')))
const BUDGET_MS = 100
const TOKEN = 'bench-console-token-0123456789'
const WARM_UP = 20

/**
 * The agent's own backend over a real alert path (in memory, as an app target keeps it): one rule
 * whose incidents are keyed by `req`, --incidents error lines ingested (each opens and fires an
 * incident), --timeline entries per incident in its timeline. Nothing is sent: the rule pages no
 * channel (only the recording one, whose notes go nowhere without a CRM).
 */
function createBackend(modules) {
  const { createAlertPath, toAlertLine, createConsoleBackend } = modules
  const rule = {
    name: 'errors', sources: undefined, minLevel: 50, match: [], message: undefined, groupBy: ['req'], groupWaitMs: 0, repeatIntervalMs: 3_600_000,
    resolveAfterMs: undefined, sendResolved: false, threshold: undefined, notify: [], escalate: [], incident: false, title: undefined, ackTimeoutMs: undefined,
  }
  const setup = { rules: [rule], channels: [], silences: [], redact: [], secrets: [], incidentNotes: undefined }
  const log = { info() {}, warn() {}, error() {} }
  const start = Date.now() - 86_400_000
  const path = createAlertPath({ setup, statePath: undefined, outbox: { path: undefined }, api: undefined, crm: undefined, log, now: start })
  for (let i = 0; i < incidentCount; i++) {
    const at = start + i * 1000
    const raw = JSON.stringify({ level: 50, time: at, req: i, msg: `request failed: upstream timed out after ${3000 + (i % 7)}ms`, err: { type: 'TypeError', message: 'connection refused' } })
    path.pipeline.ingest(toAlertLine(raw, 'json', 'app').line, at)
  }
  for (const incident of path.pipeline.incidents()) {
    for (let t = 1; t < timelineLength; t++) {
      path.timeline.add(incident.key, { at: incident.firstSeen + t * 60_000, kind: 'repeat', text: `still firing (${t} new, ${t + 1} in all): oncall-sms, team-chat`, channels: ['oncall-sms', 'team-chat'] })
    }
  }
  const config = { file: 'bench', silences: [], people: [{ name: 'asha' }, { name: 'ravi' }] }
  if (args.includes('--churn')) {
    // Lines keep arriving (one every 5 ms, for incidents already open): nothing the backend made
    // for one request is current at the next.
    let i = 0
    setInterval(() => {
      const n = (i++ * 7919) % incidentCount
      const raw = JSON.stringify({ level: 50, time: Date.now(), req: n, msg: `request failed: upstream timed out after ${3000 + (n % 7)}ms`, err: { type: 'TypeError', message: 'connection refused' } })
      path.pipeline.ingest(toAlertLine(raw, 'json', 'app').line, Date.now())
    }, 5).unref()
  }
  return createConsoleBackend(path, () => config, () => start, Date.now)
}

/** --serve: the server process; prints its port, serves until its parent goes. */
async function serve() {
  let loaded
  try {
    loaded = {
      ...require(join(dist, 'agent/daemon/console/index.js')),
      ...require(join(dist, 'agent/daemon/metrics-server.js')),
      ...require(join(dist, 'agent/daemon/console-backend.js')),
      ...require(join(dist, 'agent/acknowledge/with-actions.js')),
      ...require(join(dist, 'agent/events/alert-line.js')),
    }
  } catch (error) {
    console.error(`bench/console.js: cannot load the console from ${dist} (run npm run build first): ${error.message}`)
    process.exit(1)
  }
  const { createConsoleHandler, startMetricsServer } = loaded
  const handler = createConsoleHandler({ backend: createBackend(loaded), token: TOKEN, generated: false, host: '127.0.0.1' })
  const server = await startMetricsServer({ host: '127.0.0.1', port: 0 }, () => [], () => ({ ok: true }), handler)
  process.stdout.write(`console-bench-port ${new URL(server.url).port}\n`)
  process.stdin.resume()
  process.stdin.on('end', () => server.close().then(() => process.exit(0)))
}

function startServer() {
  const nodeFlags = option('flags', 'agent') === 'none' ? [] : (require('../ecosystem.config.js').apps[0].node_args ?? [])
  const child = spawn(process.execPath, [...nodeFlags, __filename, ...args, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] })
  return new Promise((resolvePort, reject) => {
    child.once('exit', (code) => reject(new Error(`the console server exited with ${code}`)))
    let seen = ''
    child.stdout.on('data', (chunk) => {
      seen += String(chunk)
      const port = /^console-bench-port (\d+)$/m.exec(seen)
      if (port !== null) resolvePort({ port: Number(port[1]), child })
    })
  })
}

function timedGet(agent, port, path) {
  return new Promise((done, reject) => {
    const t0 = process.hrtime.bigint()
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      let bytes = 0
      res.on('data', (chunk) => {
        bytes += chunk.length
      })
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode}`))
        else done({ ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** The incidents' ids, once, as a client finds them. */
function listIds(agent, port) {
  return new Promise((done, reject) => {
    request({ host: '127.0.0.1', port, path: '/api/incidents', agent, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => done(JSON.parse(body).incidents.map((i) => i.id)))
    }).on('error', reject).end()
  })
}

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]

async function main() {
  const { port, child } = await startServer()
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const ids = await listIds(agent, port)
  const routes = [
    { name: 'GET /api/incidents', path: () => '/api/incidents' },
    { name: 'GET /api/incidents?limit=1000 (the page\'s poll)', path: () => '/api/incidents?limit=1000' },
    { name: 'GET /api/incidents/:id', path: (i) => `/api/incidents/${encodeURIComponent(ids[(i * 7907) % ids.length])}` },
    { name: 'GET /', path: () => '/' },
  ]
  const summaryRows = []
  try {
    console.log(`console: ${incidentCount.toLocaleString('en-US')} open incidents x ${timelineLength} timeline entries${args.includes('--churn') ? ', a line every 5 ms' : ''}, ${requests} requests per route (after ${WARM_UP} to warm up), one at a time, node ${process.version}`)
    console.log('| route | answer | p50 ms | p99 ms | max ms | budget / p99 |')
    console.log('|---|---:|---:|---:|---:|---:|')
    for (const route of routes) {
      const ms = []
      let bytes = 0
      for (let i = 0; i < WARM_UP + requests; i++) {
        const answer = await timedGet(agent, port, route.path(i))
        if (i >= WARM_UP) ms.push(answer.ms)
        bytes = answer.bytes
      }
      const p50 = percentile(ms, 50)
      const p99 = percentile(ms, 99)
      const size = bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`
      console.log(`| ${route.name} | ${size} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${Math.max(...ms).toFixed(2)} | ${(BUDGET_MS / p99).toFixed(2)} |`)
      summaryRows.push(
        { case: `${route.name} p50`, logx: p50, unit: 'ms', better: 'lower' },
        { case: `${route.name} p99`, logx: p99, peer: `budget (${BUDGET_MS} ms)`, peerValue: BUDGET_MS, unit: 'ms', better: 'lower' },
      )
    }
    console.log(`budget / p99 above 1: within the ${BUDGET_MS} ms budget of issue #14`)
  } finally {
    agent.destroy()
    child.stdin.end()
  }
  require('./summary').reportSummary('console', summaryRows)
}

if (args.includes('--serve')) serve()
else {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
