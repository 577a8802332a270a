'use strict'
// Alert latency while lines stream in, the way issue 18 (goal 3) states it and agentbench's latency
// mode measures it, with the agent's own share apart. Side by side, each on a file of its own (so a
// slow phase of the machine hits all alike), the bench appends `--rate` lines/s: every write is
// `--noise` info lines and one error line (99 + 1: 1% errors, 20 writes/s at 2,000 lines/s), the
// writes to the targets staggered within each period. Every error line is a new incident (its own
// id in the message, `group_by: [msg]`, `group_wait: 0s`). The clock runs from just before the
// write() to:
//   embedded  the agent as `npm start` runs it (its node flags, the embedded sandbox): the SMS in
//             the sandbox's `sms_record` listing, polled every --poll-ms exactly as the harness polls
//             it (fetch, `per_page=100&limit=100`, the `apikey` header); the poll's interval and the
//             listing's cost are in the figure. Also its record's `created_at` (the agent's clock,
//             1 ms steps): the agent's share inside the same process, without the poll;
//   remote    the same agent talking to a sandbox in this process, as to a real API: the sandbox
//             store's subscribe() event, no polling: the agent's own share;
//   naive     the peer, a naive Node tailer (fs.watch, read of the appended bytes, split, JSON.parse
//             or a regex, matches written to an output file), timed by watching that file (inotify
//             plus a 2 ms poll), as the harness does.
// With embedded and naive both run, it also prints the poll's share of each embedded sample (its
// total less its record's created_at) and what the naive peer would measure behind that same poll
// (each naive sample plus each poll share): the floor a goal stated through the poll must clear.
// Before the measured --seconds: one warm-up error line per target until it comes through, then
// --warmup-seconds of the stream itself, not counted (a running agent has compiled its hot path).
//
// Usage: npm run build && node bench/latency.js [--rate 2000] [--seconds 10] [--format json|text]
//   [--poll-ms 10] [--noise 99] [--warmup-seconds 2] [--targets embedded,remote,naive]
//   [--neighbours N]    N other files beside each target's log, as in /var/log (none by default, as
//                       agentbench has); they are not tailed, but a watcher may still look at them
//   [--profile [DIR]]   the agents run with --cpu-prof, profiles written to DIR (printed at the end)
//   [--csv FILE]        every sample: target, id, when written (ms into the run, and epoch ms to match
//                       an agent's own traces), latency ms, and the embedded record's created_at - write
//   [--root DIR]        the project whose bin/ and dist/ are run (default: this checkout)
// Exit 1 when an error line never came out of a target (lost), 2 on bad arguments.
const { spawn } = require('node:child_process')
const { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } = require('node:fs')
const { cpus, loadavg, tmpdir } = require('node:os')
const { join, resolve } = require('node:path')
const { cpuSecondsOf } = require('./agent-probes')
const { infoLines, errorLine, NAIVE_FOLLOWER, watchAppends } = require('./latency-peer')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  if (index === -1) return fallback
  const value = args[index + 1]
  return value === undefined || value.startsWith('--') ? true : value
}
function fail(message) {
  console.error(`latency: ${message}`)
  process.exit(2)
}
const rate = Number(option('rate', '2000'))
const seconds = Number(option('seconds', '10'))
const format = option('format', 'json')
const pollMs = Number(option('poll-ms', '10'))
const noise = Number(option('noise', '99'))
const warmupSeconds = Number(option('warmup-seconds', '2'))
const targets = String(option('targets', 'embedded,remote,naive')).split(',')
const neighbours = Number(option('neighbours', '0'))
const profile = option('profile', undefined)
const csv = option('csv', undefined)
const root = resolve(String(option('root', join(__dirname, '..'))))
if (!(rate > 0 && seconds > 0 && pollMs > 0 && warmupSeconds >= 0)) fail('--rate, --seconds and --poll-ms take positive numbers')
if (!(Number.isInteger(noise) && noise >= 0)) fail('--noise takes a whole number of info lines per error line')
if (!(Number.isInteger(neighbours) && neighbours >= 0)) fail('--neighbours takes a whole number of files')
if (format !== 'json' && format !== 'text') fail(`--format: json or text, got ${format}`)
for (const t of targets) if (!['embedded', 'remote', 'naive'].includes(t)) fail(`--targets: embedded, remote, naive; got ${t}`)
if (csv === true) fail('--csv takes a file name')

