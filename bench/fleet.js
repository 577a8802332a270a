'use strict'
// Issue 16's benchmark: two agents on one Redis against a lone agent, for throughput and alert latency.
// Everything real and local: a redis-server of the bench's own (free port, no persistence), the
// messaging sandbox in a process of its own (both agents send to it, as to the real API), and the
// agents as bin/logx-agent.js runs them (the node flags of `npm start`/pm2, bench/agent-process.js).
//
//  1. Throughput. An NDJSON file (--mb, pino-http lines, 1% errors; the errors of every
//     --lines-per-incident lines share an incident id and the rule groups by it; by default two
//     files: 100000, an outage of a few incidents every host logs, and 1000, a storm of 521 distinct
//     incidents) is read from the beginning by each shape, fresh agents on empty directories, the
//     file renamed in:
//       lone   one agent, no `cluster:`, pinned to CPU 0;
//       solo   one agent with `cluster:` on the Redis, alone in its fleet (every claim won at once):
//              what the fleet's client costs an agent, without a second agent on this machine;
//       fleet  two agents with `cluster:` on the Redis (bench-a on CPU 0, bench-b on CPU 1), each on
//              its own copy of the file, its own state_dir: every incident seen twice, paged once;
//       pair   the same two agents without `cluster:` (each pages every incident): what two agents
//              on this machine cost each other with no Redis at all, so that the fleet's own cost is
//              the fleet/pair ratio and the machine's the pair/lone one.
//     Each agent is timed as bench/agent.js times one: from the rename until its /metrics show every
//     line read and its outbox empty (/proc/<pid>/io watched until the bytes are read, then /metrics
//     every 10 ms). `read` is the same clock stopped at the last line read, before the last sends.
//     The shapes alternate within and across --rounds; medians are printed.
//  2. Alert latency. --rate lines/s streamed as bench/latency.js streams them (--noise info lines and
//     one error line per write, each error a new incident, `group_by: [msg]`, `group_wait: 0s`); a
//     fleet's two agents tail two copies (the same write to both, back to back), and so do a pair's.
//     The clock runs from just before the first write() to the first SMS of the incident arriving on
//     the sandbox's live feed (/_sandbox/events, the inbox's server-sent events: no polling), from
//     whichever agent won the claim. Samples of all rounds pooled; duplicates counted (a page beyond
//     one per incident, beyond two for a pair).
//  Per run, the Redis commands the agents sent (INFO commandstats before/after, by command) beside
//  the lines and incidents: the fleet touches Redis per incident and per notice, never per line.
//
// Usage: npm run build && node bench/fleet.js [--mb 100] [--rounds 3] [--lines-per-incident 100000,1000]
//   [--rate 2000] [--seconds 6] [--noise 99] [--warmup-seconds 2] [--shapes lone,solo,pair,fleet]
//   [--only throughput|latency] [--cpu-prof DIR]   (--cpu-prof: every agent writes a profile to DIR)
// Without redis-server (apt-get install redis-server) it says so in one line and exits 0.
const { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } = require('node:fs')
const { cpus, loadavg, tmpdir } = require('node:os')
const { join, resolve } = require('node:path')
const { bytesReadBy, cpuSecondsOf, scrape } = require('./agent-probes')
const { startAgent, waitFor } = require('./agent-process')
const { infoLines, errorLine } = require('./latency-peer')
const { machineScaling, REDIS_SERVER, startRedis, commandCalls, callsBetween, startSandboxProcess, agentConfig } = require('./fleet-setup')
const { generateLog } = require('./generate-log')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const mb = Number(option('mb', '100'))
const rounds = Number(option('rounds', '3'))
// Two files by default: an outage (the same few incidents on every host: what a fleet is for) and a
// storm of distinct incidents (a claim and a mark per page: the fleet's cost per notice).
const incidentSpacings = option('lines-per-incident', '100000,1000').split(',').map(Number)
const rate = Number(option('rate', '2000'))
const seconds = Number(option('seconds', '6'))
const noise = Number(option('noise', '99'))
const warmupSeconds = Number(option('warmup-seconds', '2'))
const SHAPES = { lone: { agents: 1, cluster: false }, solo: { agents: 1, cluster: true }, pair: { agents: 2, cluster: false }, fleet: { agents: 2, cluster: true } }
const shapes = option('shapes', Object.keys(SHAPES).join(',')).split(',')
const only = option('only', undefined)
const cpuProf = option('cpu-prof', undefined) === undefined ? undefined : resolve(option('cpu-prof'))
for (const s of shapes) if (SHAPES[s] === undefined) throw new Error(`--shapes: ${Object.keys(SHAPES).join(', ')}; got ${s}`)
if (!(mb > 0 && rounds > 0 && rate > 0 && seconds > 0 && incidentSpacings.every((n) => n >= 100))) throw new Error('--mb, --rounds, --rate, --seconds take positive numbers; --lines-per-incident at least 100 (a list: 100000,1000)')

