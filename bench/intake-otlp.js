'use strict'
// The OTLP case of the intake benchmark (issue #31): log records from the OpenTelemetry JS SDK
// (sdk-logs, BatchLogRecordProcessor, exporter-logs-otlp-proto: OTLP/HTTP protobuf) into a real agent's
// `otlp` source, 1% of them errors; counted into the alert path (logx_agent_intake_events_total, which
// the agent raises only once a request's records are journaled). Timed from the first record emitted to
// the last one counted. The SDK runs in --senders worker threads of this process (each its own
// LoggerProvider and exporter, as several services would send), the agent in its own process: one
// sender flushing a batch and waiting for its answer would leave the agent idle while it encodes the
// next. Beside records/s, the agent's own CPU time per record (user + system, from /proc), which the
// senders' share of the machine does not change. Goal: >= 50,000 records/s.
//
// Usage: npm run build && node bench/intake-otlp.js [--records 200000] [--senders 2] [--warmup 10000]
//   [--format text|json]
//   --warmup: records each sender sends before the clock starts, not counted; bench/intake.js runs it as
//   its OTLP case (runOtlpCase).
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads')
const common = require('./intake-common')
const { eventsTaken, fmt, oneSourceConfig, startIntakeAgent } = common

const GOAL_RECORDS_PER_S = 50_000
const BATCH = 2048

/**
 * A sender (a worker thread): loads the SDK, makes its provider and sends `warmup` records (the SDK's and the
 * agent's code compiled before the clock starts), says "ready", and on "go" emits records
 * [first, first + count) to `url`, a batch's worth at a time, flushed after each.
 */
async function sender({ url, first, count, warmup }) {
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
  const emit = async (from, n) => {
    for (let i = from; i < from + n; i++) {
      const error = i % 100 === 0
      logger.emit({
        severityNumber: error ? SeverityNumber.ERROR : SeverityNumber.INFO,
        severityText: error ? 'ERROR' : 'INFO',
        body: error ? `payment ${i} failed: card declined` : `request ${i} served in 12 ms`,
        attributes: { 'order.id': i, 'http.route': '/pay' },
      })
      if ((i + 1 - from) % BATCH === 0) await processor.forceFlush()
    }
    await processor.forceFlush()
  }
  await emit(first, warmup)
  const go = new Promise((resolve) => parentPort.once('message', resolve))
  parentPort.postMessage('ready')
  await go
  await emit(first, count)
  await provider.shutdown()
}

/**
 * `senders` worker threads, each with an equal share of `records`, the SDK loaded and `warmup` records
 * sent (start-up and compilation are not what the case measures); go() starts them all and resolves once
 * every one has sent its share.
 */
async function startSenders(url, records, senders, warmup) {
  const share = Math.ceil(records / senders)
  const workers = []
  for (let first = 0; first < records; first += share) {
    const count = Math.min(share, records - first)
    workers.push(new Worker(__filename, { workerData: { url, first, count, warmup } }))
  }
  const done = workers.map((worker) => new Promise((resolve, reject) => {
    worker.once('error', reject)
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a sender exited ${code}`))))
  }))
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))))
  return {
    count: workers.length,
    go() {
      for (const worker of workers) worker.postMessage('go')
      return Promise.all(done)
    },
  }
}

/** Runs the case; returns records/s, the agent's CPU per record and its peak RSS. */
async function runOtlpCase({ records = 200_000, senders = 2, warmup = 10_000 } = {}) {
  const agent = await startIntakeAgent('otlp', (port, state) => oneSourceConfig(
    state,
    `{ name: otel, type: otlp, listen: "127.0.0.1:${port}", rate_limit: { requests: 100000, per: 1s } }`,
    '{ name: errors, source: otel, level: error, group_by: [service], notify: [sms] }',
  ))
  try {
    const metricsUrl = await agent.banner
    const senderThreads = await startSenders(`http://127.0.0.1:${agent.port}/v1/logs`, records, senders, warmup)
    const warmupTotal = warmup * senderThreads.count
    await eventsTaken(metricsUrl, 'otel', warmupTotal)
    const cpuBefore = agent.cpuSeconds()
    // This process's CPU is the senders' (worker threads count in it): what the SDK costs per record.
    const sendersBefore = process.cpuUsage()
    const started = performance.now()
    await senderThreads.go()
    await eventsTaken(metricsUrl, 'otel', warmupTotal + records)
    const seconds = (performance.now() - started) / 1000
    const agentCpuUsPerRecord = ((agent.cpuSeconds() - cpuBefore) * 1e6) / records
    const sendersCpu = process.cpuUsage(sendersBefore)
    const sendersCpuUsPerRecord = (sendersCpu.user + sendersCpu.system) / records
    const peakRssMb = agent.hwmMb()
    const recordsPerS = records / seconds
    return { records, senders, warmup, recordsPerS, seconds, agentCpuUsPerRecord, sendersCpuUsPerRecord, peakRssMb }
  } finally {
    await agent.stop()
  }
}

async function main() {
  const option = common.commandOptions()
  const records = Number(option('records', '200000'))
  const senders = Number(option('senders', '2'))
  const warmup = Number(option('warmup', '10000'))
  common.requireWholeNumbers([records, senders], 'intake-otlp: --records and --senders take whole numbers')
  common.requireWholeNumbers([warmup], 'intake-otlp: --warmup takes a whole number', 0)
  const r = await runOtlpCase({ records, senders, warmup })
  if (option('format', 'text') === 'json') return console.log(JSON.stringify(r))
  console.log(`OTLP/HTTP protobuf from the OpenTelemetry JS SDK, ${fmt(r.records)} records (1% errors) from ` +
    `${r.senders} sender${r.senders === 1 ? '' : 's'} (after ${fmt(r.warmup)} each to warm up) into the alert path: ` +
    `${fmt(r.recordsPerS)} records/s, agent CPU ` +
    `${r.agentCpuUsPerRecord.toFixed(1)} us/record, senders' CPU ${r.sendersCpuUsPerRecord.toFixed(1)} us/record ` +
    `(agent peak RSS ${r.peakRssMb.toFixed(0)} MB); ` +
    `goal >= ${fmt(GOAL_RECORDS_PER_S)} records/s: ${r.recordsPerS >= GOAL_RECORDS_PER_S ? 'met' : 'NOT met'}`)
}

if (isMainThread) common.runWhenMain(module, main)
// A sender: its exporter's keep-alive sockets would hold the thread open once it is done.
else sender(workerData).then(() => process.exit(0))

module.exports = { runOtlpCase, GOAL_RECORDS_PER_S }