const BIN = join(root, 'bin', 'logx-agent.js')
// The flags of `npm start` (package.json) and of the pm2 app (ecosystem.config.js).
const NODE_FLAGS = ['--max-semi-space-size=1', '--single-threaded', '--optimize-for-size']
const API_KEY = 'bench'
const DRAIN_MS = 5000
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const wallMs = () => performance.timeOrigin + performance.now()
const profileDir = profile === undefined ? undefined : profile === true ? mkdtempSync(join(tmpdir(), 'logx-latency-prof-')) : resolve(profile)

/** A child process with the tail of its output kept; `ready` resolves once the pattern is in stdout. */
function launch(argv, pattern) {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const keep = (chunk) => (out = (out + chunk).slice(-65536))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exited = new Promise((r) => child.once('exit', r))
  const ready = new Promise((res, rej) => {
    const deadline = Date.now() + 20_000
    const check = () => {
      const m = pattern.exec(out)
      if (m) return res(m)
      if (child.exitCode !== null || child.signalCode !== null) return rej(new Error(`${argv.slice(-3).join(' ')} exited (${child.exitCode ?? child.signalCode}):\n${out}`))
      if (Date.now() > deadline) return rej(new Error(`no ${pattern} in 20 s:\n${out}`))
      setTimeout(check, 5)
    }
    check()
  })
  return { child, ready, exited, output: () => out }
}

async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return
  // SIGINT: the agent drains and exits by itself, which is when --cpu-prof writes its profile.
  proc.child.kill('SIGINT')
  const late = setTimeout(() => proc.child.kill('SIGKILL'), 15_000)
  await proc.exited
  clearTimeout(late)
}

function agentConfig(dir, file, baseUrl) {
  const messaging = baseUrl === undefined
    ? `messaging:\n  api_key: ${API_KEY}\n  sandbox:\n    listen: 127.0.0.1:0\n`
    : `messaging:\n  base_url: ${baseUrl}\n  api_key: ${API_KEY}\n`
  const path = join(dir, 'agent.yaml')
  // The rule of agentbench's logx-agent subject: every error line is its own incident.
  writeFileSync(path, `${messaging}state_dir: ${join(dir, 'state')}
sources:
  - { name: app, paths: ["${file}"], format: ${format}, start_at: end }
channels:
  sms: { type: sms, numbers: [919800000001] }
rules:
  - { name: errors, source: app, level: error, message: 'SENTINEL|LAT-|WARMUP-', group_by: [msg], group_wait: 0s, notify: [sms] }
`)
  return path
}

/** What every target has: its file, the ids seen and when (performance.now() of this process). */
function target(name, dir) {
  const file = join(dir, `${name}.log`)
  writeFileSync(file, '')
  const runId = Math.random().toString(16).slice(2, 10)
  const t = { name, file, runId, seen: new Map(), warm: false, cpu: undefined, pid: undefined, extra: {}, closers: [] }
  const re = new RegExp(`(WARMUP|LAT)-${runId}-(\\d{6})`, 'g')
  t.scan = (text, at, onNew) => {
    for (const m of text.matchAll(re)) {
      if (m[1] === 'WARMUP') t.warm = true
      else if (!t.seen.has(m[2])) {
        t.seen.set(m[2], at)
        onNew?.(m[2])
      }
    }
  }
  return t
}

/** Polls the embedded sandbox's listing as agentbench does: the time is when the body has arrived. */
function pollListing(t, url) {
  let closed = false
  const createdAt = new Map()
  const polls = []
  t.extra.createdAt = createdAt
  t.extra.polls = polls
  ;(async () => {
    while (!closed) {
      const sent = performance.now()
      try {
        const response = await fetch(url, { headers: { apikey: API_KEY } })
        const body = await response.text()
        const at = performance.now()
        if (t.counting) {
          polls.push(at - sent)
          t.extra.bodyBytes = body.length
        }
        let fresh = false
        if (response.ok) t.scan(body, at, () => (fresh = true))
        // The record's created_at: parsed only when a new id came, to keep this process's load low.
        if (fresh) for (const record of JSON.parse(body).data) keepCreated(t, record, createdAt)
      } catch {}
      const wait = pollMs - (performance.now() - sent)
      if (!closed) await sleep(Math.max(1, wait))
    }
  })()
  t.closers.push(() => (closed = true))
}

