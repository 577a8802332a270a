'use strict'
// Tail-and-filter throughput: agent/tail reads a ~200 MB NDJSON file (1% of lines at "level":50)
// from the beginning, and the agent's byte pre-filter (agent/prefilter/candidate-filter.ts, level
// error and up) picks the error lines out of each batch by looking at bytes, never JSON.parse.
// Peers on the same file in the same run: `grep -F -c '"level":50'` and a naive
// Node reader (fs stream -> split2 -> JSON.parse per line). Each reader runs in its own process,
// so peak RSS is its own; every round runs each reader in turn, and the table shows median times and
// the median of the per-round ratios to grep.
// Times include createTailer() (watcher start, checkpoint load) and run until the last line is handled.
// Then one run with --files (default 500) files watched at once, for RSS.
// Usage: npm run build && node bench/tail.js [--mb 200] [--rounds 5] [--format json|text] [--files 500]

const { generateLog } = require('./generate-log')
const { execFileSync, spawnSync } = require('node:child_process')
const { appendFileSync, createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}

// --format json (NDJSON as pino writes it) or text (a classic plain-text log): the needle grep looks for.
const format = option('format', 'json')
const formats = {
  json: { needle: '"level":50' },
  text: { needle: ' ERROR ' },
}
if (!formats[format]) throw new Error(`--format must be json or text, got ${format}`)
const { needle } = formats[format]
/** The pre-filter's threshold: error (50) and up, as a rule with `level: error` asks. */
const ERROR_LEVEL = 50

// Tailer variants: whether read buffers are recycled on commit, and where reads run (syncReads: on
// this thread, as the agent reads; otherwise on libuv's pool, the library's default).
const tailVariants = {
  tail: { reuseBuffers: true, label: 'agent/tail + pre-filter (error and up)' },
  'tail-sync': { reuseBuffers: true, syncReads: true, label: 'agent/tail + pre-filter, syncReads (as the agent)' },
  'tail-defaults': { reuseBuffers: false, label: 'agent/tail + pre-filter, reuseBuffers off' },
}

async function tailReader(file, variant) {
  const { createTailer } = require('../dist/agent/tail')
  const { createCandidateFilter } = require('../dist/agent/prefilter/candidate-filter')
  const size = statSync(file).size
  const start = process.hrtime.bigint()
  const tailer = await createTailer({ paths: file, startAt: 'beginning', pollIntervalMs: 60_000, reuseBuffers: variant.reuseBuffers, syncReads: variant.syncReads === true })
  // The byte pre-filter: no string, no JSON.parse for a line that cannot be an error. Its candidates
  // are a superset (a line completed across two reads always is one): each is checked for the needle,
  // where the agent would parse it.
  const filter = createCandidateFilter(ERROR_LEVEL)
  const wanted = Buffer.from(needle)
  let lines = 0
  let matches = 0
  for await (const batch of tailer) {
    lines += batch.lineCount
    for (const line of filter(batch).candidates) if (line.data.includes(wanted)) matches++
    await tailer.commit(batch)
    if (batch.offset >= size) break
  }
  const ns = Number(process.hrtime.bigint() - start)
  await tailer.close()
  return { ns, lines, matches }
}

const readers = {
  ...Object.fromEntries(Object.entries(tailVariants).map(([name, variant]) => [name, (file) => tailReader(file, variant)])),
  // What a first Node tailer usually is: a read stream, split2 into strings, JSON.parse each line.
  async naive(file) {
    const split2 = require('split2')
    const start = process.hrtime.bigint()
    let lines = 0
    let matches = 0
    await new Promise((resolve, reject) => {
      createReadStream(file)
        .pipe(split2())
        .on('data', (line) => {
          lines++
          if (format === 'json' ? JSON.parse(line).level >= 50 : line.includes(' ERROR ') || line.includes(' FATAL ')) matches++
        })
        .on('end', resolve)
        .on('error', reject)
    })
    return { ns: Number(process.hrtime.bigint() - start), lines, matches }
  },
}

