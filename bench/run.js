'use strict'
// `npm run bench`: every benchmark once, each in its own process, one after another, then one table
// of how logx compares with each one's peer. By default with small settings, so that the whole run
// takes a few minutes on a 2-core machine: quick numbers are noisier than the documented runs and
// some (the tail and agent rows on a 50 MB file, where start-up weighs more) are lower; they show
// that everything runs and roughly where it stands. The figures to quote come from each bench
// run on its own with its defaults (BENCHMARKS.md).
//
// Each bench prints its own table as usual and, because LOGX_BENCH_SUMMARY is set, one
// machine-readable line at its end (bench/summary.js); its own output is shown with --verbose, and
// its last lines when it fails. Speed is reported, not asserted: the exit code is 1 only when a
// bench crashed, timed out or reported nothing; a bench whose tool is missing is skipped.
//
// Usage: node bench/run.js [--only logger,tail] [--full] [--verbose] [--timeout <s>] [--write [FILE]]
//                         [-- <args for each bench>]
//   --full:    each bench with its own defaults (no quick settings): far longer
//   --timeout: seconds each bench may take (default 300, 7200 with --full)
//   --write:   BENCHMARKS.md (or FILE) made anew from this run (bench/benchmarks-file.js)
//   -- args:   given to every bench run (a quick setting of the same option is dropped), e.g.
//              `node bench/run.js --only tail -- --format text`

const { spawn, spawnSync } = require('node:child_process')
const { cpus, loadavg } = require('node:os')
const { join } = require('node:path')
const { MARK, parseSummaries } = require('./summary')
const { writeBenchmarksFile } = require('./benchmarks-file')

/** In run order: the libraries first, the agent's benches (slower, whole processes) last. */
const BENCHES = [
  {
    name: 'logger',
    what: "logx against pino on the shapes of pino's own benchmark suite, one process, alternating rounds",
    quick: ['--rounds', '3', '--ops', '3000'],
  },
  {
    name: 'multistream',
    what: 'logx.multistream against pino.multistream: four streams on /dev/null by level',
    quick: ['--rounds', '3', '--calls', '50000'],
  },
  {
    name: 'redaction',
    what: 'redaction end to end through the logger, and the redaction libraries alone',
    quick: ['--rounds', '5', '--ops', '5000'],
  },
  {
    name: 'transport-file',
    what: 'the `logx/file` worker-thread transport against `pino/file`',
    quick: ['--rounds', '3', '--lines', '20000'],
  },
  {
    name: 'messaging',
    what: 'sends per second through the messaging client and the sandbox on loopback, against bare undici',
    quick: ['--sends', '500', '--concurrency', '1,8', '--rounds', '1'],
  },
  {
    name: 'alerts',
    what: "the alerting domain: rule filter, the engine's overhead per line, absence watches",
    quick: ['--rounds', '3', '--lines', '100000'],
  },
  {
    name: 'kinds',
    what: 'the kinds miner: GA/FGA of `kinds --per-line` on loghub beside Drain3, lines/s, memory of 10,000 kinds',
    quick: ['--rounds', '3', '--repeat', '10'],
    needs: ['python3'],
  },
  {
    name: 'kinds-agentbench',
    what: "what kinds on cost the agent's engine per error line of agentbench's files, against kinds off",
    quick: ['--rounds', '3'],
  },
  {
    name: 'candidates',
    what: "the agent's per-candidate-line path (pre-filter kept line -> parse -> engine)",
    quick: ['--lines', '3000', '--rounds', '3'],
  },
  {
    name: 'text-filter',
    what: "the plain-text pre-filter's searches over a text log, against `grep -cF`",
    quick: ['--mb', '50', '--rounds', '3'],
    needs: ['grep'],
  },
  {
    name: 'tail',
    what: 'tail-and-filter throughput of agent/tail plus the byte pre-filter, against grep',
    quick: ['--mb', '50', '--rounds', '1', '--files', '100'],
    needs: ['grep'],
  },
  {
    name: 'agent',
    what: 'the whole agent process: throughput to the last alert, latency, peak RSS, against grep and a naive reader',
    quick: ['--mb', '50', '--rounds', '1', '--samples', '20'],
    needs: ['grep'],
  },
  {
    name: 'agent-instructions',
    what: "the agent's work counted in instructions (valgrind), for comparing builds on a shared machine",
    quick: ['--mb', '10'],
    needs: ['valgrind'],
  },
  {
    name: 'console',
    what: "the console's HTTP API under load with 10,000 open incidents",
    quick: ['--requests', '50'],
  },
  {
    name: 'intake',
    what: 'network sources of a real agent: http events/s, Alertmanager webhook p99, syslog and OTLP throughput',
    quick: ['--quick'],
  },
  {
    name: 'fleet',
    what: 'two agents on one Redis against a lone agent: throughput and alert latency',
    quick: ['--mb', '20', '--rounds', '1', '--seconds', '3'],
    needs: ['redis-server'],
  },
]