function keepCreated(t, record, createdAt) {
  const m = new RegExp(`LAT-${t.runId}-(\\d{6})`).exec(String(record.sms ?? JSON.stringify(record)))
  if (m && !createdAt.has(m[1])) createdAt.set(m[1], Date.parse(record.created_at))
}

const agentFlags = (name) =>
  profileDir === undefined ? NODE_FLAGS : [...NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=latency-${name}-${process.pid}.cpuprofile`]

async function startEmbedded(t, dir) {
  const agent = launch([...agentFlags('embedded'), BIN, 'run', '--config', agentConfig(dir, t.file)], /the embedded sandbox \(no real API configured\) at (\S+)/)
  t.proc = agent
  const baseUrl = (await agent.ready)[1]
  await readyToServe(agent)
  t.pid = agent.child.pid
  pollListing(t, `${baseUrl}/api/v1/?apirequest=sms_record&per_page=100&limit=100`)
}

async function startRemote(t, dir, sandbox) {
  const agent = launch([...agentFlags('remote'), BIN, 'run', '--config', agentConfig(dir, t.file, sandbox.info.baseUrl)], /messaging: (\S+)/)
  t.proc = agent
  await agent.ready
  await readyToServe(agent)
  t.pid = agent.child.pid
  const off = sandbox.store.subscribe((event) => {
    if (event.type === 'added' && event.entry.kind === 'sms') t.scan(JSON.stringify(event.entry.record), performance.now())
  })
  t.closers.push(off)
}

async function readyToServe(agent) {
  const deadline = Date.now() + 20_000
  while (!/Stop with Ctrl-C|Open the inbox/.test(agent.output())) {
    if (agent.child.exitCode !== null) throw new Error(`agent exited (${agent.child.exitCode}):\n${agent.output()}`)
    if (Date.now() > deadline) throw new Error(`agent not serving after 20 s:\n${agent.output()}`)
    await sleep(5)
  }
}

/** The naive peer, timed by watching its output file: inotify, and a 2 ms poll behind it. */
async function startNaive(t, dir) {
  const out = join(dir, 'naive-out.log')
  writeFileSync(out, '')
  t.proc = launch(['-e', NAIVE_FOLLOWER, t.file, out], /following/)
  await t.proc.ready
  t.pid = t.proc.child.pid
  t.closers.push(watchAppends(out, (text, at) => t.scan(text, at)))
}

// Nearest rank, as agentbench reports them.
const rank = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]
const stats = (values) => {
  const s = [...values].sort((a, b) => a - b)
  return { n: s.length, p50: rank(s, 50), p90: rank(s, 90), p99: rank(s, 99), max: s[s.length - 1] }
}
const pad6 = (k) => String(k).padStart(6, '0')

async function main() {
  const load0 = loadavg()
  const period = (1000 * (noise + 1)) / rate
  const warmWrites = Math.round((warmupSeconds * 1000) / period)
  const writes = Math.round((seconds * 1000) / period)
  console.log(`latency: ${format}, ${rate} lines/s (${noise} info + 1 error line per write, a write every ${period.toFixed(1)} ms) for ${seconds} s after ${warmupSeconds} s of warm-up; targets ${targets.join(', ')}; listing polled every ${pollMs} ms${neighbours > 0 ? `; ${neighbours} other files beside each log` : ''}`)
  console.log(`node ${process.version}, ${cpus().length} CPUs, ${cpus()[0]?.model ?? ''}; agent from ${root}; load average ${load0.map((l) => l.toFixed(2)).join(' ')}`)
  const dir = mkdtempSync(join(tmpdir(), 'logx-latency-'))
  const ts = []
  let sandbox
  let failed = false
  try {
    for (const name of targets) {
      const sub = join(dir, name)
      mkdirSync(sub)
      for (let i = 0; i < neighbours; i++) writeFileSync(join(sub, `other-${i}.log`), '')
      const t = target(name, sub)
      ts.push(t)
      if (name === 'embedded') await startEmbedded(t, sub)
      else if (name === 'naive') await startNaive(t, sub)
      else {
        sandbox ??= await require(join(root, 'dist', 'agent', 'sandbox')).startSandbox({ port: 0, apiKey: API_KEY })
        await startRemote(t, sub, sandbox)
      }
      t.fd = openSync(t.file, 'a')
    }
    // One warm-up error line per target every 200 ms until it comes out the other end.
    const warmDeadline = Date.now() + 20_000
    for (let w = 0; ts.some((t) => !t.warm); w++) {
      if (Date.now() > warmDeadline) throw new Error(`no warm-up line through ${ts.filter((t) => !t.warm).map((t) => t.name).join(', ')} in 20 s`)
      for (const t of ts) if (!t.warm) writeSync(t.fd, errorLine(format, `WARMUP-${t.runId}-${pad6(w)}`))
      await sleep(200)
    }
    await sleep(300)
    // The stream: warm-up writes first (their ids below `warmWrites`, not counted), then the measured ones.
    const pool = infoLines(format, 997)
    let next = 0
    const total = warmWrites + writes
    for (const t of ts) t.written = new Array(total)
    const t0 = performance.now() + 20
    let measuredFrom = 0
    for (let k = 0; k < total; k++) {
      for (let i = 0; i < ts.length; i++) {
        const t = ts[i]
        const wait = t0 + k * period + (i * period) / ts.length - performance.now()
        if (wait > 0) await sleep(wait)
        if (k === warmWrites && i === 0) {
          measuredFrom = performance.now()
          for (const u of ts) {
            u.cpu = cpuSecondsOf(u.pid)
            u.counting = true
          }
        }
        let chunk = ''
        for (let j = 0; j < noise; j++) {
          chunk += pool[next]
          next = (next + 1) % pool.length
        }
        chunk += errorLine(format, `LAT-${t.runId}-${pad6(k)}`)
        t.written[k] = { at: performance.now(), wall: wallMs() }
        writeSync(t.fd, chunk)
      }
    }
    const measuredFor = (performance.now() - measuredFrom) / 1000
    const cpuAfter = ts.map((t) => cpuSecondsOf(t.pid))
    const drainUntil = performance.now() + DRAIN_MS
    while (ts.some((t) => t.seen.size < total) && performance.now() < drainUntil) await sleep(10)
    for (const t of ts) for (const close of t.closers.splice(0)) close()

    const rows = []
    const samples = []
    /** Per target, its latencies; for the embedded one also each sample's poll share (total less its record's created_at). */
    const latencies = new Map()
    const pollShares = []
    for (const [index, t] of ts.entries()) {
      const lat = []
      const created = []
      let lost = 0
      for (let k = warmWrites; k < total; k++) {
        const id = pad6(k)
        const seenAt = t.seen.get(id)
        if (seenAt === undefined) lost++
        else lat.push(seenAt - t.written[k].at)
        const c = t.extra.createdAt?.get(id)
        if (c !== undefined) created.push(c - t.written[k].wall)
        if (c !== undefined && seenAt !== undefined) pollShares.push(seenAt - t.written[k].at - (c - t.written[k].wall))
        samples.push([t.name, id, (t.written[k].at - measuredFrom).toFixed(3), t.written[k].wall.toFixed(3), seenAt === undefined ? '' : (seenAt - t.written[k].at).toFixed(3), c === undefined ? '' : (c - t.written[k].wall).toFixed(3)])
      }
      const cpu = t.cpu === undefined || cpuAfter[index] === undefined ? undefined : cpuAfter[index] - t.cpu
      const linesPerS = (writes * (noise + 1)) / measuredFor
      latencies.set(t.name, lat)
      rows.push({ t, what: CLOCK[t.name], s: stats(lat), lost, cpu, linesPerS })
      if (t.name === 'embedded') rows.push({ t, what: 'its record\'s created_at (agent clock, 1 ms steps)', s: stats(created), lost: writes - created.length, cpu: undefined, linesPerS, share: true })
      if (lost > 0) failed = true
    }
    report(rows, writes)
    const naive = latencies.get('naive')
    if (naive !== undefined && pollShares.length > 0) {
      // What the poll alone adds, and what the naive peer would measure behind the same poll: every
      // naive sample plus every poll share (all pairs). The floor a p99 goal through the poll meets.
      const poll = stats(pollShares)
      const behind = []
      for (const a of naive) for (const b of pollShares) behind.push(a + b)
      const composed = stats(behind)
      console.log(`the poll's share (embedded: each sample's total less its record's created_at) p50 ${poll.p50.toFixed(2)} ms, p99 ${poll.p99.toFixed(2)} ms; ` +
        `the naive peer behind the same poll (its samples plus those shares, all pairs) p50 ${composed.p50.toFixed(2)} ms, p99 ${composed.p99.toFixed(2)} ms`)
    }
    const polled = ts.find((t) => t.extra.polls !== undefined)
    if (polled !== undefined) {
      const p = stats(polled.extra.polls)
      console.log(`the listing (embedded): ${p.n} polls in the window, each request (fetch to body) p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms, max ${p.max.toFixed(2)} ms; ${Math.round(polled.extra.bodyBytes / 1024)} KB a body`)
    }
    if (csv !== undefined) {
      writeFileSync(csv, `target,id,written_ms,written_epoch_ms,latency_ms,created_at_ms\n${samples.map((s) => s.join(',')).join('\n')}\n`)
      console.log(`samples: ${resolve(csv)} (written_ms: into the measured window; written_epoch_ms: the wall clock, to match with an agent's own traces; created_at_ms: embedded only, the SMS record's created_at - the write, 1 ms steps)`)
    }
  } finally {
    for (const t of ts) {
      for (const close of t.closers.splice(0)) close()
      if (t.fd !== undefined) closeSync(t.fd)
      if (t.proc !== undefined) await stop(t.proc)
    }
    await sandbox?.close()
    rmSync(dir, { recursive: true, force: true })
  }
  if (profileDir !== undefined) {
    for (const name of targets.filter((n) => n !== 'naive')) console.log(`CPU profile (${name}): ${join(profileDir, `latency-${name}-${process.pid}.cpuprofile`)}`)
    console.log('(open them in Chrome DevTools or speedscope; match their times with --csv\'s written_epoch_ms)')
  }
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  if (failed) {
    console.error('latency: error lines lost (never came out of a target within 5 s of the last write)')
    process.exitCode = 1
  }
}

