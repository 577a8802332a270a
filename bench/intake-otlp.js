'use strict'
// The OTLP case of the intake benchmark (issue #31): log records from the OpenTelemetry JS SDK
// (sdk-logs, BatchLogRecordProcessor, exporter-logs-otlp-proto: OTLP/HTTP protobuf) into a real agent's
// `otlp` source, 1% of them errors; counted into the alert path (logx_agent_intake_events_total, which
// the agent raises only once a request's records are journaled). Timed from the first record emitted to
// the last one counted; the SDK runs in this process, the agent in its own. Goal: >= 50,000 records/s.
//
// Usage: npm run build && node bench/intake-otlp.js [--records 200000] [--format text|json]
//   bench/intake.js runs it as its OTLP case (runOtlpCase).
const net = require('node:net')
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { startAgent, waitFor } = require('./agent-process')
const { profileArgs } = require('./intake-profile')

const GOAL_RECORDS_PER_S = 50_000
const BATCH = 2048

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

async function metricValue(metricsUrl, name) {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(name))
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1))
}

/** Emits `records` through the SDK to `url`, a batch's worth at a time, flushed after each. */
async function emitAll(url, records) {
  const { SeverityNumber } = require('@opentelemetry/api-logs')
  const { OTLPLogExporter } = require('@opentelemetry/exporter-logs-otlp-proto')
  const { resourceFromAttributes } = require('@opentelemetry/resources')
  const { BatchLogRecordProcessor, LoggerProvider } = require('@opentelemetry/sdk-logs')
  const processor = new BatchLogRecordProcessor({
    exporter: new OTLPLogExporter({ url }),
    maxExportBatchSize: BATCH,
    maxQueueSize: BATCH * 4,
    scheduledDelayMillis: 5,
  })
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'checkout', 'host.name': 'web-3' }),
    processors: [processor],
  })
  const logger = provider.getLogger('orders', '1.0.0')
  for (let i = 0; i < records; i++) {
    const error = i % 100 === 0
    logger.emit({
      severityNumber: error ? SeverityNumber.ERROR : SeverityNumber.INFO,
      severityText: error ? 'ERROR' : 'INFO',
      body: error ? `payment ${i} failed: card declined` : `request ${i} served in 12 ms`,
      attributes: { 'order.id': i, 'http.route': '/pay' },
    })
    if ((i + 1) % BATCH === 0) await processor.forceFlush()
  }
  await provider.forceFlush()
  await provider.shutdown()
}

/** Runs the case; returns records/s and the agent's peak RSS. */
async function runOtlpCase({ records = 200_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-otlp-'))
  const port = await freePort()
  const config = join(dir, 'agent.yaml')
  writeFileSync(config, `state_dir: ${join(dir, 'state')}
sources:
  - { name: otel, type: otlp, listen: "127.0.0.1:${port}", rate_limit: { requests: 100000, per: 1s } }
channels:
  sms: { type: sms, numbers: [919800000001] }
rules:
  - { name: errors, source: otel, level: error, group_by: [service], notify: [sms] }
metrics: { listen: 127.0.0.1:0 }
`)
  const agent = startAgent(config, { extraNodeArgs: profileArgs() })
  try {
    const metricsUrl = await agent.banner
    const started = performance.now()
    await emitAll(`http://127.0.0.1:${port}/v1/logs`, records)
    const name = 'logx_agent_intake_events_total{source="otel"}'
    await waitFor(async () => (await metricValue(metricsUrl, name)) >= records, 120_000, 20)
    const seconds = (performance.now() - started) / 1000
    return { records, recordsPerS: records / seconds, seconds, peakRssMb: agent.hwmMb() }
  } finally {
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
  const records = Number(option('records', '200000'))
  if (!(Number.isInteger(records) && records > 0)) {
    console.error('intake-otlp: --records takes a whole number')
    process.exit(2)
  }
  const r = await runOtlpCase({ records })
  if (option('format', 'text') === 'json') return console.log(JSON.stringify(r))
  const fmt = (n) => Math.round(n).toLocaleString('en-US')
  console.log(`OTLP/HTTP protobuf from the OpenTelemetry JS SDK, ${fmt(r.records)} records (1% errors) into the ` +
    `alert path: ${fmt(r.recordsPerS)} records/s (agent peak RSS ${r.peakRssMb.toFixed(0)} MB); ` +
    `goal >= ${fmt(GOAL_RECORDS_PER_S)} records/s: ${r.recordsPerS >= GOAL_RECORDS_PER_S ? 'met' : 'NOT met'}`)
}

if (require.main === module) main().catch((err) => {
  console.error(err)
  process.exit(1)
})

module.exports = { runOtlpCase, GOAL_RECORDS_PER_S }
