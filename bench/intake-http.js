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
const common = require('./intake-common')
const { fmt, oneSourceConfig, post, startIntakeAgent } = common

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

/** Runs the case; returns events/s (journaled) and the agent's peak RSS. */
async function runHttpCase({ events = 200_000, batch = 500, clients = 4 } = {}) {
  const agent = await startIntakeAgent('http', (port, state) => oneSourceConfig(
    state,
    `{ name: bench, type: http, listen: "127.0.0.1:${port}", rate_limit: { requests: 1000000, per: 1s } }`,
    '{ name: errors, source: bench, level: error, group_by: [service], notify: [sms] }',
  ))
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
        const status = await post(keepAlive, agent.port, '/ingest/bench', 'application/x-ndjson', body)
        if (status !== 200) throw new Error(`the agent answered ${status} to a batch`)
      }
    }
    await Promise.all(Array.from({ length: clients }, client))
    const seconds = (performance.now() - started) / 1000
    return { events, batch, clients, eventsPerS: events / seconds, seconds, peakRssMb: agent.hwmMb() }
  } finally {
    keepAlive.destroy()
    await agent.stop()
  }
}

async function main() {
  const option = common.commandOptions()
  const events = Number(option('events', '200000'))
  const batch = Number(option('batch', '500'))
  const clients = Number(option('clients', '4'))
  const usage = 'intake-http: --events, --batch and --clients take whole numbers'
  common.requireWholeNumbers([events, batch, clients], usage)
  const r = await runHttpCase({ events, batch, clients })
  if (option('format', 'text') === 'json') return console.log(JSON.stringify(r))
  console.log(`http intake, ${fmt(r.events)} NDJSON events (1% errors) in batches of ${r.batch} from ${r.clients} ` +
    `clients, each 200 after the outbox fsync: ${fmt(r.eventsPerS)} events/s ` +
    `(agent peak RSS ${r.peakRssMb.toFixed(0)} MB)`)
}

common.runWhenMain(module, main)

module.exports = { runHttpCase }
