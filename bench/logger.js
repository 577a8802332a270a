'use strict'
// logx vs pino on the shapes of pino's own benchmark suite, in one process, alternating rounds.
// Prints per-shape median ns/op for each and the ratio pino/logx (> 1 means logx is faster).
// Each round logs --ops lines in batches of 1000 and lets the destination drain between batches
// (only the log calls are timed): the app's cost per call, not a backlog in sonic-boom's buffer.
// The context-* and otel-* rows measure logx's asyncContext and otel options against what a pino
// user writes for the same lines (a mixin reading the store, instrumentation-pino's mixin), with no
// store or span active (-idle) and with one (-active). The iso-time rows use each library's own
// stdTimeFunctions.isoTime and isoTimeNano. Those rows stay out of the geomean (pino's shapes only).
// Usage: node bench/logger.js [--rounds 21] [--ops 10000] [--only basic,object] [--peer path/to/other/logx/index.js]
// --peer replaces pino with another build of logx (before/after a change, in one process); the
// peer always gets the pino user's mixins in the context-* and otel-* rows.
const { randomBytes } = require('node:crypto')
const { resolve } = require('node:path')
const { AsyncLocalStorage } = require('node:async_hooks')
const otel = require('@opentelemetry/api')
const logx = require('../dist/logx/index.js')

const args = process.argv.slice(2)
const flag = (name, fallback) => {
  const i = args.indexOf('--' + name)
  return i === -1 ? fallback : args[i + 1]
}
const ROUNDS = Number(flag('rounds', 21))
const OPS = Number(flag('ops', 10000))
const BATCH = 1000
const only = flag('only', '') ? flag('only', '').split(',') : null
// devnull: each library's own destination('/dev/null') (what an app pays end to end);
// noop: a destination whose write does nothing (the logger's own work only).
const DEST = flag('dest', 'devnull')
if (!['devnull', 'noop'].includes(DEST)) throw new Error('--dest must be devnull or noop')
const PEER = flag('peer', '')
const peer = PEER ? require(resolve(PEER)) : require('pino')
const PEER_NAME = PEER ? 'peer' : 'pino'

const pkg = require('../package.json')
const deep = JSON.parse(JSON.stringify(pkg))
deep.deep = JSON.parse(JSON.stringify(deep))
deep.deep.deep = JSON.parse(JSON.stringify(deep))
deep.deep.deep.deep = JSON.parse(JSON.stringify(deep))
const longString = randomBytes(2000).toString()

const formatters = {
  level (label) { return { level: label } },
  bindings (bindings) { return { process: { pid: bindings.pid }, host: { name: bindings.hostname } } },
  log (object) { return { ...object, extra: true } }
}

// The request context both loggers see: an AsyncLocalStorage store and an active span.
const storage = new AsyncLocalStorage()
const store = { reqId: 'req-7f3a', user: 'ann', tenant: 't-42' }
const spanStorage = new AsyncLocalStorage()
otel.context.setGlobalContextManager({
  active: () => spanStorage.getStore() ?? otel.ROOT_CONTEXT,
  with: (ctx, fn, thisArg, ...args) => spanStorage.run(ctx, () => fn.apply(thisArg, args)),
  bind: (ctx, target) => target,
  enable () { return this },
  disable () { return this }
})
const span = otel.trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 })
const spanContext = otel.trace.setSpan(otel.ROOT_CONTEXT, span)
// What a pino user writes: a mixin returning the store, and instrumentation-pino's mixin.
const storeMixin = () => storage.getStore() ?? {}
function otelMixin () {
  const current = otel.trace.getSpan(otel.context.active())
  if (!current) return {}
  const sc = current.spanContext()
  if (!otel.isSpanContextValid(sc)) return {}
  return { trace_id: sc.traceId, span_id: sc.spanId, trace_flags: `0${sc.traceFlags.toString(16)}` }
}
// Both storages are in use from the start, as in an app that has served a request.
storage.run(store, () => {})
otel.context.with(spanContext, () => {})
const inStore = (fn) => () => storage.run(store, fn)
const inSpan = (fn) => () => otel.context.with(spanContext, fn)

