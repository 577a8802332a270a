'use strict'
// Sends per second through the messaging client and the sandbox on loopback, with latency
// percentiles, against a peer: bare undici.request posting the same body (no validation, success
// detection, error classification or redaction), which shows what the client itself costs. Both
// make one attempt per send: retrying is the outbox's, not the client's.
//
//   npm run build && node bench/messaging.js [--sends 3000] [--concurrency 1,8,64] [--rounds 3]
//
// The sandbox runs in a worker thread so that client and server do not share one event loop.
// Client and peer alternate, `--rounds` times per row, and the round with the median throughput is
// reported: on a shared machine one-shot numbers swing by 2x.

const { Worker } = require('node:worker_threads')
const { performance } = require('node:perf_hooks')
const path = require('node:path')
const os = require('node:os')
const { request, Agent } = require('undici')
const { createMessagingClient, buildSmsSend } = require('../dist/agent/messaging/index.js')

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}

const SENDS = Number(arg('sends', '3000'))
const CONCURRENCY = String(arg('concurrency', '1,8,64')).split(',').map(Number)
const ROUNDS = Number(arg('rounds', '3'))
const WARMUP = 1000

function startSandboxWorker() {
  const sandboxPath = path.join(__dirname, '..', 'dist', 'agent', 'sandbox', 'index.js')
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
     const { startSandbox } = require(workerData.sandboxPath)
     startSandbox({ retention: 1000 }).then((sb) => {
       parentPort.postMessage({ baseUrl: sb.info.baseUrl, apiKey: sb.apiKey })
       parentPort.once('message', () => sb.close().then(() => process.exit(0)))
     })`,
    { eval: true, workerData: { sandboxPath } },
  )
  return new Promise((resolve, reject) => {
    worker.once('message', (info) => resolve({ ...info, stop: () => worker.postMessage('stop') }))
    worker.once('error', reject)
  })
}

function percentile(sorted, p) {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, i)]
}

async function run(label, concurrency, total, sendOne) {
  const latencies = new Float64Array(total)
  let next = 0
  const started = performance.now()
  async function lane() {
    while (next < total) {
      const i = next++
      const t0 = performance.now()
      await sendOne(i)
      latencies[i] = performance.now() - t0
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  const elapsed = performance.now() - started
  const sorted = Array.from(latencies).sort((a, b) => a - b)
  return {
    label,
    concurrency,
    sends: total,
    perSec: Math.round((total / elapsed) * 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  }
}

function table(rows) {
  const header = ['sender', 'concurrency', 'sends', 'sends/s', 'p50 ms', 'p95 ms', 'p99 ms']
  const lines = rows.map((r) => [
    r.label,
    String(r.concurrency),
    String(r.sends),
    String(r.perSec),
    r.p50.toFixed(2),
    r.p95.toFixed(2),
    r.p99.toFixed(2),
  ])
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)))
  const fmt = (cells) => `| ${cells.map((v, c) => v.padEnd(widths[c])).join(' | ')} |`
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n')
}

async function main() {
  const sandbox = await startSandboxWorker()
  const client = createMessagingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, connections: 64 })
  const peer = new Agent({ keepAliveTimeout: 30_000, connections: 64 })
  const url = `${sandbox.baseUrl}/api/v1/?apirequest=send_sms`
  const input = (i) => ({ numbers: [15550100 + (i % 1000)], text: `bench alert ${i}: error rate above threshold`, senderId: 'LOGX' })

  const viaClient = (i) => client.sendSms(input(i))
  const viaUndici = async (i) => {
    const res = await request(url, {
      method: 'POST',
      dispatcher: peer,
      headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(buildSmsSend(input(i))),
    })
    await res.body.text()
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`)
  }

  await run('warmup', 8, WARMUP, viaClient)
  await run('warmup', 8, WARMUP, viaUndici)
  const median = (results) => results.sort((a, b) => a.perSec - b.perSec)[Math.floor(results.length / 2)]
  const rows = []
  const summaryRows = []
  for (const c of CONCURRENCY) {
    const mine = []
    const peers = []
    for (let r = 0; r < ROUNDS; r++) {
      mine.push(await run('logx client', c, SENDS, viaClient))
      peers.push(await run('bare undici (peer)', c, SENDS, viaUndici))
    }
    const [ours, theirs] = [median(mine), median(peers)]
    rows.push(ours, theirs)
    // For bench/run.js (bench/summary.js): the same rounds as the table.
    summaryRows.push(
      { case: `concurrency ${c}, throughput`, logx: ours.perSec, peer: 'bare undici', peerValue: theirs.perSec, unit: 'sends/s', better: 'higher' },
      { case: `concurrency ${c}, p50`, logx: ours.p50, peer: 'bare undici', peerValue: theirs.p50, unit: 'ms', better: 'lower' },
    )
  }
  await client.close()
  await peer.close()
  sandbox.stop()

  console.log(`messaging: SMS sends through client + sandbox on loopback (${SENDS} per round, median of ${ROUNDS} rounds)`)
  console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}`)
  console.log(table(rows))
  require('./summary').reportSummary('messaging', summaryRows)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
