'use strict'
// Redaction: (1) logx vs pino with the same redact paths, end to end through the logger;
// (2) the two redaction libraries on their own (@pinojs/redact, which logx uses, and fast-redact),
// each producing the JSON of a censored object, on the same paths and objects.
// One process, alternating rounds, medians. Usage: node bench/redaction.js [--rounds 15] [--ops 20000]
const logx = require('../dist/logx/index.js')
const pino = require('pino')
const pinojsRedact = require('@pinojs/redact')
const fastRedact = require('fast-redact')

const args = process.argv.slice(2)
const flag = (name, fallback) => {
  const i = args.indexOf('--' + name)
  return i === -1 ? fallback : Number(args[i + 1])
}
const ROUNDS = flag('rounds', 15)
const OPS = flag('ops', 20000)

const paths = ['req.headers.authorization', 'req.headers.cookie', 'user.password', '*.token', 'items[*].secret']
const makeObject = (i) => ({
  req: { method: 'GET', url: '/x/' + i, headers: { authorization: 'Bearer abc', cookie: 'c=1', host: 'h' } },
  user: { id: i, name: 'ann', password: 'hunter2' },
  session: { token: 't' + i, ttl: 30 },
  items: [{ id: 1, secret: 's1' }, { id: 2, secret: 's2' }],
  plain: 'no secret here'
})
const objects = Array.from({ length: 64 }, (_, i) => makeObject(i))
const noop = { write () {}, writable: true }

const cases = {
  'logger: logx redact': (() => { const l = logx({ redact: paths }, noop); return (i) => l.info(objects[i & 63], 'redacted') })(),
  'logger: pino redact': (() => { const l = pino({ redact: paths }, noop); return (i) => l.info(objects[i & 63], 'redacted') })(),
  'logger: logx none': (() => { const l = logx({}, noop); return (i) => l.info(objects[i & 63], 'plain') })(),
  'logger: pino none': (() => { const l = pino({}, noop); return (i) => l.info(objects[i & 63], 'plain') })(),
  'library: @pinojs/redact': (() => { const r = pinojsRedact({ paths, serialize: JSON.stringify, strict: false }); return (i) => r(objects[i & 63]) })(),
  'library: fast-redact': (() => { const r = fastRedact({ paths, serialize: JSON.stringify, strict: false }); return (i) => r(objects[i & 63]) })()
}

function time (fn) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < OPS; i++) fn(i)
  return Number(process.hrtime.bigint() - start) / OPS
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]

const pairs = [
  ['logger: logx redact', 'logger: pino redact'],
  ['logger: logx none', 'logger: pino none'],
  ['library: @pinojs/redact', 'library: fast-redact']
]
// For bench/run.js: logx's side is the left one of each pair (the last pair: the library logx uses).
const summaryRows = []
const summaryNames = { 'logger: logx redact': ['logger, redact', 'pino'], 'logger: logx none': ['logger, no redact', 'pino'], 'library: @pinojs/redact': ['library: @pinojs/redact', 'fast-redact'] }
console.log('case'.padEnd(28) + 'ns/op'.padEnd(10) + 'vs'.padEnd(28) + 'ns/op'.padEnd(10) + 'ratio (right/left)')
for (const [a, b] of pairs) {
  time(cases[a]); time(cases[b])
  const ta = []; const tb = []; const ratios = []
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [b, a] : [a, b]
    const t = {}
    for (const name of order) t[name] = time(cases[name])
    ta.push(t[a]); tb.push(t[b]); ratios.push(t[b] / t[a])
  }
  console.log(a.padEnd(28) + median(ta).toFixed(0).padEnd(10) + b.padEnd(28) + median(tb).toFixed(0).padEnd(10) + median(ratios).toFixed(3))
  summaryRows.push({ case: summaryNames[a][0], logx: median(ta), peer: summaryNames[a][1], peerValue: median(tb), unit: 'ns/op', better: 'lower', ratio: median(ratios) })
}
// Correctness check: both libraries censor the same fields.
const sample = objects[0]
const ours = JSON.parse(pinojsRedact({ paths, strict: false })(sample))
const theirs = JSON.parse(fastRedact({ paths, strict: false })(sample))
if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error('the two libraries disagree on the sample')
if (sample.user.password !== 'hunter2') throw new Error('the input object was mutated')
console.log(`(${ROUNDS} alternating rounds x ${OPS} ops, node ${process.version}; ratio > 1: the left one is faster)`)
require('./summary').reportSummary('redaction', summaryRows)