const AGENTS = ['bench-a', 'bench-b']
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]
const rank = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]
const pad6 = (k) => String(k).padStart(6, '0')
let redis
let sandbox
let profiles = 0

/** The agents of one run (1 or 2), each in a directory of its own; `cluster` for a fleet. */
async function startAgents(shape, phase, configOf) {
  const count = SHAPES[shape].agents
  const agents = []
  for (let i = 0; i < count; i++) {
    const dir = mkdtempSync(join(tmpdir(), `logx-bench-fleet-${shape}-`))
    const cluster = SHAPES[shape].cluster ? { agentId: AGENTS[i], url: redis.url } : undefined
    const name = shape === 'lone' ? 'lone' : AGENTS[i]
    const profile = cpuProf === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`, `--cpu-prof-name=fleet-${phase}-${shape}-${name}-${++profiles}.cpuprofile`]
    // Throughput pins each agent to a CPU of its own (as bench/agent.js pins its one); latency does not (as bench/latency.js).
    const agent = startAgent(configOf(dir, cluster), { pinned: phase === 'throughput', cpu: i, extraNodeArgs: profile })
    agents.push({ dir, agent, name })
  }
  try {
    for (const a of agents) a.url = await a.agent.banner
  } catch (err) {
    await stopAgents(agents)
    throw err
  }
  return agents
}

async function stopAgents(agents, beforeRemoving = () => {}) {
  for (const a of agents) await a.agent.stop()
  beforeRemoving()
  for (const a of agents) rmSync(a.dir, { recursive: true, force: true })
}

/** The Redis commands of one run: FLUSHALL first (claims of the last run would answer `done`). */
async function redisWindow() {
  await redis.command('FLUSHALL')
  const before = await commandCalls(redis)
  return async () => callsBetween(before, await commandCalls(redis))
}

/** Counts the SMS of a run per id (the first match of `pattern` in its text); `first` keeps when each id came first. */
function smsCounter(pattern) {
  const counts = new Map()
  const first = new Map()
  const off = sandbox.onSms((record, at) => {
    const m = pattern.exec(String(record.sms ?? ''))
    if (m === null) return
    counts.set(m[1], (counts.get(m[1]) ?? 0) + 1)
    if (!first.has(m[1])) first.set(m[1], at)
  })
  const total = () => [...counts.values()].reduce((a, b) => a + b, 0)
  return { counts, first, off, total, duplicates: () => total() - counts.size }
}

// ---- 1. throughput ----

async function throughputRun(shape, copies, generated, size) {
  const commands = await redisWindow()
  const sms = smsCounter(/request failed inc-(\d+)/)
  const rule = 'group_by: [incident]'
  const agents = await startAgents(shape, 'throughput', (dir, cluster) => {
    mkdirSync(join(dir, 'logs'))
    return agentConfig(dir, { paths: join(dir, 'logs', '*.log'), api: sandbox.api, startAt: 'beginning', rule, cluster })
  })
  const moved = []
  try {
    for (const a of agents) {
      a.pid = a.agent.child.pid
      a.readBefore = bytesReadBy(a.pid)
      a.cpuBefore = cpuSecondsOf(a.pid)
    }
    // How busy the machine was: every process of the run (agents, sandbox, Redis) over the cores.
    const everyPid = [...agents.map((a) => a.pid), sandbox.pid, redis.pid]
    const machineBefore = everyPid.map(cpuSecondsOf)
    const machineStart = process.hrtime.bigint()
    for (const [i, a] of agents.entries()) {
      a.start = process.hrtime.bigint()
      renameSync(copies[i], join(a.dir, 'logs', 'app.log'))
      moved.push([join(a.dir, 'logs', 'app.log'), copies[i]])
    }
    await Promise.all(agents.map(async (a) => {
      if (a.readBefore !== undefined) await waitFor(async () => (bytesReadBy(a.pid) ?? Infinity) - a.readBefore >= size, 600_000, 2)
      await waitFor(async () => {
        const value = await scrape(a.url)
        const now = process.hrtime.bigint()
        if (value('logx_agent_lines_read_total') < generated.lines || value('logx_agent_matches_total') < generated.errors) return false
        a.readNs ??= Number(now - a.start)
        if (value('logx_agent_outbox_depth') !== 0) return false
        a.ns = Number(now - a.start)
        a.cpu = cpuSecondsOf(a.pid) - a.cpuBefore
        a.matches = value('logx_agent_matches_total')
        a.sent = value('logx_agent_notifications_sent_total')
        a.claims = { won: value('logx_agent_cluster_claims_total{outcome="won"}'), lost: value('logx_agent_cluster_claims_total{outcome="lost"}'), held: value('logx_agent_cluster_claims_total{outcome="held"}'), degraded: value('logx_agent_cluster_degraded_sends_total') }
        return true
      })
    }))
    const machineS = Number(process.hrtime.bigint() - machineStart) / 1e9
    const busy = everyPid.reduce((sum, pid, i) => sum + cpuSecondsOf(pid) - machineBefore[i], 0) / (machineS * cpus().length)
    for (const a of agents) if (a.matches !== generated.errors) throw new Error(`${shape} ${a.name} matched ${a.matches} lines, expected ${generated.errors}`)
    // Every page of the run on the sandbox's feed (a fleet pages each incident once, a pair twice).
    const expected = generated.incidents * (shape === 'pair' ? 2 : 1)
    await waitFor(() => sms.total() >= expected, 5000, 10).catch(() => {})
    const redisCalls = await commands()
    return { shape, agents: agents.map(({ name, ns, readNs, cpu, sent, claims }) => ({ name, ns, readNs, cpu, sent, claims })), paged: sms.counts.size, duplicates: sms.duplicates() - (shape === 'pair' ? generated.incidents : 0), redisCalls, busy }
  } finally {
    sms.off()
    // The copies go back before the directories are removed: the next run reads them again.
    await stopAgents(agents, () => {
      for (const [from, to] of moved) renameSync(from, to)
    })
  }
}

async function throughput(linesPerIncident) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-fleet-file-'))
  try {
    const copies = [join(dir, 'a.log'), join(dir, 'b.log')]
    const generated = generateLog(copies[0], mb * 1024 * 1024, 'json', { linesPerIncident })
    copyFileSync(copies[0], copies[1])
    const size = statSync(copies[0]).size
    console.log(`\n1. throughput: ${(size / 1e6).toFixed(1)} MB NDJSON, ${generated.lines.toLocaleString('en-US')} lines, ${generated.errors.toLocaleString('en-US')} errors in ${generated.incidents} incidents (one per ${linesPerIncident} lines); ${rounds} rounds of ${shapes.join(', ')}, alternating`)
    const runs = []
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? shapes : [...shapes].reverse()
      for (const shape of order) {
        const run = await throughputRun(shape, copies, generated, size)
        runs.push({ round, ...run })
        const each = run.agents.map((a) => `${a.name} ${mbps(size, a.ns).toFixed(1)} MB/s (read ${mbps(size, a.readNs).toFixed(1)}, CPU ${a.cpu.toFixed(2)} s, sent ${a.sent}${SHAPES[run.shape].cluster ? `, claims won ${a.claims.won} lost ${a.claims.lost} held ${a.claims.held} degraded ${a.claims.degraded}` : ''})`).join('; ')
        console.log(`  round ${round + 1} ${shape}: ${each}; incidents paged ${run.paged}/${generated.incidents}, duplicates ${run.duplicates}; machine busy ${(run.busy * 100).toFixed(0)}%; Redis ${describeCalls(run.redisCalls)}`)
      }
    }
    return reportThroughput(runs, generated, size)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const mbps = (size, ns) => size / 1e6 / (ns / 1e9)
const totalCalls = (calls) => [...calls.values()].reduce((a, b) => a + b, 0)
const describeCalls = (calls) => `${totalCalls(calls)} commands${calls.size === 0 ? '' : ` (${[...calls].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', ')})`}`

function reportThroughput(runs, generated, size) {
  const of = (shape) => runs.filter((r) => r.shape === shape)
  const agentValues = (shape, pick) => of(shape).flatMap((r) => r.agents.map(pick))
  const rows = []
  const medians = {}
  for (const shape of shapes) {
    if (of(shape).length === 0) continue
    medians[shape] = median(agentValues(shape, (a) => mbps(size, a.ns)))
    const calls = of(shape).map((r) => totalCalls(r.redisCalls))
    rows.push(`| ${shape} | ${of(shape)[0].agents.length} | ${medians[shape].toFixed(1)} | ${median(agentValues(shape, (a) => mbps(size, a.readNs))).toFixed(1)} | ${median(agentValues(shape, (a) => a.cpu)).toFixed(2)} | ${(median(of(shape).map((r) => r.busy)) * 100).toFixed(0)}% | ${median(calls)} | ${(median(calls) / generated.incidents).toFixed(1)} | ${((median(calls) / (generated.lines * of(shape)[0].agents.length)) * 1000).toFixed(2)} | ${of(shape).map((r) => `${r.paged}/${r.duplicates}`).join(' ')} |`)
  }
  console.log(`\n| shape | agents | MB/s per agent (median), to outbox empty | to last line read | CPU s per agent | machine busy | Redis commands (run) | per incident | per 1,000 lines read | paged/duplicates per run |`)
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const row of rows) console.log(row)
  // Each round's own ratio (the shapes of a round ran minutes apart at most), then their median.
  const ratio = (a, b, clock) => {
    const per = []
    for (let round = 0; round < rounds; round++) {
      const x = runs.filter((r) => r.round === round && r.shape === a).flatMap((r) => r.agents.map((g) => mbps(size, g[clock])))
      const y = runs.filter((r) => r.round === round && r.shape === b).flatMap((r) => r.agents.map((g) => mbps(size, g[clock])))
      if (x.length > 0 && y.length > 0) per.push(median(x) / median(y))
    }
    return per.length === 0 ? undefined : { median: median(per), all: per }
  }
  const out = {}
  for (const [a, b] of [['fleet', 'lone'], ['solo', 'lone'], ['pair', 'lone'], ['fleet', 'pair']]) {
    const settled = ratio(a, b, 'ns')
    const read = ratio(a, b, 'readNs')
    if (settled === undefined) continue
    out[`${a}/${b}`] = settled.median
    out[`${a}/${b} read`] = read.median
    const cpu = median(agentValues(b, (g) => g.cpu)) / median(agentValues(a, (g) => g.cpu))
    out[`${a}/${b} per CPU s`] = cpu
    console.log(`${a}/${b}: ${settled.median.toFixed(3)} to the outbox empty (rounds: ${settled.all.map((v) => v.toFixed(3)).join(', ')}); ${read.median.toFixed(3)} to the last line read (rounds: ${read.all.map((v) => v.toFixed(3)).join(', ')}); ${cpu.toFixed(3)} per CPU second of an agent`)
  }
  const fleetRuns = of('fleet')
  if (fleetRuns.length > 0) {
    const byName = new Map()
    for (const r of fleetRuns) for (const [name, n] of r.redisCalls) byName.set(name, [...(byName.get(name) ?? []), n])
    console.log(`fleet's Redis commands per run (median, by command): ${[...byName].map(([name, ns]) => [name, median(ns)]).sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', ')}`)
  }
  console.log('machine busy: the CPU seconds of every process of the run (the agents, the sandbox, Redis) over the run\'s time and the cores; near 100%, the shape is bound by the machine, not by the agents')
  console.log('MB/s: the file\'s size over each agent\'s time from the rename to its outbox empty (every page sent, or dropped as sent by the other agent), or to its last line read; medians over the agents of all rounds; ratios: the median of each round\'s own ratio')
  console.log(`Redis commands: INFO commandstats, every command Redis executed, those inside a Lua script or a MULTI counted one by one (a claim is one EVALSHA round trip, about 6 commands); background ones (heartbeats, the incident listing every 2 s) included`)
  return { medians, ratios: out }
}

