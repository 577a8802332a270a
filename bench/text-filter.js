'use strict'
// The plain-text pre-filter's searches, pass by pass (agent/prefilter/candidate-filter.ts), over a text
// log in 4 MB reads as the tailer reads it, beside `grep -cF ' ERROR '` on the same file (the peer:
// one needle, in C). Each pass is what the filter runs over every read of a text source: the
// upper-case level words and the level keys through the anchors anchored-search.ts chooses on the
// first 64 KB (printed), then `[` and `<`, each hit handed to JavaScript as the filter does (its
// checks left out: the search is what is measured). The line ends, which the tailer finds anyway,
// are timed for scale. Then the filter as the agent runs it (createCandidateFilter over 256 KB reads
// split by the tailer's line splitter): it settles a line whose first token after its stamp is a
// level word, and searches only the stretch of lines it could not settle that way.
// Usage: npm run build && node bench/text-filter.js [--file F] [--mb 200] [--rounds 5] [--threshold 50]
//   Without --file, a log4j-style file is generated (bench/generate-log.js, text). agentbench's text
//   file (/tmp/agentbench/data/app-text-200MB-seed1.log once the harness has run) is the other usual input.
const { execFileSync } = require('node:child_process')
const { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { generateLog } = require('./generate-log')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const rounds = Number(option('rounds', '5'))
const threshold = Number(option('threshold', '50'))
const evidence = require('../dist/agent/prefilter/level-evidence.js')
const { createAnchoredSearch } = require('../dist/agent/prefilter/anchored-search.js')
const { createCandidateFilter } = require('../dist/agent/prefilter/candidate-filter.js')
const { createChunkBatch } = require('../dist/agent/tail/batch.js')
const { createLineSplitter } = require('../dist/agent/tail/line-splitter.js')

const READ = 4 * 1024 * 1024
/** The agent's read size (agent/tail/options.ts's readChunkBytes). */
const AGENT_READ = 256 * 1024
const AGENT_ROW = 'the filter as the agent runs it, with the line ends (256 KB reads)'
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]

/** Records the anchors a search goes through (its indexOf calls on the big buffer). */
function anchorsOf(search, buffer, length) {
  const seen = new Set()
  const indexOf = Buffer.prototype.indexOf
  Buffer.prototype.indexOf = function (value, ...rest) {
    if (this === buffer) seen.add(typeof value === 'number' ? String.fromCharCode(value) : String(value))
    return indexOf.call(this, value, ...rest)
  }
  try {
    search.search(buffer, 0, length, (at) => at)
  } finally {
    Buffer.prototype.indexOf = indexOf
  }
  return [...seen]
}

function byteHits(buffer, length, byte) {
  let hits = 0
  for (let at = buffer.indexOf(byte, 0); at !== -1 && at < length; at = buffer.indexOf(byte, at + 1)) hits++
  return hits
}