// Many files: `count` files of 100 lines in a fresh directory, tailed from the beginning with a
// checkpoint, then one more line appended to each; how long until every line is in, and peak RSS.
async function manyFiles(count) {
  const { createTailer } = require('../dist/agent/tail')
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-tail-many-'))
  try {
    let text = ''
    for (let i = 0; i < 100; i++) text += `{"level":30,"time":${1_700_000_000_000 + i},"pid":4242,"hostname":"api-7f9c","msg":"request completed"}\n`
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `app-${i}.log`), text)
    const start = process.hrtime.bigint()
    const tailer = await createTailer({ paths: join(dir, '*.log'), startAt: 'beginning', checkpointPath: join(dir, 'checkpoint.json'), reuseBuffers: true, pollIntervalMs: 1000 })
    let lines = 0
    let appended = false
    for await (const batch of tailer) {
      lines += batch.lineCount
      void tailer.commit(batch)
      if (lines === count * 100 && !appended) {
        appended = true
        for (let i = 0; i < count; i++) appendFileSync(join(dir, `app-${i}.log`), '{"level":50,"msg":"late"}\n')
      }
      if (lines === count * 101) break
    }
    const ns = Number(process.hrtime.bigint() - start)
    await tailer.close()
    return { ns, lines, matches: undefined }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function child(name, file) {
  if (name === 'many') {
    const result = await manyFiles(Number(file))
    result.maxRssMb = process.resourceUsage().maxRSS / 1024
    process.stdout.write(JSON.stringify(result) + '\n')
    return
  }
  // Loaded before the clocks start, as an agent has them loaded before it tails.
  require('../dist/agent/tail')
  require('../dist/agent/prefilter/candidate-filter')
  require('split2')
  const cpuBefore = process.cpuUsage()
  const result = await readers[name](file)
  const cpu = process.cpuUsage(cpuBefore)
  // All threads of the process (the libuv pool's reads included), user + system.
  result.cpuNs = (cpu.user + cpu.system) * 1000
  result.maxRssMb = process.resourceUsage().maxRSS / 1024
  process.stdout.write(JSON.stringify(result) + '\n')
}

const generate = (file, targetBytes) => generateLog(file, targetBytes, format)

// "One core": every reader, grep included, is pinned to the same CPU when taskset exists, so the
// tailer's read() calls on the libuv pool cannot borrow a second core.
const pin = spawnSync('taskset', ['-c', '0', 'true']).status === 0 ? ['taskset', '-c', '0'] : []
const gnuTime = spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0

function runChild(name, file) {
  const command = [...pin, process.execPath, __filename, '--child', name, '--file', file]
  const out = execFileSync(command[0], [...command.slice(1), '--format', format], { encoding: 'utf8', maxBuffer: 1 << 20 })
  return JSON.parse(out.trim())
}

function spawnNs(command) {
  const start = process.hrtime.bigint()
  const result = spawnSync(command[0], command.slice(1), { encoding: 'utf8' })
  return { ns: Number(process.hrtime.bigint() - start), result }
}