// ---- 2. latency ----

async function latencyRun(shape, runId) {
  const commands = await redisWindow()
  const files = []
  const agents = await startAgents(shape, 'latency', (dir, cluster) => {
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    files.push(file)
    return agentConfig(dir, { paths: file, api: sandbox.api, startAt: 'end', rule: "message: 'LAT-|WARMUP-', group_by: [msg]", cluster })
  })
  const sms = smsCounter(new RegExp(`((?:WARMUP|LAT)-${runId}-[a-z0-9-]+)`))
  const fds = files.map((file) => openSync(file, 'a'))
  try {
    // Each agent warms up on an incident of its own (in a fleet, a shared one would page from one agent only).
    const deadline = Date.now() + 20_000
    const warm = (i) => [...sms.counts.keys()].some((k) => k.startsWith(`WARMUP-${runId}-${i}-`))
    for (let w = 0; agents.some((_, i) => !warm(i)); w++) {
      if (Date.now() > deadline) throw new Error(`${shape}: no warm-up SMS in 20 s`)
      for (const [i, fd] of fds.entries()) writeSync(fd, errorLine('json', `WARMUP-${runId}-${i}-${w}`))
      await sleep(200)
    }
    await sleep(300)
    const pool = infoLines('json', 997)
    const period = (1000 * (noise + 1)) / rate
    const warmWrites = Math.round((warmupSeconds * 1000) / period)
    const total = warmWrites + Math.round((seconds * 1000) / period)
    const written = new Array(total)
    let next = 0
    let cpuBefore
    let measuredFrom = 0
    const t0 = performance.now() + 20
    for (let k = 0; k < total; k++) {
      const wait = t0 + k * period - performance.now()
      if (wait > 0) await sleep(wait)
      if (k === warmWrites) {
        measuredFrom = performance.now()
        cpuBefore = agents.map((a) => cpuSecondsOf(a.agent.child.pid))
      }
      let chunk = ''
      for (let j = 0; j < noise; j++) {
        chunk += pool[next]
        next = (next + 1) % pool.length
      }
      chunk += errorLine('json', `LAT-${runId}-${pad6(k)}`)
      written[k] = performance.now()
      for (const fd of fds) writeSync(fd, chunk)
    }
    const measuredS = (performance.now() - measuredFrom) / 1000
    const cpu = agents.map((a, i) => cpuSecondsOf(a.agent.child.pid) - cpuBefore[i])
    const id = (k) => `LAT-${runId}-${pad6(k)}`
    await waitFor(() => written.every((_, k) => k < warmWrites || sms.first.has(id(k))), 5000, 10).catch(() => {})
    await sleep(200)
    const ms = []
    let lost = 0
    for (let k = warmWrites; k < total; k++) {
      const at = sms.first.get(id(k))
      if (at === undefined) lost++
      else ms.push(at - written[k])
    }
    // A pair pages every incident twice by design: a duplicate there is a third page.
    let duplicates = 0
    for (const [key, n] of sms.counts) if (key.startsWith('LAT-')) duplicates += n - (shape === 'pair' ? 2 : 1)
    const lines = (total - warmWrites) * (noise + 1)
    return { shape, ms, lost, duplicates, cpu, lines, incidents: total - warmWrites, linesPerS: lines / measuredS, redisCalls: await commands() }
  } finally {
    sms.off()
    for (const fd of fds) closeSync(fd)
    await stopAgents(agents)
  }
}

