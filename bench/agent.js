'use strict'
// The whole agent (bin/logx-agent.js, a real process) beside its peers, in one run:
//  1. tail-and-filter throughput: the agent reads a ~200 MB NDJSON (or plain-text) file with 1% error
//     lines from the beginning, through its byte pre-filter, the alert engine and the outbox, and is
//     timed until its /metrics show every line read and handled; beside it `grep -F -c` on the same
//     file. Twice per round: a fresh agent, and one that has read a warm-up file (a tenth of the size)
//     first, as a long-running agent has. Both pinned to CPU 0 when taskset exists; grep has its process start-up taken off, the
//     agent is started first and timed from the moment the file appears in its watched directory.
//  2. alert latency: a line appended to a watched file -> the sandbox (in this process) stores the
//     SMS, with group_wait 0 and one new incident per line; p50 / p99 over --samples lines.
//     rsyslog's imfile + a `contains` filter + omfile on the same file, when rsyslogd is installed
//     (Debian: apt-get install -y rsyslog; the script installs it when run as root with apt-get), run
//     as `nobody` when started as root, timed until its output holds every error line.
//  3. peak RSS (VmHWM) of the agent: on the 200 MB file (above), and with 1 and 500 files watched.
// Usage: npm run build && node bench/agent.js [--mb 200] [--rounds 5] [--format json|text] [--samples 200] [--poll proc|metrics]
//   [--multiline java]: the text file with a Java stack trace under each error line, read by a `multiline: java` source
//   [--messaging remote|embedded]: where the agent's sandbox runs (default: in this process, as a real API would)
// bench/tail.js measures the tailer library alone against grep and a naive Node reader.

const { generateLog } = require('./generate-log')
const { bytesReadBy, cpuSecondsOf, metric, scrape } = require('./agent-probes')
const { pinTo, root, startAgent, waitFor } = require('./agent-process')
const { spawn, spawnSync } = require('node:child_process')
const { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs')
const { tmpdir, cpus, loadavg } = require('node:os')
const { join } = require('node:path')

const args = process.argv.slice(2)
// --help answers with the usage line before anything starts (a full run, or installing rsyslog).
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(
    'Usage: npm run build && node bench/agent.js [--mb 200] [--rounds 5] [--format json|text] [--samples 200]\n' +
      '  [--poll proc|metrics] [--multiline java] [--messaging remote|embedded]\n',
  )
  process.exit(0)
}
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const format = option('format', 'json')
// remote (default): the agent sends to a sandbox in this process, as a deployed agent sends to the
// real API, so its memory and CPU are its own; embedded: the sandbox runs inside the agent (npm start).
const messagingMode = option('messaging', 'remote')
if (messagingMode !== 'remote' && messagingMode !== 'embedded') throw new Error(`--messaging must be remote or embedded, got ${messagingMode}`)
/** The API of the throughput and memory runs: set by main() in remote mode. */
let benchApi
const pollMode = option('poll', 'proc')
if (pollMode !== 'proc' && pollMode !== 'metrics') throw new Error(`--poll must be proc or metrics, got ${pollMode}`)
if (format !== 'json' && format !== 'text') throw new Error(`--format must be json or text, got ${format}`)
const multiline = option('multiline', undefined)
if (multiline !== undefined && (multiline !== 'java' || format !== 'text')) throw new Error('--multiline takes java, with --format text')
const needle = format === 'json' ? '"level":50' : ' ERROR '
const pin = pinTo(0)
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]

const generate = (file, targetBytes) => generateLog(file, targetBytes, format, { traces: multiline !== undefined })
// For bench/run.js (bench/summary.js): the figures printed, collected as they are, reported at the end.
const summaryRows = []

// rsyslog runs as nobody: the file and its directory must be readable by others.
function chmodReadable(dir, file) {
  const { chmodSync } = require('node:fs')
  chmodSync(dir, 0o755)
  chmodSync(file, 0o644)
}

