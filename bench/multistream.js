'use strict'
// logx.multistream vs pino.multistream: four SonicBoom streams on /dev/null (levels debug, info,
// warn, error), half info and half error lines. Two views, same process, alternating rounds:
//   raw    - the multistream alone: set lastLevel, write a prebuilt line (what the logger does)
//   logger - logger.info/error through each library's own logger into its multistream
// Usage: npm run build && node bench/multistream.js [--rounds 7] [--calls 200000]

const { openSync } = require('node:fs')
const { SonicBoom } = require('sonic-boom')
const pino = require('pino')
const logx = require('..')

const logxMultistream = logx.multistream

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(args[index + 1])
}
const rounds = option('rounds', 7)
const calls = option('calls', 200_000)

function sinks(noop = false) {
  if (noop) return ['debug', 'info', 'warn', 'error'].map((level) => ({ level, stream: { write: () => true, flushSync() {}, destroy() {} } }))
  return ['debug', 'info', 'warn', 'error'].map((level) => ({
    level,
    // An fd opened up front: the stream is ready at once, as pino.destination(path) with sync open.
    stream: new SonicBoom({ fd: openSync('/dev/null', 'w'), sync: false, minLength: 4096 }),
  }))
}

const infoLine = '{"level":30,"time":1700000000000,"pid":1,"hostname":"h","msg":"hello world"}\n'
const errorLine = '{"level":50,"time":1700000000000,"pid":1,"hostname":"h","msg":"something failed"}\n'

function rawRun(build, noop = false) {
  const entries = sinks(noop)
  const ms = build(entries)
  const start = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) {
    const error = (i & 1) === 1
    ms.lastLevel = error ? 50 : 30
    ms.write(error ? errorLine : infoLine)
  }
  const ns = Number(process.hrtime.bigint() - start)
  for (const { stream } of entries) {
    stream.flushSync()
    stream.destroy()
  }
  return ns / calls
}

function loggerRun(make) {
  const entries = sinks()
  const logger = make(entries)
  const start = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) {
    if ((i & 1) === 1) logger.error({ attempt: i }, 'something failed')
    else logger.info('hello world')
  }
  const ns = Number(process.hrtime.bigint() - start)
  for (const { stream } of entries) {
    stream.flushSync()
    stream.destroy()
  }
  return ns / calls
}

const cases = {
  'raw-noop': {
    logx: () => rawRun((entries) => logxMultistream(entries), true),
    pino: () => rawRun((entries) => pino.multistream(entries), true),
  },
  raw: {
    logx: () => rawRun((entries) => logxMultistream(entries)),
    pino: () => rawRun((entries) => pino.multistream(entries)),
  },
  logger: {
    logx: () => loggerRun((entries) => logx({ level: 'debug' }, logxMultistream(entries))),
    pino: () => loggerRun((entries) => pino({ level: 'debug' }, pino.multistream(entries))),
  },
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const rows = []
const summaryRows = []
for (const [name, impls] of Object.entries(cases)) {
  impls.logx()
  impls.pino() // warm-up, not counted
  const times = { logx: [], pino: [] }
  const ratios = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['logx', 'pino'] : ['pino', 'logx']
    const result = {}
    for (const impl of order) result[impl] = impls[impl]()
    times.logx.push(result.logx)
    times.pino.push(result.pino)
    ratios.push(result.pino / result.logx)
  }
  rows.push({
    case: name,
    'logx ns/call': median(times.logx).toFixed(1),
    'pino ns/call': median(times.pino).toFixed(1),
    'logx calls/s': Math.round(1e9 / median(times.logx)).toLocaleString('en-US'),
    'pino calls/s': Math.round(1e9 / median(times.pino)).toLocaleString('en-US'),
    'speed ratio logx/pino (median)': median(ratios).toFixed(2),
  })
  summaryRows.push({ case: name, logx: median(times.logx), peer: 'pino', peerValue: median(times.pino), unit: 'ns/call', better: 'lower', ratio: median(ratios) })
}

console.log(`multistream, 4 streams to /dev/null, ${calls} calls x ${rounds} rounds, node ${process.version}`)
console.table(rows)
require('./summary').reportSummary('multistream', summaryRows)