function parseArgs(argv) {
  const dash = argv.indexOf('--')
  const own = dash === -1 ? argv : argv.slice(0, dash)
  const options = {
    only: undefined,
    full: false,
    verbose: false,
    write: undefined,
    timeoutS: undefined,
    extra: dash === -1 ? [] : argv.slice(dash + 1),
  }
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]
    if (arg === '--full') options.full = true
    else if (arg === '--verbose') options.verbose = true
    else if (arg === '--only')
      options.only = String(own[++i] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    else if (arg === '--timeout') options.timeoutS = Number(own[++i])
    else if (arg === '--write')
      options.write = own[i + 1] !== undefined && !own[i + 1].startsWith('--') ? own[++i] : 'BENCHMARKS.md'
    else throw new Error(`unknown option ${arg}`)
  }
  const known = BENCHES.map((bench) => bench.name)
  const unknown = (options.only ?? []).filter((name) => !known.includes(name))
  if (unknown.length > 0 || options.only?.length === 0)
    throw new Error(
      `--only takes names from: ${known.join(', ')}${unknown.length > 0 ? ` (not: ${unknown.join(', ')})` : ''}`,
    )
  if (options.timeoutS !== undefined && !(options.timeoutS > 0)) throw new Error('--timeout takes a number of seconds')
  options.timeoutS ??= options.full ? 7200 : 300
  return options
}

/** The bench's arguments: the quick settings (unless --full) without those the extra args set again. */
function argsFor(bench, { full, extra }) {
  const settings = []
  if (!full) {
    for (let i = 0; i < bench.quick.length; i += 2) {
      if (!extra.includes(bench.quick[i])) settings.push(bench.quick[i], bench.quick[i + 1])
    }
  }
  return [...settings, ...extra]
}

const toolPresent = new Map()
function missingTool(bench) {
  for (const tool of bench.needs ?? []) {
    if (!toolPresent.has(tool)) toolPresent.set(tool, spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0)
    if (!toolPresent.get(tool)) return tool
  }
  return undefined
}

let current
/** One bench in its own process group (it starts agents, grep, valgrind): all of it is stopped on a timeout. */
function runBench(bench, args, { timeoutS, verbose }) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [join(__dirname, `${bench.name}.js`), ...args], {
      env: { ...process.env, [MARK]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    current = child
    let output = ''
    const take = (chunk) => {
      output += chunk
      if (verbose) process.stderr.write(chunk)
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child)
    }, timeoutS * 1000)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      current = undefined
      resolve({ code, signal, timedOut, output, seconds: (Date.now() - started) / 1000 })
    })
  })
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

/** What became of one bench: its rows, or why it has none. */
function outcomeOf(bench, result) {
  let summaries = []
  let problem
  try {
    summaries = parseSummaries(result.output)
  } catch (error) {
    problem = `a malformed summary line (${error.message})`
  }
  if (result.timedOut) problem = 'timed out'
  else if (result.code !== 0) problem = result.signal ? `killed by ${result.signal}` : `exit code ${result.code}`
  else if (problem === undefined && summaries.length === 0) problem = 'no summary line'
  const rows = summaries.flatMap((summary) => summary.rows)
  return {
    name: bench.name,
    status: problem === undefined ? 'ok' : 'failed',
    problem,
    rows,
    seconds: result.seconds,
    output: result.output,
  }
}