async function latency() {
  const latencyShapes = shapes
  console.log(`\n2. alert latency: ${rate} lines/s (${noise} info + 1 error line a write, every error a new incident) for ${seconds} s after ${warmupSeconds} s of warm-up, ${rounds} rounds of ${latencyShapes.join(', ')}, alternating; clock: write -> the SMS on the sandbox's live feed`)
  const samples = Object.fromEntries(latencyShapes.map((s) => [s, []]))
  const extra = Object.fromEntries(latencyShapes.map((s) => [s, { lost: 0, duplicates: 0, cpu: [], calls: [], lines: 0, incidents: 0, p99s: [] }]))
  for (let round = 0; round < rounds; round++) {
    for (const shape of round % 2 === 0 ? latencyShapes : [...latencyShapes].reverse()) {
      const runId = Math.random().toString(36).slice(2, 8)
      const run = await latencyRun(shape, runId)
      samples[shape].push(...run.ms)
      const e = extra[shape]
      e.lost += run.lost
      e.duplicates += run.duplicates
      e.cpu.push(run.cpu.reduce((a, b) => a + b, 0))
      e.calls.push(totalCalls(run.redisCalls))
      e.lines += run.lines
      e.incidents += run.incidents
      const s = [...run.ms].sort((a, b) => a - b)
      e.p99s.push(rank(s, 99))
      console.log(`  round ${round + 1} ${shape}: p50 ${rank(s, 50).toFixed(2)} ms, p99 ${rank(s, 99).toFixed(2)} ms, max ${s[s.length - 1].toFixed(2)} ms over ${s.length} samples, lost ${run.lost}, duplicates ${run.duplicates}, ${Math.round(run.linesPerS)} lines/s written; CPU s ${run.cpu.map((c) => c.toFixed(2)).join(' + ')}; Redis ${describeCalls(run.redisCalls)}`)
    }
  }
  console.log(`\n| shape | samples | p50 ms | p90 ms | p99 ms | p99 ms, median of rounds | max ms | lost | duplicates | agents' CPU s per run | Redis commands per run | per incident | per 1,000 lines |`)
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  const out = {}
  for (const shape of latencyShapes) {
    const s = [...samples[shape]].sort((a, b) => a - b)
    const e = extra[shape]
    const agentsOf = SHAPES[shape].agents
    out[shape] = { p50: rank(s, 50), p99: rank(s, 99), p99Rounds: median(e.p99s) }
    const calls = e.calls.reduce((a, b) => a + b, 0)
    console.log(`| ${shape} | ${s.length} | ${rank(s, 50).toFixed(2)} | ${rank(s, 90).toFixed(2)} | ${rank(s, 99).toFixed(2)} | ${median(e.p99s).toFixed(2)} | ${s[s.length - 1].toFixed(2)} | ${e.lost} | ${e.duplicates} | ${median(e.cpu).toFixed(2)} | ${median(e.calls)} | ${(calls / e.incidents).toFixed(1)} | ${((calls / (e.lines * agentsOf)) * 1000).toFixed(2)} |`)
  }
  for (const [a, b] of [['fleet', 'lone'], ['solo', 'lone'], ['pair', 'lone'], ['fleet', 'pair']]) {
    if (out[a] !== undefined && out[b] !== undefined) console.log(`${a} - ${b}: p50 ${(out[a].p50 - out[b].p50).toFixed(2)} ms, p99 ${(out[a].p99 - out[b].p99).toFixed(2)} ms (all samples), ${(out[a].p99Rounds - out[b].p99Rounds).toFixed(2)} ms (median of the rounds' p99)`)
  }
  return out
}