function build (lib, isLogx) {
  const dest = DEST === 'devnull' ? lib.destination('/dev/null') : { write () {}, writable: true, flush (cb) { cb() } }
  // pino's shapes model a process without OpenTelemetry, where a logx logger reads nothing per line
  // for trace ids. This process registers a context manager (for the otel rows), so those loggers
  // say otel: false to stand for that; the otel-* rows measure logx with trace ids on (what the
  // default gives once an SDK is registered) against instrumentation-pino's mixin.
  const plain = isLogx ? { otel: false } : {}
  const base = lib(plain, dest)
  const withFormatters = lib({ ...plain, formatters }, dest)
  const withContext = isLogx ? lib({ ...plain, asyncContext: { storage } }, dest) : lib({ mixin: storeMixin }, dest)
  const withOtel = isLogx ? lib({ otel: true }, dest) : lib({ mixin: otelMixin }, dest)
  // Each library's own ISO time functions (the one per-line work a time function adds).
  const withIsoTime = lib({ ...plain, timestamp: lib.stdTimeFunctions.isoTime }, dest)
  const withIsoTimeNano = lib({ ...plain, timestamp: lib.stdTimeFunctions.isoTimeNano }, dest)
  const shapes = {
    basic: () => { const l = base; return () => l.info('hello world') },
    object: () => { const l = base; return () => l.info({ hello: 'world' }) },
    'deep-object': () => { const l = base; return () => l.info(deep) },
    'multi-arg': () => { const l = base; return () => l.info('hello %s %j %d', 'world', { obj: true }, 4, { another: 'obj' }) },
    'long-string': () => { const l = base; return () => l.info(longString) },
    child: () => { const l = base.child({ a: 'property' }); return () => l.info('hello world') },
    'child-child': () => { const l = base.child({ a: 'property' }).child({ sub: 'child' }); return () => l.info('hello world') },
    'child-creation': () => { const l = base; return () => l.child({ a: 'property' }).info('hello world') },
    formatters: () => { const l = withFormatters; return () => l.info({ hello: 'world' }) },
    // The store and span are entered once per batch (see time()); the calls inside are what is timed.
    'context-idle': () => { const l = withContext; return () => l.info('hello world') },
    'context-active': () => { const l = withContext; return Object.assign(() => l.info('hello world'), { around: inStore }) },
    'otel-idle': () => { const l = withOtel; return () => l.info('hello world') },
    'otel-active': () => { const l = withOtel; return Object.assign(() => l.info('hello world'), { around: inSpan }) },
    'iso-time': () => { const l = withIsoTime; return () => l.info('hello world') },
    'iso-time-nano': () => { const l = withIsoTimeNano; return () => l.info('hello world') }
  }
  return { shapes, dest }
}

function drained (dest) {
  return new Promise((resolve) => {
    const check = () => (dest._writing || dest._len > 0 ? setImmediate(check) : resolve())
    dest.flush(check)
  })
}

async function time (fn, dest, ops) {
  let total = 0n
  const batch = () => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < BATCH; i++) fn()
    return process.hrtime.bigint() - start
  }
  const run = fn.around ? fn.around(batch) : batch
  for (let done = 0; done < ops; done += BATCH) {
    total += run()
    await drained(dest)
  }
  return Number(total) / ops
}

function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

async function main () {
  const suites = { logx: build(logx, true), pino: build(peer, false) }
  const shapes = Object.keys(suites.logx.shapes).filter((s) => !only || only.includes(s))
  const rows = []
  for (const shape of shapes) {
    const fns = { logx: suites.logx.shapes[shape](), pino: suites.pino.shapes[shape]() }
    // Warm up both before measuring.
    for (const name of ['logx', 'pino']) await time(fns[name], suites[name].dest, OPS)
    const samples = { logx: [], pino: [] }
    const ratios = []
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['logx', 'pino'] : ['pino', 'logx']
      const roundTimes = {}
      for (const name of order) {
        roundTimes[name] = await time(fns[name], suites[name].dest, OPS)
        samples[name].push(roundTimes[name])
      }
      ratios.push(roundTimes.pino / roundTimes.logx)
    }
    rows.push({ shape, logx: median(samples.logx), pino: median(samples.pino), ratio: median(ratios) })
  }
  const pad = (s, n) => String(s).padEnd(n)
  console.log(pad('shape', 16) + pad('logx ns/op', 12) + pad(PEER_NAME + ' ns/op', 12) + PEER_NAME + '/logx')
  for (const r of rows) console.log(pad(r.shape, 16) + pad(r.logx.toFixed(0), 12) + pad(r.pino.toFixed(0), 12) + r.ratio.toFixed(3))
  // The geomean stays over pino's own shapes, so that it compares with earlier runs.
  const pinoShapes = rows.filter((r) => !/^(context|otel|iso)-/.test(r.shape))
  const geo = Math.exp(pinoShapes.reduce((s, r) => s + Math.log(r.ratio), 0) / pinoShapes.length)
  console.log(pad('geomean', 40) + geo.toFixed(3) + (pinoShapes.length < rows.length ? ' (pino\'s shapes only)' : ''))
  console.log(`(destination ${DEST}, ${ROUNDS} alternating rounds x ${OPS} ops in batches of ${BATCH}, node ${process.version}, median of per-round ratios${PEER ? ', peer ' + PEER : ''})`)
  // For bench/run.js (bench/summary.js): the rows above, and the geomean.
  require('./summary').reportSummary('logger', [
    ...rows.map((r) => ({ case: r.shape, logx: r.logx, peer: PEER_NAME, peerValue: r.pino, unit: `ns/op (${DEST})`, better: 'lower', ratio: r.ratio })),
    ...(pinoShapes.length > 0 ? [{ case: pinoShapes.length < rows.length ? 'geomean (pino\'s shapes)' : 'geomean', logx: null, peer: PEER_NAME, peerValue: null, unit: 'ratio', better: 'higher', ratio: geo }] : [])
  ])
}

main().then(() => process.exit(0))