function config(dir, { paths, api, startAt = 'beginning', groupBy }) {
  const messaging = api === undefined
    ? 'messaging:\n  sandbox:\n    listen: 127.0.0.1:0\n'
    : `messaging:\n  base_url: ${api.baseUrl}\n  api_key: ${api.apiKey}\n`
  const file = join(dir, 'agent.yaml')
  writeFileSync(file, `${messaging}state_dir: ${join(dir, 'state')}
sources:
  - name: app
    paths: [${paths}]
    format: ${format === 'json' ? 'json' : 'text'}
${multiline === undefined ? '' : `    multiline: ${multiline}\n`}    start_at: ${startAt}
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    level: error
    group_wait: 0s
${groupBy === undefined ? '' : `    group_by: [${groupBy}]\n`}metrics: { listen: 127.0.0.1:0 }
`)
  return file
}

function spawnNs(command) {
  const start = process.hrtime.bigint()
  const result = spawnSync(command[0], command.slice(1), { encoding: 'utf8' })
  return { ns: Number(process.hrtime.bigint() - start), result }
}

/**
 * The agent started on an empty directory; then the whole file is renamed into it (instant), and the
 * time runs from the rename until its /metrics show every line read and the outbox empty.
 *
 * Asking the agent for /metrics every 10 ms costs it CPU (an HTTP request and the metrics rendered,
 * 100 times a second, on the core it reads on). So while it reads, progress is watched from outside,
 * in /proc/<pid>/io (the bytes its read() calls returned, which costs the agent nothing); /metrics is
 * polled every 10 ms only once the file's bytes have all been read, for the last lines and the
 * outbox. Where /proc is missing it is polled every 10 ms throughout (`--poll metrics` forces that,
 * to compare).
 */
async function agentRun(file, lines, warmUp) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-agent-'))
  const logs = join(dir, 'logs')
  mkdirSync(logs)
  const watched = join(logs, 'app.log')
  let renamed = false
  try {
    const agent = startAgent(config(dir, { paths: join(logs, '*.log'), groupBy: 'err.type', api: benchApi }), { pinned: true })
    const url = await agent.banner
    const pid = agent.child.pid
    const size = statSync(file).size
    // warmUp: another file is read first, as a running agent has read lines before a burst.
    if (warmUp !== undefined) {
      copyFileSync(warmUp.file, join(logs, 'warm-up.log'))
      await waitFor(async () => {
        const value = await scrape(url)
        return value('logx_agent_lines_read_total') >= warmUp.lines && value('logx_agent_outbox_depth') === 0
      })
    }
    const linesBefore = warmUp === undefined ? 0 : await metric(url, 'logx_agent_lines_read_total')
    const matchesBefore = warmUp === undefined ? 0 : await metric(url, 'logx_agent_matches_total')
    const readBefore = pollMode === 'proc' ? bytesReadBy(pid) : undefined
    const cpuBefore = cpuSecondsOf(pid)
    const start = process.hrtime.bigint()
    renameSync(file, watched)
    renamed = true
    if (readBefore !== undefined) await waitFor(async () => (bytesReadBy(pid) ?? Infinity) - readBefore >= size, 600_000, 2)
    await waitFor(async () => {
      const value = await scrape(url)
      return value('logx_agent_lines_read_total') >= linesBefore + lines && value('logx_agent_outbox_depth') === 0
    })
    const ns = Number(process.hrtime.bigint() - start)
    const cpuAfter = cpuSecondsOf(pid)
    const matches = (await metric(url, 'logx_agent_matches_total')) - matchesBefore
    const rss = agent.hwmMb()
    await agent.stop()
    return { ns, matches, rss, cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore }
  } finally {
    // Only when it was moved: an agent that failed to start must not be hidden behind an ENOENT here.
    if (renamed) renameSync(watched, file)
    rmSync(dir, { recursive: true, force: true })
  }
}

function haveRsyslog() {
  if (spawnSync('rsyslogd', ['-v']).status === 0) return true
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) return false
  console.log('installing rsyslog (apt-get install -y rsyslog) for the imfile comparison')
  spawnSync('apt-get', ['install', '-y', 'rsyslog'], { stdio: 'ignore' })
  return spawnSync('rsyslogd', ['-v']).status === 0
}