async function main() {
  if (REDIS_SERVER === undefined) {
    console.log('!!! bench/fleet.js SKIPPED: redis-server is not installed (apt-get install redis-server) !!!')
    return
  }
  console.log(`node ${process.version}, ${cpus().length} CPUs, ${cpus()[0]?.model ?? ''}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  if (cpuProf !== undefined) mkdirSync(cpuProf, { recursive: true })
  const scaling = await machineScaling()
  console.log(`this machine: two CPU-bound processes at once (CPUs 0 and 1) each run at ${scaling.toFixed(2)}x the speed of one alone`)
  redis = await startRedis()
  const summary = []
  try {
    sandbox = await startSandboxProcess()
    console.log(`redis-server ${redis.url} (pid ${redis.pid}); sandbox in its own process at ${sandbox.api.baseUrl}`)
    if (only !== 'latency') {
      for (const spacing of incidentSpacings) {
        const t = await throughput(spacing)
        const file = `fleet agent throughput (2 agents, 1 Redis), an incident per ${spacing.toLocaleString('en-US')} lines`
        if (t.ratios['fleet/lone'] !== undefined) summary.push({ case: file, logx: t.medians.fleet, peer: 'lone agent', peerValue: t.medians.lone, unit: 'MB/s', better: 'higher', ratio: t.ratios['fleet/lone'] })
        if (t.ratios['fleet/pair'] !== undefined) summary.push({ case: file, logx: t.medians.fleet, peer: '2 agents without Redis', peerValue: t.medians.pair, unit: 'MB/s', better: 'higher', ratio: t.ratios['fleet/pair'] })
      }
    }
    if (only !== 'throughput') {
      const l = await latency()
      for (const peer of ['lone', 'pair']) {
        if (l.fleet === undefined || l[peer] === undefined) continue
        for (const p of ['p50', 'p99Rounds']) summary.push({ case: `fleet alert latency ${p === 'p50' ? 'p50' : 'p99 (median of rounds)'}`, logx: l.fleet[p], peer: peer === 'lone' ? 'lone agent' : '2 agents without Redis', peerValue: l[peer][p], unit: 'ms', better: 'lower' })
      }
    }
  } finally {
    await sandbox?.close()
    await redis.stop()
  }
  if (cpuProf !== undefined) console.log(`CPU profiles: ${cpuProf}`)
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  require('./summary').reportSummary('fleet', summary)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