function run(file) {
  const passes = {
    'upper-case level words': createAnchoredSearch(evidence.upperCaseNeedles(threshold).map((needle) => Buffer.from(needle))),
    'level, lvl=, severity=': createAnchoredSearch(evidence.LEVEL_KEYS),
  }
  const times = Object.fromEntries([...Object.keys(passes), '`[`', '`<`', 'line ends', 'all of the filter\'s passes'].map((name) => [name, []]))
  const buffer = Buffer.alloc(READ)
  const fd = openSync(file, 'r')
  let anchors
  try {
    for (let round = 0; round < rounds; round++) {
      const spent = Object.fromEntries(Object.keys(times).map((name) => [name, 0n]))
      const time = (name, fn) => {
        const t = process.hrtime.bigint()
        fn()
        spent[name] += process.hrtime.bigint() - t
      }
      for (let position = 0, n; (n = readSync(fd, buffer, 0, READ, position)) > 0; position += n) {
        anchors ??= Object.fromEntries(Object.entries(passes).map(([name, search]) => [name, anchorsOf(search, buffer, n)]))
        for (const [name, search] of Object.entries(passes)) time(name, () => search.search(buffer, 0, n, (at) => at))
        time('`[`', () => byteHits(buffer, n, 0x5b))
        time('`<`', () => byteHits(buffer, n, 0x3c))
        time('line ends', () => byteHits(buffer, n, 0x0a))
      }
      spent["all of the filter's passes"] = spent[Object.keys(passes)[0]] + spent[Object.keys(passes)[1]] + spent['`[`'] + spent['`<`']
      for (const [name, ns] of Object.entries(spent)) times[name].push(Number(ns) / 1e6)
    }
  } finally {
    closeSync(fd)
  }
  const grep = []
  for (let round = 0; round < rounds; round++) {
    const t = process.hrtime.bigint()
    execFileSync('grep', ['-cF', ' ERROR ', file], { env: { ...process.env, LC_ALL: 'C' } })
    grep.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  times[AGENT_ROW] = []
  let candidates = 0
  const read = Buffer.alloc(AGENT_READ)
  for (let round = 0; round < rounds; round++) {
    const filter = createCandidateFilter(threshold)
    const splitter = createLineSplitter(0, 256 * 1024)
    const handle = openSync(file, 'r')
    let spent = 0n
    candidates = 0
    try {
      for (let position = 0, n; (n = readSync(handle, read, 0, AGENT_READ, position)) > 0; position += n) {
        const t = process.hrtime.bigint()
        const batch = createChunkBatch({ fileId: '1:1', generation: 0, path: file }, splitter.push(read.subarray(0, n), position), read, position, 256 * 1024)
        if (batch !== undefined) candidates += filter(batch).candidates.length
        spent += process.hrtime.bigint() - t
      }
    } finally {
      closeSync(handle)
    }
    times[AGENT_ROW].push(Number(spent) / 1e6)
  }
  return { times, anchors, grep: median(grep), candidates }
}

function main() {
  let file = option('file', undefined)
  let dir
  if (file === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'logx-bench-text-filter-'))
    file = join(dir, 'app.log')
    generateLog(file, Number(option('mb', '200')) * 1024 * 1024, 'text')
  }
  try {
    const mb = statSync(file).size / 1e6
    const { times, anchors, grep, candidates } = run(file)
    console.log(`text pre-filter passes over ${file} (${mb.toFixed(1)} MB, 4 MB reads, threshold ${threshold}), medians of ${rounds} rounds`)
    for (const [name, list] of Object.entries(anchors)) console.log(`anchors chosen on the first 64 KB for ${name}: ${list.map((a) => JSON.stringify(a)).join(', ')}`)
    console.log('\n| pass | ms | MB/s |\n|---|---:|---:|')
    for (const [name, list] of Object.entries(times)) console.log(`| ${name} | ${median(list).toFixed(1)} | ${(mb / (median(list) / 1000)).toFixed(0)} |`)
    const all = median(times["all of the filter's passes"])
    const agent = median(times[AGENT_ROW])
    console.log(`| peer: grep -cF ' ERROR ' (the whole file, spawned) | ${grep.toFixed(1)} | ${(mb / (grep / 1000)).toFixed(0)} |`)
    console.log(`\nthe filter's passes take ${(all / grep).toFixed(2)}x grep's time for the whole file; the filter as the agent runs it, line ends included, ${(agent / grep).toFixed(2)}x (${candidates} candidate lines)`)
    require('./summary').reportSummary('text-filter', [
      { case: "text pre-filter's passes, 4 MB reads", logx: all, peer: "grep -cF ' ERROR '", peerValue: grep, unit: 'ms per file', better: 'lower', ratio: grep / all },
      { case: 'the filter as the agent runs it (line ends included)', logx: agent, peer: "grep -cF ' ERROR '", peerValue: grep, unit: 'ms per file', better: 'lower', ratio: grep / agent },
    ])
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  }
}

main()