const CLOCK = {
  naive: 'the line in its output file (inotify + 2 ms poll)',
  embedded: `the SMS in the listing, polled every ${pollMs} ms`,
  remote: 'the sandbox store\'s event (no poll)',
}
const NAMES = {
  naive: 'naive Node (fs.watch, read, split, parse)',
  embedded: 'logx-agent, embedded sandbox (npm start)',
  remote: 'logx-agent, sandbox in the bench process',
}

function report(rows, writes) {
  const ms = (v) => (v === undefined ? '-' : v.toFixed(2))
  console.log(`\n| ${format}, ${rate} lines/s, 1 error line in ${noise + 1} | clock stops at | samples | p50 ms | p90 ms | p99 ms | max ms | lost | CPU s | lines/s written |`)
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    console.log(`| ${r.share ? '  (same agent)' : NAMES[r.t.name]} | ${r.what} | ${r.s.n}/${writes} | ${ms(r.s.p50)} | ${ms(r.s.p90)} | ${ms(r.s.p99)} | ${ms(r.s.max)} | ${r.share ? '-' : r.lost} | ${r.cpu === undefined ? '-' : r.cpu.toFixed(2)} | ${Math.round(r.linesPerS).toLocaleString('en-US')} |`)
  }
  const peer = rows.find((r) => r.t.name === 'naive' && r.s.n > 0)
  const summary = []
  for (const r of rows) {
    if (r === peer || r.s.n === 0) continue
    const name = r.share ? 'embedded, created_at' : r.t.name
    if (peer !== undefined) console.log(`${name}: p50 ${(r.s.p50 / peer.s.p50).toFixed(1)}x, p99 ${(r.s.p99 / peer.s.p99).toFixed(1)}x the naive peer's`)
    for (const p of ['p50', 'p99']) {
      const vs = peer === undefined ? {} : { peer: 'naive Node tailer', peerValue: peer.s[p] }
      summary.push({ case: `${format}: alert latency ${p}, ${name}`, logx: r.s[p], unit: 'ms', better: 'lower', ...vs })
    }
  }
  require('./summary').reportSummary('latency', summary)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
