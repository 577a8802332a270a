'use strict'
// The one machine-readable line a benchmark prints at its end, for bench/run.js, and its parser.
// A bench prints it only when asked (LOGX_BENCH_SUMMARY in the environment, which run.js sets, or a
// `--summary` argument), after its own output, which stays as it is:
//
//   LOGX_BENCH_SUMMARY {"bench":"logger","rows":[{"case":"basic","logx":665,"peer":"pino","peerValue":4248,
//     "unit":"ns/op","better":"lower","ratio":7.2}]}
//
// A row holds numbers the bench has already printed:
//   logx, peerValue - the two values, in `unit`; `better` says which way these values improve
//   ratio           - how many times logx is ahead of the peer: above 1 logx is better, below 1 the
//                     peer is, whatever the unit. Benches pass the ratio they print (most print a
//                     median of per-round ratios, which is not the ratio of the two medians); when
//                     it is left out it is computed from the two values.
//   peer            - null for a figure with nothing to compare with (a latency, a peak RSS); then
//                     peerValue and ratio are null too. A row of a ratio alone (a geomean over
//                     cases) has a peer and a ratio, and null values.

const MARK = 'LOGX_BENCH_SUMMARY'
const DIRECTIONS = ['higher', 'lower']

function summaryWanted(argv = process.argv, env = process.env) {
  return argv.includes('--summary') || Boolean(env[MARK])
}

function finiteOrNull(value, what) {
  if (value === null || value === undefined) return null
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${what} must be a finite number, got ${value}`)
  return value
}

/** One checked row; throws on a malformed one, so a bench that reports nonsense fails loudly. */
function summaryRow({ case: name, logx, peer = null, peerValue = null, unit, better, ratio }) {
  if (typeof name !== 'string' || name === '') throw new Error('a summary row needs a case name')
  if (typeof unit !== 'string' || unit === '') throw new Error(`${name}: a summary row needs a unit`)
  if (!DIRECTIONS.includes(better)) throw new Error(`${name}: better must be higher or lower, got ${better}`)
  const own = finiteOrNull(logx, `${name}: logx`)
  if (peer === null) {
    if (own === null) throw new Error(`${name}: logx must be a number`)
    return { case: name, logx: own, peer: null, peerValue: null, unit, better, ratio: null }
  }
  const theirs = finiteOrNull(peerValue, `${name}: peerValue`)
  let computed = finiteOrNull(ratio, `${name}: ratio`)
  if (computed === null && own !== null && theirs !== null && own > 0 && theirs > 0) computed = better === 'higher' ? own / theirs : theirs / own
  if (computed === null && (own === null || theirs === null)) throw new Error(`${name}: a row needs both values or a ratio`)
  return { case: name, logx: own, peer: String(peer), peerValue: theirs, unit, better, ratio: computed }
}

/** The line itself, one per bench run. */
function formatSummary(bench, rows) {
  return `${MARK} ${JSON.stringify({ bench, rows: rows.map(summaryRow) })}`
}

/** Prints the line on stdout when the run asked for it. */
function reportSummary(bench, rows) {
  if (summaryWanted()) process.stdout.write(`${formatSummary(bench, rows)}\n`)
}

/** Every summary line in a bench's output (other lines are its own table and are skipped). */
function parseSummaries(text) {
  const found = []
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${MARK} `)) continue
    const parsed = JSON.parse(line.slice(MARK.length + 1))
    if (typeof parsed?.bench !== 'string' || !Array.isArray(parsed.rows)) throw new Error(`not a summary: ${line}`)
    found.push({ bench: parsed.bench, rows: parsed.rows.map(summaryRow) })
  }
  return found
}

module.exports = { MARK, summaryWanted, summaryRow, formatSummary, reportSummary, parseSummaries }
