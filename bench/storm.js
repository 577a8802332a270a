'use strict'
// A storm of distinct incidents through the real agent (bin/logx-agent.js on dist/, with the node
// flags of `npm start`): N plain-text error lines, each with its own message, `group_by: [msg]` and
// `group_wait: 0s`, so every line is its own incident and pages one SMS. The agent tails an empty
// file; the whole storm is appended in one write, and the clock runs from that write to the newest
// SMS in the sandbox's listing (its `created_at`) once all N are there. Two places for the sandbox:
// embedded (the agent's own event loop, what `npm start` runs) and in a process of its own (as a
// real API would be). Each beside its peer from the same run: the channel's `concurrency: 1` (one
// SMS in flight at a time, the outbox as it was) and the default (or --concurrency).
//
// Printed per row: notifications/s, ECONNRESET seen by the agent (its log lines), retries (its
// metrics), SMS stored, duplicates (SMS beyond one per incident), lost, and the ratio to the
// concurrency-1 row of the same place.
//
// Usage: npm run build && node bench/storm.js [--incidents 10000] [--concurrency 1,default]
//   [--messaging embedded,separate] [--rounds 1] [--cpu-prof DIR] [--watch-ms 10]
//   --concurrency: comma list; `default` leaves the key out of the config (the agent's default)
//   --cpu-prof DIR: the agent runs with --cpu-prof, profiles written to DIR (one per run)
//   --watch-ms MS: meanwhile the SMS listing is polled (100 a page) every MS ms, as agentbench waits
//     for its sentinel (default 10; 0: no polling)
const { spawn } = require('node:child_process')
const { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs')
const { tmpdir, cpus, loadavg } = require('node:os')
const { join } = require('node:path')
const { metric } = require('./agent-probes')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const incidents = Number(option('incidents', '10000'))
const concurrencies = option('concurrency', '1,default').split(',')
const places = option('messaging', 'embedded,separate').split(',')
const rounds = Number(option('rounds', '1'))
const cpuProf = option('cpu-prof', undefined)
// agentbench's done-URL poll (a page of 100 SMS every 10 ms) beside the storm: 0 turns it off.
const watchMs = Number(option('watch-ms', '10'))
const root = join(__dirname, '..')
const bin = join(root, 'bin', 'logx-agent.js')
// The flags of `npm start` (package.json) and of the pm2 app (ecosystem.config.js).
const NODE_FLAGS = ['--max-semi-space-size=1', '--single-threaded', '--optimize-for-size']
const API_KEY = 'bench-key'
// The sandbox in a process of its own, as `logx-agent sandbox` runs it (startSandbox of dist/), stopped by SIGINT.
const SANDBOX_PROCESS = `
const { startSandbox } = require(${JSON.stringify(join(root, 'dist', 'agent', 'sandbox', 'index.js'))})
startSandbox({ port: 0, apiKey: ${JSON.stringify(API_KEY)} }).then((s) => {
  console.log('base URL: ' + s.info.baseUrl)
  process.once('SIGINT', () => s.close().then(() => process.exit(0)))
})`
// The sandbox keeps 10,000 records per kind by default: more incidents than that cannot be counted.
if (!(incidents >= 1 && incidents <= 10_000)) throw new Error('--incidents must be 1..10000 (the sandbox keeps 10,000 SMS)')
for (const p of places) if (p !== 'embedded' && p !== 'separate') throw new Error(`--messaging: embedded or separate, got ${p}`)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

/** A child process with its output kept, resolved once `ready` matches its stdout. */
function start(command, argv, ready, env = {}) {
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (err += c))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const match = until(`${ready} in the output`, () => {
    if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited (${child.exitCode}):\n${out}\n${err}`)
    return ready.exec(out) ?? undefined
  }, 20_000)
  return { child, match, exited, output: () => out + err }
}

async function stop(proc) {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGINT')
  await proc.exited
}

function line(i) {
  // log4j style, like agentbench's text file; the id makes every message (and so every incident) distinct.
  return `2026-11-25 10:00:00,${String(i % 1000).padStart(3, '0')} ERROR [storm-${i % 7}] com.example.Storm: payment capture failed for order ${String(i).padStart(6, '0')}\n`
}

function config(dir, log, api, concurrency) {
  const messaging = api === undefined
    ? `messaging:\n  api_key: ${API_KEY}\n  sandbox:\n    listen: 127.0.0.1:0\n`
    : `messaging:\n  base_url: ${api}\n  api_key: ${API_KEY}\n`
  const channel = concurrency === 'default' ? '{ type: sms, numbers: [919800000001] }' : `{ type: sms, numbers: [919800000001], concurrency: ${concurrency} }`
  const file = join(dir, 'agent.yaml')
  writeFileSync(file, `${messaging}state_dir: ${join(dir, 'state')}
sources:
  - { name: app, paths: ["${log}"], format: text, start_at: beginning }
channels:
  sms: ${channel}
rules:
  - { name: errors, source: app, level: error, group_by: [msg], group_wait: 0s, notify: [sms] }
metrics: { listen: 127.0.0.1:0 }
`)
  return file
}

async function smsListing(baseUrl, page, perPage) {
  const response = await fetch(`${baseUrl}/api/v1/?apirequest=sms_record&per_page=${perPage}&page=${page}`, { headers: { apikey: API_KEY } })
  if (!response.ok) throw new Error(`sms_record: HTTP ${response.status}`)
  return response.json()
}

/** Polls the listing as agentbench's harness does while it waits for its sentinel: the storm competes with it. */
function watch(baseUrl) {
  let stopped = watchMs <= 0
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now()
      await smsListing(baseUrl, 1, 100).catch(() => {})
      await sleep(Math.max(1, watchMs - (Date.now() - started)))
    }
  })()
  return { stop: () => ((stopped = true), loop) }
}

async function allSms(baseUrl) {
  const records = []
  for (let page = 1; ; page++) {
    const body = await smsListing(baseUrl, page, 100)
    records.push(...body.data)
    if (page * 100 >= body.total) return records
  }
}

async function runOnce(place, concurrency, round) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-storm-'))
  const log = join(dir, 'app.log')
  writeFileSync(log, '')
  let sandbox
  let agent
  try {
    let api
    if (place === 'separate') {
      sandbox = start(process.execPath, ['-e', SANDBOX_PROCESS], /base URL: (\S+)/)
      api = (await sandbox.match)[1]
    }
    const flags = cpuProf === undefined ? NODE_FLAGS : [...NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${cpuProf}`, `--cpu-prof-name=storm-${place}-c${concurrency}-${round}.cpuprofile`]
    agent = start(process.execPath, [...flags, bin, 'run', '--config', config(dir, log, api, concurrency)], /metrics: (\S+)\/metrics/)
    const metricsUrl = (await agent.match)[1]
    const baseUrl = api ?? /messaging: (?:the embedded sandbox \(no real API configured\) at )?(\S+)/.exec(agent.output())?.[1]
    await until('the agent serving', () => (/Stop with Ctrl-C|Open the inbox/.test(agent.output()) ? true : undefined), 20_000)

    let text = ''
    for (let i = 0; i < incidents; i++) text += line(i)
    const t0 = Date.now()
    appendFileSync(log, text)
    const watcher = watch(baseUrl)
    await until(`${incidents} SMS in the sandbox`, async () => ((await smsListing(baseUrl, 1, 1)).total >= incidents ? true : undefined), 600_000)
    const polledAt = Date.now()
    await watcher.stop()
    const sms = await allSms(baseUrl)
    const newest = Math.max(...sms.map((r) => Date.parse(r.created_at)))
    const seconds = (newest - t0) / 1000
    const texts = new Set(sms.map((r) => r.sms))
    const retried = await metric(metricsUrl, 'logx_agent_notifications_retried_total')
    await stop(agent)
    const resets = (agent.output().match(/ECONNRESET/g) ?? []).length
    return { place, concurrency, round, seconds, perSecond: incidents / seconds, polledSeconds: (polledAt - t0) / 1000, stored: sms.length, duplicates: sms.length - texts.size, lost: incidents - texts.size, resets, retried }
  } finally {
    if (agent !== undefined) await stop(agent)
    if (sandbox !== undefined) await stop(sandbox)
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function main() {
  if (cpuProf !== undefined) mkdirSync(cpuProf, { recursive: true })
  console.log(`storm: ${incidents} distinct incidents (plain text, group_by [msg], group_wait 0s), ${rounds} round(s); ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}`)
  const rows = []
  for (const place of places) {
    for (const concurrency of concurrencies) {
      const runs = []
      for (let round = 1; round <= rounds; round++) runs.push(await runOnce(place, concurrency, round))
      const pick = runs.find((r) => r.perSecond === median(runs.map((x) => x.perSecond)))
      rows.push({ ...pick, resets: runs.reduce((s, r) => s + r.resets, 0), duplicates: runs.reduce((s, r) => s + r.duplicates, 0), lost: runs.reduce((s, r) => s + r.lost, 0) })
    }
  }
  console.log('| sandbox | concurrency | notifications/s | seconds | vs concurrency 1 | ECONNRESET | retried | stored | duplicates | lost |')
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    const peer = rows.find((p) => p.place === r.place && p.concurrency === '1')
    const ratio = peer === undefined ? '-' : `${(r.perSecond / peer.perSecond).toFixed(2)}x`
    console.log(`| ${r.place} | ${r.concurrency} | ${Math.round(r.perSecond)} | ${r.seconds.toFixed(2)} | ${ratio} | ${r.resets} | ${r.retried} | ${r.stored} | ${r.duplicates} | ${r.lost} |`)
  }
  const bad = rows.filter((r) => r.lost > 0 || r.duplicates > 0)
  if (bad.length > 0) {
    console.error(`storm: lost or duplicated notifications in ${bad.length} row(s)`)
    process.exitCode = 1
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