// grep's time is taken around its process, so the cost of starting a process (measured with `true`)
// is taken off: the tailer's own time starts at createTailer(), after node has started.
let spawnBaselineNs
function runGrep(file) {
  if (spawnBaselineNs === undefined) spawnBaselineNs = median(Array.from({ length: 9 }, () => spawnNs([...pin, 'true']).ns))
  const { ns, result } = spawnNs([...pin, 'grep', '-F', '-c', needle, file])
  if (result.status !== 0) throw new Error(`grep failed: ${result.stderr}`)
  let maxRssMb
  let cpuNs
  if (gnuTime) {
    // GNU time prints grep's peak RSS (KiB) on stderr; a separate, untimed run.
    const timed = spawnNs(['/usr/bin/time', '-f', '%M %U %S', ...pin, 'grep', '-F', '-c', needle, file]).result
    const [rssKb, user, system] = (timed.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number)
    maxRssMb = rssKb / 1024
    cpuNs = (user + system) * 1e9
  }
  return { ns: Math.max(1, ns - spawnBaselineNs), cpuNs, lines: undefined, matches: Number(result.stdout.trim()), maxRssMb }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** For bench/run.js (bench/summary.js): the table's figures, each tailer row against grep and the syncReads one against the naive reader. */
function summarize(samples, size, many) {
  const prefix = format === 'json' ? '' : `${format}: `
  const mbPerSec = (name) => size / 1e6 / (median(samples[name].map((sample) => sample.ns)) / 1e9)
  const toGrep = (name, pick) => median(samples[name].map((sample, round) => pick(samples.grep[round]) / pick(sample)))
  // As in the table: no CPU ratio when GNU time is missing or grep's CPU time rounds to 0 (a small file).
  const withCpu = samples.grep[0].cpuNs !== undefined && median(samples.grep.map((sample) => sample.cpuNs)) > 0
  const rows = []
  for (const [name, { label }] of Object.entries(tailVariants)) {
    rows.push({ case: prefix + label, logx: mbPerSec(name), peer: 'grep -F', peerValue: mbPerSec('grep'), unit: 'MB/s', better: 'higher', ratio: toGrep(name, (sample) => sample.ns) })
    if (withCpu) {
      const cpuS = (list) => median(list.map((sample) => sample.cpuNs)) / 1e9
      rows.push({ case: `${prefix}${label}, CPU`, logx: cpuS(samples[name]), peer: 'grep -F', peerValue: cpuS(samples.grep), unit: 'CPU s', better: 'lower', ratio: toGrep(name, (sample) => sample.cpuNs) })
    }
  }
  rows.push({ case: `${prefix}${tailVariants['tail-sync'].label}`, logx: mbPerSec('tail-sync'), peer: format === 'json' ? 'split2 + JSON.parse' : 'split2 + String#includes', peerValue: mbPerSec('naive'), unit: 'MB/s', better: 'higher' })
  if (many !== undefined) {
    rows.push({ case: `${many.files} files watched, all lines in`, logx: many.ns / 1e6, unit: 'ms', better: 'lower' })
    rows.push({ case: `${many.files} files watched, peak RSS`, logx: many.maxRssMb, unit: 'MB', better: 'lower' })
  }
  require('./summary').reportSummary('tail', rows)
}

async function main() {
  const childName = option('child', undefined)
  if (childName !== undefined) return child(childName, option('file', ''))
  const megabytes = Number(option('mb', 200))
  const rounds = Number(option('rounds', 5))
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-tail-'))
  const file = join(dir, 'app.log')
  try {
    const generated = generate(file, megabytes * 1024 * 1024)
    const size = statSync(file).size
    console.log(`${format} file: ${(size / 1e6).toFixed(1)} MB, ${generated.lines} lines, ${generated.errors} holding ${JSON.stringify(needle)}; node ${process.version}; ${rounds} rounds (readers in turn each round), median time and median per-round ratio to grep; ${pin.length > 0 ? 'pinned to CPU 0 (taskset)' : 'not pinned (no taskset)'}`)
    // One untimed grep warms the page cache so every reader sees the same cached file.
    runGrep(file)
    const samples = { grep: [], ...Object.fromEntries(Object.keys(tailVariants).map((name) => [name, []])), naive: [] }
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(samples)) samples[name].push(name === 'grep' ? runGrep(file) : runChild(name, file))
    }
    const grepCpu = samples.grep[0].cpuNs === undefined ? undefined : median(samples.grep.map((sample) => sample.cpuNs))
    const rows = Object.entries(samples).map(([name, list]) => {
      const ns = median(list.map((sample) => sample.ns))
      const last = list[list.length - 1]
      const seconds = ns / 1e9
      return {
        reader: tailVariants[name]?.label ?? (name === 'naive' ? (format === 'json' ? 'split2 + JSON.parse (level >= 50)' : 'split2 + String#includes') : `grep -F -c '${needle}'`),
        'MB/s': Math.round(size / 1e6 / seconds),
        'lines/s': Math.round(generated.lines / seconds).toLocaleString('en-US'),
        // Per round: grep's time over this reader's time in the same round; the median of those.
        'x grep': median(list.map((sample, round) => samples.grep[round].ns / sample.ns)).toFixed(2),
        'CPU s': list[0].cpuNs === undefined ? '-' : (median(list.map((sample) => sample.cpuNs)) / 1e9).toFixed(3),
        'x grep (CPU)': !grepCpu || list[0].cpuNs === undefined ? '-' : median(list.map((sample, round) => samples.grep[round].cpuNs / sample.cpuNs)).toFixed(2),
        matches: last.matches,
        'peak RSS MB': last.maxRssMb === undefined ? '-' : Math.max(...list.map((sample) => sample.maxRssMb)).toFixed(0),
      }
    })
    console.table(rows)
    const files = Number(option('files', 500))
    let many
    if (files > 0) {
      many = runChild('many', String(files))
      console.log(`${files} files watched (100 lines each, then one more appended to each; checkpoint, reuseBuffers): all ${many.lines} lines in ${(many.ns / 1e6).toFixed(0)} ms, peak RSS ${many.maxRssMb.toFixed(0)} MB`)
    }
    console.log(`load average at the end: ${require('node:os').loadavg().map((load) => load.toFixed(2)).join(' ')} on ${require('node:os').cpus().length} CPUs`)
    for (const [name, list] of Object.entries(samples)) {
      const wrong = list.find((sample) => sample.matches !== generated.errors || (sample.lines !== undefined && sample.lines !== generated.lines))
      if (wrong) throw new Error(`${name} counted ${wrong.lines} lines / ${wrong.matches} matches, expected ${generated.lines} / ${generated.errors}`)
    }
    summarize(samples, size, many === undefined ? undefined : { files, ...many })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
