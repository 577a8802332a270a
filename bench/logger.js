'use strict'
// logx vs pino on the shapes of pino's own benchmark suite, in one process, alternating rounds.
// Prints per-shape median ns/op for each and the ratio pino/logx (> 1 means logx is faster).
// Each round logs --ops lines in batches of 1000 and lets the destination drain between batches
// (only the log calls are timed): the app's cost per call, not a backlog in sonic-boom's buffer.
// Usage: node bench/logger.js [--rounds 21] [--ops 10000] [--only basic,object]
const { randomBytes } = require('node:crypto')
const logx = require('../dist/logx/index.js')
const pino = require('pino')

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

function build (lib) {
  const dest = DEST === 'devnull' ? lib.destination('/dev/null') : { write () {}, writable: true, flush (cb) { cb() } }
  const base = lib(dest)
  const withFormatters = lib({ formatters }, dest)
  const shapes = {
    basic: () => { const l = base; return () => l.info('hello world') },
    object: () => { const l = base; return () => l.info({ hello: 'world' }) },
    'deep-object': () => { const l = base; return () => l.info(deep) },
    'multi-arg': () => { const l = base; return () => l.info('hello %s %j %d', 'world', { obj: true }, 4, { another: 'obj' }) },
    'long-string': () => { const l = base; return () => l.info(longString) },
    child: () => { const l = base.child({ a: 'property' }); return () => l.info('hello world') },
    'child-child': () => { const l = base.child({ a: 'property' }).child({ sub: 'child' }); return () => l.info('hello world') },
    'child-creation': () => { const l = base; return () => l.child({ a: 'property' }).info('hello world') },
    formatters: () => { const l = withFormatters; return () => l.info({ hello: 'world' }) }
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
  for (let done = 0; done < ops; done += BATCH) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < BATCH; i++) fn()
    total += process.hrtime.bigint() - start
    await drained(dest)
  }
  return Number(total) / ops
}

function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

async function main () {
  const suites = { logx: build(logx), pino: build(pino) }
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
  console.log(pad('shape', 16) + pad('logx ns/op', 12) + pad('pino ns/op', 12) + 'pino/logx')
  for (const r of rows) console.log(pad(r.shape, 16) + pad(r.logx.toFixed(0), 12) + pad(r.pino.toFixed(0), 12) + r.ratio.toFixed(3))
  const geo = Math.exp(rows.reduce((s, r) => s + Math.log(r.ratio), 0) / rows.length)
  console.log(pad('geomean', 40) + geo.toFixed(3))
  console.log(`(destination ${DEST}, ${ROUNDS} alternating rounds x ${OPS} ops in batches of ${BATCH}, node ${process.version}, median of per-round ratios)`)
}

main().then(() => process.exit(0))
