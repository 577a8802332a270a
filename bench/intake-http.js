'use strict'
// The http case of the intake benchmark (issue #31): NDJSON batches POSTed to a real agent's `http`
// source by a few concurrent clients, as Vector's and Fluent Bit's http outputs send them. An event
// counts once the agent answered 200 for its batch, which it does only after the outbox's fsync, so
// the rate is of events journaled on the alert path. 1% of the events are errors (they page, grouped
// by service: a few SMS), the rest info. No peer: the input is the agent's own protocol.
//
// Usage: npm run build && node bench/intake-http.js [--events 200000] [--batch 500] [--clients 4]
//   [--format text|json]; bench/intake.js runs it as its http case (runHttpCase).
const http = require('node:http')
const net = require('node:net')
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { startAgent } = require('./agent-process')
const { profileArgs } = require('./intake-profile')

/** A free port on 127.0.0.1, known before the agent starts. */
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

/** One NDJSON batch of `size` events starting at `first`. */
function batchOf(first, size) {
  const lines = []
  for (let i = first; i < first + size; i++) {
    const error = i % 100 === 0
    const service = `svc-${i % 7}`
    lines.push(JSON.stringify(error
      ? { level: 50, time: 1764644970123, service, msg: `payment ${i} failed: card declined` }
      : { level: 30, time: 1764644970123, service, msg: `request ${i} served in 12 ms` }))
  }
  return `${lines.join('\n')}\n`
}

function post(agent, port, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      agent, host: '127.0.0.1', port, path: '/ingest/bench', method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
    }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Runs the case; returns events/s (journaled) and the agent's peak RSS. */
async function runHttpCase({ events = 200_000, batch = 500, clients = 4 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-http-'))
  const port = await freePort()
  const config = join(dir, 'agent.yaml')
  writeFileSync(config, `state_dir: ${join(dir, 'state')}
sources:
  - { name: bench, type: http, listen: "127.0.0.1:${port}", rate_limit: { requests: 1000000, per: 1s } }
channels:
  sms: { type: sms, numbers: [919800000001] }
rules:
  - { name: errors, source: bench, level: error, group_by: [service], notify: [sms] }
metrics: { listen: 127.0.0.1:0 }
`)
  const agent = startAgent(config, { extraNodeArgs: profileArgs() })
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: clients })
  const batches = Math.ceil(events / batch)
  const bodies = Array.from({ length: batches }, (_, b) => batchOf(b * batch, Math.min(batch, events - b * batch)))
  try {
    await agent.banner
    let next = 0
    const started = performance.now()
    const client = async () => {
      while (next < batches) {
        const body = bodies[next++]
        const status = await post(keepAlive, port, body)
        if (status !== 200) throw new Error(`the agent answered ${status} to a batch`)
      }
    }
    await Promise.all(Array.from({ length: clients }, client))
    const seconds = (performance.now() - started) / 1000
    return { events, batch, clients, eventsPerS: events / seconds, seconds, peakRssMb: agent.hwmMb() }
  } finally {
    keepAlive.destroy()
    await agent.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main() {
  const args = process.argv.slice(2)
  const option = (name, fallback) => {
    const i = args.indexOf(`--${name}`)
    return i === -1 ? fallback : args[i + 1]
  }
  const events = Number(option('events', '200000'))
  const batch = Number(option('batch', '500'))
  const clients = Number(option('clients', '4'))
  if (![events, batch, clients].every((n) => Number.isInteger(n) && n > 0)) {
    console.error('intake-http: --events, --batch and --clients take whole numbers')
    process.exit(2)
  }
  const r = await runHttpCase({ events, batch, clients })
  if (option('format', 'text') === 'json') return console.log(JSON.stringify(r))
  const fmt = (n) => Math.round(n).toLocaleString('en-US')
  console.log(`http intake, ${fmt(r.events)} NDJSON events (1% errors) in batches of ${r.batch} from ${r.clients} ` +
    `clients, each 200 after the outbox fsync: ${fmt(r.eventsPerS)} events/s ` +
    `(agent peak RSS ${r.peakRssMb.toFixed(0)} MB)`)
}

if (require.main === module) main().catch((err) => {
  console.error(err)
  process.exit(1)
})

module.exports = { runHttpCase }
