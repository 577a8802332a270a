'use strict'
// `logx/file` vs `pino/file` transports: each library's logger writes N lines into a worker-thread
// transport that appends to a file ('logger' case), or the same prebuilt line is written straight
// to each transport stream ('raw' case: the transport alone). Same process, alternating rounds, the
// worker started (ready) before the clock starts. Two numbers per round:
//   accepted - lines/s for the log calls to return (what the app pays)
//   flushed  - ms from the first call until the transport has closed with every line on disk
// Usage: npm run build && node bench/transport-file.js [--rounds 7] [--lines 100000]

const { once } = require('node:events')
const { mkdtempSync, readFileSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const pino = require('pino')
const logx = require('..')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(args[index + 1])
}
const rounds = option('rounds', 7)
const lines = option('lines', 100_000)
const dir = mkdtempSync(join(tmpdir(), 'logx-bench-transport-'))

const impls = {
  logx: (file) => {
    const stream = logx.transport({ target: 'logx/file', options: { destination: file } })
    return { stream, logger: logx(stream) }
  },
  pino: (file) => {
    const stream = pino.transport({ target: 'pino/file', options: { destination: file } })
    return { stream, logger: pino(stream) }
  },
}

function countLines(file) {
  const text = readFileSync(file, 'utf8')
  let count = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++
  return count
}

let fileNumber = 0
const rawLine = '{"level":30,"time":1700000000000,"pid":1,"hostname":"h","i":1,"user":"ann","path":"/api/items","msg":"request handled"}\n'

async function runOnce(name, mode) {
  const file = join(dir, `${name}-${++fileNumber}.log`)
  const { stream, logger } = impls[name](file)
  await once(stream, 'ready')
  const closed = once(stream, 'close')
  const start = process.hrtime.bigint()
  if (mode === 'raw') for (let i = 0; i < lines; i++) stream.write(rawLine)
  else for (let i = 0; i < lines; i++) logger.info({ i, user: 'ann', path: '/api/items' }, 'request handled')
  const accepted = Number(process.hrtime.bigint() - start)
  // pino's transport is unreferenced once ready: without ref() the loop would run dry while waiting.
  stream.ref()
  stream.end()
  await closed
  const flushed = Number(process.hrtime.bigint() - start)
  const written = countLines(file)
  rmSync(file)
  if (written !== lines) throw new Error(`${name}: ${written} of ${lines} lines on disk`)
  return { acceptedPerSec: lines / (accepted / 1e9), flushedMs: flushed / 1e6 }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

// For bench/run.js (bench/summary.js): the same medians as the table.
const summaryRows = []

async function measure(mode) {
  await runOnce('logx', mode)
  await runOnce('pino', mode) // warm-up, not counted
  const results = { logx: [], pino: [] }
  const acceptedRatios = []
  const flushedRatios = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['logx', 'pino'] : ['pino', 'logx']
    const result = {}
    for (const name of order) result[name] = await runOnce(name, mode)
    results.logx.push(result.logx)
    results.pino.push(result.pino)
    acceptedRatios.push(result.logx.acceptedPerSec / result.pino.acceptedPerSec)
    flushedRatios.push(result.pino.flushedMs / result.logx.flushedMs)
  }
  const mid = (name, pick) => median(results[name].map(pick))
  summaryRows.push(
    { case: `${mode}, accepted`, logx: mid('logx', (r) => r.acceptedPerSec), peer: 'pino/file', peerValue: mid('pino', (r) => r.acceptedPerSec), unit: 'lines/s', better: 'higher', ratio: median(acceptedRatios) },
    { case: `${mode}, flushed`, logx: mid('logx', (r) => r.flushedMs), peer: 'pino/file', peerValue: mid('pino', (r) => r.flushedMs), unit: 'ms', better: 'lower', ratio: median(flushedRatios) },
  )
  const cell = (name, pick, digits) => {
    const value = median(results[name].map(pick))
    return digits === undefined ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits)
  }
  return {
    case: mode,
    'logx/file accepted lines/s': cell('logx', (r) => r.acceptedPerSec),
    'pino/file accepted lines/s': cell('pino', (r) => r.acceptedPerSec),
    'accepted ratio logx/pino': median(acceptedRatios).toFixed(2),
    'logx/file ms to flushed': cell('logx', (r) => r.flushedMs, 1),
    'pino/file ms to flushed': cell('pino', (r) => r.flushedMs, 1),
    'flushed ratio pino/logx': median(flushedRatios).toFixed(2),
  }
}

async function main() {
  const rows = [await measure('logger'), await measure('raw')]
  console.log(`transport to a file, ${lines} lines x ${rounds} rounds (medians; ratios > 1 mean logx is faster), node ${process.version}`)
  console.table(rows)
  rmSync(dir, { recursive: true, force: true })
  require('./summary').reportSummary('transport-file', summaryRows)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