function formatNumber(value) {
  if (value === null) return '-'
  const size = Math.abs(value)
  if (size >= 1000) return Math.round(value).toLocaleString('en-US')
  if (size >= 100) return value.toFixed(0)
  if (size >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

/** The rows of the table: one per summary row, one per bench that failed or was skipped. */
function tableRows(outcomes) {
  const lines = []
  for (const outcome of outcomes) {
    for (const row of outcome.rows) {
      lines.push([
        outcome.name,
        row.case,
        formatNumber(row.logx),
        row.peer ?? '-',
        formatNumber(row.peerValue),
        `${row.unit}, ${row.better} is better`,
        row.ratio === null ? '-' : row.ratio.toFixed(2),
      ])
    }
    if (outcome.status === 'failed') lines.push([outcome.name, `FAILED: ${outcome.problem}`, '-', '-', '-', '-', '-'])
    if (outcome.status === 'skipped') lines.push([outcome.name, `skipped: ${outcome.problem}`, '-', '-', '-', '-', '-'])
  }
  return lines
}

/** A Markdown table with padded columns: readable in a terminal, pasted as is into BENCHMARKS.md. */
function markdownTable(header, lines) {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)))
  const numeric = (column) => column === 2 || column === 4 || column === 6
  const cell = (text, column) => (numeric(column) ? text.padStart(widths[column]) : text.padEnd(widths[column]))
  const rule = widths.map((width, column) => (numeric(column) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2)))
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${rule.join('|')}|`,
    ...lines.map((line) => `| ${line.map(cell).join(' | ')} |`),
  ].join('\n')
}

const HEADER = ['bench', 'case', 'logx', 'peer', 'peer value', 'unit', 'x peer (>1: logx ahead)']

function closingLine(outcomes, options, seconds) {
  const count = (status) => outcomes.filter((outcome) => outcome.status === status)
  const named = (list) => (list.length === 0 ? '' : ` (${list.map((outcome) => outcome.name).join(', ')})`)
  const failed = count('failed')
  const skipped = count('skipped')
  const rows = outcomes.reduce((sum, outcome) => sum + outcome.rows.length, 0)
  const settings = options.full
    ? 'each bench with its defaults'
    : 'quick settings, noisier than the documented runs (--full for those)'
  return `${outcomes.length} benchmarks in ${Math.round(seconds)} s: ${count('ok').length} ok, ${failed.length} failed${named(failed)}, ${skipped.length} skipped${named(skipped)}; ${rows} rows; ${settings}; x peer above 1: logx is ahead, below 1: the peer is`
}

function lastLines(text, count) {
  return text
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith(`${MARK} `))
    .slice(-count)
    .join('\n')
}

async function main() {
  let options
  try {
    options = parseArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`bench/run.js: ${error.message}`)
    process.exit(2)
  }
  // A bench runs in its own process group: stopping this run stops it too.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (current !== undefined) killGroup(current)
      process.exit(130)
    })
  }
  const selected = BENCHES.filter((bench) => options.only === undefined || options.only.includes(bench.name))
  const started = Date.now()
  const outcomes = []
  for (const [index, bench] of selected.entries()) {
    const step = `[${index + 1}/${selected.length}] ${bench.name}`
    const tool = missingTool(bench)
    if (tool !== undefined) {
      outcomes.push({
        name: bench.name,
        what: bench.what,
        status: 'skipped',
        problem: `${tool} not installed`,
        rows: [],
      })
      console.error(`${step}: skipped: ${tool} not installed`)
      continue
    }
    const args = argsFor(bench, options)
    console.error(`${step}: node bench/${bench.name}.js ${args.join(' ')}`.trimEnd())
    const outcome = { ...outcomeOf(bench, await runBench(bench, args, options)), what: bench.what, args }
    outcomes.push(outcome)
    console.error(
      `${step}: ${outcome.status === 'ok' ? 'ok' : `FAILED: ${outcome.problem}`}, ${outcome.rows.length} rows, ${outcome.seconds.toFixed(1)} s`,
    )
    if (outcome.status === 'failed' && !options.verbose) console.error(`${lastLines(outcome.output, 15)}\n`)
  }
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
  console.log(
    `\nlogx benchmarks, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ${cpus().length} CPUs, load average ${load}`,
  )
  console.log(markdownTable(HEADER, tableRows(outcomes)))
  console.log(closingLine(outcomes, options, (Date.now() - started) / 1000))
  if (options.write !== undefined) {
    writeBenchmarksFile(options.write, {
      outcomes,
      full: options.full,
      table: (lines) => markdownTable(HEADER, lines),
      tableRows,
    })
    console.error(`wrote ${options.write}`)
  }
  process.exitCode = outcomes.some((outcome) => outcome.status === 'failed') ? 1 : 0
}

if (require.main === module) main()

module.exports = { BENCHES, parseArgs, argsFor, markdownTable }