/** rsyslogd -n with imfile on `file`, keeping lines that contain the needle; ns until all are out. */
async function rsyslogRun(file, errors) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-rsyslog-'))
  const { chmodSync } = require('node:fs')
  chmodSync(dir, 0o777)
  mkdirSync(join(dir, 'work'), { mode: 0o777 })
  chmodSync(join(dir, 'work'), 0o777)
  const out = join(dir, 'out.log')
  const conf = join(dir, 'rsyslog.conf')
  const escaped = needle.replace(/'/g, "\\'")
  writeFileSync(conf, `global(workDirectory="${join(dir, 'work')}")
module(load="imfile")
input(type="imfile" File="${file}" Tag="app" ruleset="errors")
ruleset(name="errors") {
  if ($msg contains '${escaped}') then { action(type="omfile" file="${out}") }
}
`)
  const asNobody = process.getuid?.() === 0 ? ['runuser', '-u', 'nobody', '--'] : []
  const command = [...pin, ...asNobody, 'rsyslogd', '-n', '-f', conf, '-i', join(dir, 'rsyslog.pid')]
  const start = process.hrtime.bigint()
  const child = spawn(command[0], command.slice(1), { stdio: 'ignore' })
  try {
    const lines = () => {
      try {
        return readFileSync(out, 'utf8').split('\n').length - 1
      } catch {
        return 0
      }
    }
    await waitFor(() => lines() >= errors, 600_000, 10)
    return Number(process.hrtime.bigint() - start)
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    rmSync(dir, { recursive: true, force: true })
  }
}

async function throughput(megabytes, rounds) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-agent-file-'))
  const file = join(dir, 'app.log')
  try {
    const generated = generate(file, megabytes * 1024 * 1024)
    const size = statSync(file).size
    // A tenth of the size, its own first line: a file that starts like the one read after it would
    // be held back as its copy until the tailer's next tick tells them apart.
    const warmFile = join(dir, 'warm-up.log')
    const warmGenerated = generate(warmFile, Math.ceil((megabytes * 1024 * 1024) / 10))
    writeFileSync(warmFile, `{"level":30,"msg":"warm-up file"}\n${readFileSync(warmFile, 'utf8')}`)
    const warmUp = { file: warmFile, lines: warmGenerated.lines + 1 }
    console.log(`${format} file${multiline === undefined ? '' : ` with a stack trace under each error line, read with multiline: ${multiline}`}: ${(size / 1e6).toFixed(1)} MB, ${generated.lines} lines, ${generated.errors} errors; ${rounds} rounds; ${pin.length > 0 ? 'pinned to CPU 0' : 'not pinned'}`)
    spawnSync('grep', ['-F', '-c', needle, file])
    const trueNs = median(Array.from({ length: 9 }, () => spawnNs([...pin, 'true']).ns))
    const grep = []
    const agent = []
    const warmAgent = []
    const rsyslog = []
    const withRsyslog = haveRsyslog()
    if (withRsyslog) chmodReadable(dir, file)
    for (let round = 0; round < rounds; round++) {
      if (withRsyslog) rsyslog.push(await rsyslogRun(file, generated.errors))
      const g = spawnNs([...pin, 'grep', '-F', '-c', needle, file])
      grep.push(Math.max(1, g.ns - trueNs))
      const a = await agentRun(file, generated.lines)
      if (a.matches !== generated.errors) throw new Error(`agent matched ${a.matches}, expected ${generated.errors}`)
      agent.push({ ns: a.ns, rss: a.rss, cpu: a.cpu })
      const w = await agentRun(file, generated.lines, warmUp)
      if (w.matches !== generated.errors) throw new Error(`warmed-up agent matched ${w.matches}, expected ${generated.errors}`)
      warmAgent.push({ ns: w.ns, rss: w.rss, cpu: w.cpu, grep: spawnNs([...pin, 'grep', '-F', '-c', needle, file]).ns - trueNs })
    }
    const row = (name, ns, ratio, rss, cpu = '-') => ({
      reader: name,
      'MB/s': Math.round(size / 1e6 / (ns / 1e9)),
      'lines/s': Math.round(generated.lines / (ns / 1e9)).toLocaleString('en-US'),
      'x grep': ratio,
      'CPU s': cpu,
      'peak RSS MB': rss,
    })
    const cpuOf = (runs) => (runs.every((a) => a.cpu !== undefined) ? median(runs.map((a) => a.cpu)).toFixed(2) : '-')
    console.table([
      row(`grep -F -c '${needle}'`, median(grep), '1.00', '-'),
      ...(withRsyslog ? [row(`rsyslogd imfile + contains '${needle}' -> omfile`, median(rsyslog), median(rsyslog.map((ns, i) => grep[i] / ns)).toFixed(2), '-')] : []),
      row('logx-agent run (tail, pre-filter, engine, outbox)', median(agent.map((a) => a.ns)), median(agent.map((a, i) => grep[i] / a.ns)).toFixed(2), Math.max(...agent.map((a) => a.rss)).toFixed(0), cpuOf(agent)),
      row(`the same after a ${(statSync(warmFile).size / 1e6).toFixed(0)} MB warm-up file`, median(warmAgent.map((a) => a.ns)), median(warmAgent.map((a) => Math.max(1, a.grep) / a.ns)).toFixed(2), Math.max(...warmAgent.map((a) => a.rss)).toFixed(0), cpuOf(warmAgent)),
    ])
    const mbPerSec = (ns) => size / 1e6 / (ns / 1e9)
    const prefix = format === 'json' ? '' : `${format}: `
    summaryRows.push(
      { case: `${prefix}agent, fresh`, logx: mbPerSec(median(agent.map((a) => a.ns))), peer: 'grep -F', peerValue: mbPerSec(median(grep)), unit: 'MB/s', better: 'higher', ratio: median(agent.map((a, i) => grep[i] / a.ns)) },
      { case: `${prefix}agent, warmed up`, logx: mbPerSec(median(warmAgent.map((a) => a.ns))), peer: 'grep -F', peerValue: mbPerSec(median(warmAgent.map((a) => Math.max(1, a.grep)))), unit: 'MB/s', better: 'higher', ratio: median(warmAgent.map((a) => Math.max(1, a.grep) / a.ns)) },
      ...(withRsyslog ? [{ case: `${prefix}agent, fresh`, logx: mbPerSec(median(agent.map((a) => a.ns))), peer: 'rsyslogd imfile', peerValue: mbPerSec(median(rsyslog)), unit: 'MB/s', better: 'higher', ratio: median(rsyslog.map((ns, i) => ns / agent[i].ns)) }] : []),
      { case: `${prefix}agent peak RSS, ${(size / 1e6).toFixed(0)} MB file`, logx: Math.max(...agent.map((a) => a.rss)), unit: 'MB', better: 'lower' },
    )
    console.log(`x grep: the median over rounds of each round's ratio (grep run next to the agent in the same round); the agent's first row is a fresh process (V8 compiles its hot path while it reads), the second one that has read ${warmUp.lines.toLocaleString('en-US')} lines before, as a long-running agent has`)
    if (!withRsyslog) console.log('rsyslog: not installed here (and not installable: not root, or no apt-get); no imfile comparison')
    const watching = pollMode === 'proc' && process.platform === 'linux'
      ? 'reading watched in /proc/<pid>/io, then /metrics polled every 10 ms for the last lines and the outbox'
      : '/metrics polled every 10 ms throughout'
    console.log(`agent: started on an empty directory, timed from renaming the file into it until every line is read and handled (${watching}); CPU s: user+system of the agent process over that time, all threads (median)`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function latency(samples) {
  const { startSandbox } = require(join(root, 'dist/agent/sandbox'))
  const sandbox = await startSandbox({ port: 0 })
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-agent-lat-'))
  mkdirSync(join(dir, 'logs'))
  const file = join(dir, 'logs', 'app.log')
  writeFileSync(file, '')
  const agent = startAgent(config(dir, { paths: join(dir, 'logs', '*.log'), api: { baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey }, startAt: 'end' }))
  const waiting = new Map()
  const unsubscribe = sandbox.store.subscribe((event) => {
    if (event.type !== 'added' || event.entry.kind !== 'sms') return
    const match = /probe-([a-j]+)/.exec(JSON.stringify(event.entry.record))
    const done = match && waiting.get(match[1])
    if (done) done(process.hrtime.bigint())
  })
  try {
    await agent.banner
    const ms = []
    for (let i = 0; i < samples + 10; i++) {
      // Letters, not digits: the default fingerprint masks digits, and each probe must be a new incident.
      const id = String(i).replace(/\d/g, (d) => 'abcdefghij'[Number(d)])
      const received = new Promise((resolve) => waiting.set(id, resolve))
      const line = format === 'json'
        ? `${JSON.stringify({ level: 50, time: Date.now(), msg: `probe-${id} failed` })}\n`
        : `2026-01-01T00:00:00Z ERROR probe-${id} failed\n`
      const t0 = process.hrtime.bigint()
      appendFileSync(file, line)
      const t1 = await Promise.race([received, new Promise((_, reject) => setTimeout(() => reject(new Error(`probe ${id} not received within 10 s`)), 10_000))])
      // The first ones warm the agent's connections and JIT.
      if (i >= 10) ms.push(Number(t1 - t0) / 1e6)
    }
    console.log(`alert latency, append -> sandbox stored the SMS (group_wait 0, ${samples} new incidents, one at a time): p50 ${percentile(ms, 50).toFixed(2)} ms, p99 ${percentile(ms, 99).toFixed(2)} ms, max ${Math.max(...ms).toFixed(2)} ms`)
    for (const p of [50, 99]) summaryRows.push({ case: `alert latency p${p}`, logx: percentile(ms, p), unit: 'ms', better: 'lower' })
  } finally {
    unsubscribe()
    await agent.stop()
    await sandbox.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function rssWithFiles(count) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-agent-many-'))
  try {
    mkdirSync(join(dir, 'logs'))
    let text = ''
    for (let i = 0; i < 100; i++) text += `{"level":30,"time":${1_700_000_000_000 + i},"pid":4242,"hostname":"api-7f9c","msg":"request completed ${i}"}\n`
    for (let i = 0; i < count; i++) writeFileSync(join(dir, 'logs', `app-${i}.log`), `{"level":30,"msg":"file ${i} opened ${'.'.repeat(256)}"}\n${text}`)
    const agent = startAgent(config(dir, { paths: join(dir, 'logs', '*.log'), api: benchApi }))
    const url = await agent.banner
    await waitFor(async () => (await metric(url, 'logx_agent_lines_read_total')) >= count * 101, 120_000, 50)
    for (let i = 0; i < count; i++) appendFileSync(join(dir, 'logs', `app-${i}.log`), `{"level":50,"msg":"file ${i} failed"}\n`)
    await waitFor(async () => (await metric(url, 'logx_agent_lines_read_total')) >= count * 102 && (await metric(url, 'logx_agent_outbox_depth')) === 0, 120_000, 50)
    const watched = await metric(url, 'logx_agent_files_watched')
    const rss = agent.hwmMb()
    await agent.stop()
    return { watched, rss }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main() {
  console.log(`node ${process.version}, ${cpus().length} CPUs, ${cpus()[0]?.model ?? ''}`)
  let sandbox
  if (messagingMode === 'remote') {
    const { startSandbox } = require(join(root, 'dist/agent/sandbox'))
    sandbox = await startSandbox({ port: 0 })
    benchApi = { baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey }
    console.log('messaging: a sandbox in the bench process (the agent talks to it as to a real API)')
  } else {
    console.log('messaging: the sandbox embedded in the agent process (as npm start runs it)')
  }
  await throughput(Number(option('mb', 200)), Number(option('rounds', 5)))
  await latency(Number(option('samples', 200)))
  for (const count of [1, 500]) {
    const { watched, rss } = await rssWithFiles(count)
    console.log(`${count} file(s) watched (${watched} open; 101 lines each, then one error line each): agent peak RSS ${rss.toFixed(0)} MB`)
    summaryRows.push({ case: `agent peak RSS, ${count} file(s) watched`, logx: rss, unit: 'MB', better: 'lower' })
  }
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  await sandbox?.close()
  require('./summary').reportSummary('agent', summaryRows)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
