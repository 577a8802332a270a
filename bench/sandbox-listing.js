'use strict'
// What one `*_record` listing request costs the sandbox, beside the cheapest routes it serves, for
// issue 18 goal 3: agentbench polls the embedded sandbox's `sms_record` listing every 10 ms, on the
// agent's own event loop. The sandbox runs in a child process (from dist/) holding --records SMS
// records of about 330 bytes each (an alert's SMS as the agent sends it), with the node flags of
// `npm start`; this process sends
// --requests sequential requests per route over one keep-alive connection (node:http, body read in
// full) and reports requests/s and per-request latency (p50/p99, client-observed), and the child's
// CPU time per request (process.cpuUsage over the measured requests; user time apart, the rest is
// the kernel's loopback send): that CPU is what a poll takes from the agent's event loop when the
// sandbox is embedded in it.
//
// Routes, in one run, each after --warmup requests not counted, taking turns (--rounds, medians):
//   list-hit     sms_record&per_page=100&limit=100, the harness's poll, store unchanged
//   list-miss    the same poll, each after a `send_sms` (not timed; its CPU counted): every poll
//                finds a new record, as the first poll after each alert does
//   list-deep    sms_record&per_page=100&page=10: records 901-1000 newest first
//   peer-info    GET /_sandbox/info: a small JSON answer, the cheapest route
//   peer-send    the same, each after a `send_sms`: list-miss's peer (its CPU minus this one's is
//                what the poll itself costs)
//   peer-inbox   GET /: the inbox page (13 KB of static HTML)
//
// Usage: npm run build && node bench/sandbox-listing.js [--records 1000,10000] [--requests 5000]
//   [--warmup 500] [--rounds 3] [--format text|json] [--dist DIR]   (DIR: the build to load, default
//   ./dist; to compare with an older build, copy its dist/ and run with NODE_PATH=./node_modules)
//   [--profile [DIR]]   the sandbox child runs with --cpu-prof, profiles written to DIR (printed)
// req/s counts the timed requests only, over the whole time (list-miss and peer-send: sends included).
// Exit 2 on bad arguments.
const { fork } = require('node:child_process')
const http = require('node:http')
const { mkdtempSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join, resolve } = require('node:path')

const CHILD_FLAG = '--sandbox-listing-child'
// The child runs with the node flags of `npm start` (package.json), as the embedded sandbox does.
const NODE_FLAGS = ['--max-semi-space-size=1', '--single-threaded', '--optimize-for-size']

function option(args, name, fallback) {
  const index = args.indexOf(`--${name}`)
  if (index === -1) return fallback
  const value = args[index + 1]
  return value === undefined || value.startsWith('--') ? true : value
}

// ---- child: the sandbox under test ----

function smsRecord(i) {
  return {
    route: 'TR',
    senderi_d: 'LOGXAL',
    message_format: '1',
    message_type: 'TXT',
    numbers: [919800000001, 919800000002],
    sms: `FIRING payments-api: upstream timeout talking to ledger-db after 3 retries (incident ${i}, 1x, rule-0) ` +
      `host=web-${i % 7} file=/var/log/app/payments.log first=2026-01-05T10:00:00Z`,
    template_id: '1007160000000000000',
    smstype: 'TXN',
    schedule_time: '',
  }
}

async function child(dist, records) {
  const { startSandbox } = require(join(dist, 'agent', 'sandbox'))
  // Retention at the store size: the sends of list-miss replace the oldest records, the size stays.
  const sandbox = await startSandbox({ port: 0, apiKey: 'bench', retention: records })
  for (let i = 1; i <= records; i++) {
    sandbox.store.add('sms', ({ id, createdAt }) => ({ id, created_at: createdAt, status: 'delivered', ...smsRecord(i) }))
  }
  let cpu = process.cpuUsage()
  process.on('message', (message) => {
    if (message === 'start') {
      cpu = process.cpuUsage()
      process.send?.('started')
    } else if (message === 'stop') {
      const used = process.cpuUsage(cpu)
      process.send?.({ userMicros: used.user, systemMicros: used.system })
    } else if (message === 'exit') {
      sandbox.close().then(() => process.exit(0))
    }
  })
  process.send?.({ baseUrl: sandbox.info.baseUrl })
}

// ---- parent: the client and the report ----

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

function request(agent, url, headers, body) {
  return new Promise((resolveGet, reject) => {
    const method = body === undefined ? 'GET' : 'POST'
    const req = http.request(url, { agent, headers, method }, (res) => {
      let bytes = 0
      res.on('data', (chunk) => (bytes += chunk.length))
      res.on('end', () => (res.statusCode === 200 ? resolveGet(bytes) : reject(new Error(`${url}: HTTP ${res.statusCode}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

function nextMessage(proc) {
  return new Promise((resolveMessage, reject) => {
    const exited = (code) => reject(new Error(`the sandbox child exited (${code}) before answering`))
    proc.once('exit', exited)
    proc.once('message', (message) => {
      proc.off('exit', exited)
      resolveMessage(message)
    })
  })
}

async function measure(proc, agent, { url, headers, before }, count, warmup) {
  for (let i = 0; i < warmup; i++) {
    await before?.()
    await request(agent, url, headers)
  }
  proc.send('start')
  await nextMessage(proc)
  const times = new Float64Array(count)
  let bytes = 0
  const began = performance.now()
  for (let i = 0; i < count; i++) {
    await before?.()
    const sent = performance.now()
    bytes = await request(agent, url, headers)
    times[i] = performance.now() - sent
  }
  const elapsed = performance.now() - began
  proc.send('stop')
  const { userMicros, systemMicros } = await nextMessage(proc)
  const sorted = Array.from(times).sort((a, b) => a - b)
  return {
    reqPerSec: Math.round(count / (elapsed / 1000)),
    p50Ms: Number(percentile(sorted, 50).toFixed(3)),
    p99Ms: Number(percentile(sorted, 99).toFixed(3)),
    serverCpuUsPerReq: Number(((userMicros + systemMicros) / count).toFixed(1)),
    serverUserUsPerReq: Number((userMicros / count).toFixed(1)),
    bytes,
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

async function runSize(dist, records, count, warmup, rounds, profileDir) {
  const execArgv = profileDir === undefined ? NODE_FLAGS : [...NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${profileDir}`]
  const proc = fork(__filename, [CHILD_FLAG, dist, String(records)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const { baseUrl } = await nextMessage(proc)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const api = `${baseUrl}/api/v1/?apirequest=sms_record`
  const key = { apikey: 'bench' }
  const send = JSON.stringify(smsRecord(0))
  const sendSms = () => request(agent, `${baseUrl}/api/v1/?apirequest=send_sms`, { ...key, 'content-type': 'application/json' }, send)
  const poll = { url: `${api}&per_page=100&limit=100`, headers: key }
  const info = { url: `${baseUrl}/_sandbox/info`, headers: {} }
  const routes = {
    'list-hit': poll,
    'list-miss': { ...poll, before: sendSms },
    'list-deep': { url: `${api}&per_page=100&page=10`, headers: key },
    'peer-info': info,
    'peer-send': { ...info, before: sendSms },
    'peer-inbox': { url: `${baseUrl}/`, headers: {} },
  }
  // Routes take turns, --rounds times, and each figure is the median of its rounds: a slow phase
  // of a shared machine then hits every route alike instead of one.
  const runs = Object.fromEntries(Object.keys(routes).map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const [name, route] of Object.entries(routes)) runs[name].push(await measure(proc, agent, route, count, warmup))
  }
  const out = {}
  for (const [name, list] of Object.entries(runs)) {
    out[name] = Object.fromEntries(Object.keys(list[0]).map((k) => [k, median(list.map((r) => r[k]))]))
  }
  agent.destroy()
  proc.send('exit')
  await new Promise((r) => proc.once('exit', r))
  return out
}

async function main(args) {
  const sizes = String(option(args, 'records', '1000,10000')).split(',').map(Number)
  const count = Number(option(args, 'requests', '5000'))
  const warmup = Number(option(args, 'warmup', '500'))
  const rounds = Number(option(args, 'rounds', '3'))
  const profile = option(args, 'profile', undefined)
  const profileDir = profile === undefined ? undefined : profile === true ? mkdtempSync(join(tmpdir(), 'logx-listing-prof-')) : resolve(profile)
  const format = option(args, 'format', 'text')
  const dist = resolve(String(option(args, 'dist', join(__dirname, '..', 'dist'))))
  const bad = (m) => {
    console.error(`sandbox-listing: ${m}`)
    process.exit(2)
  }
  if (!sizes.every((n) => Number.isInteger(n) && n >= 1000)) bad('--records takes whole numbers of at least 1000, comma-separated')
  if (!(Number.isInteger(count) && count > 0 && Number.isInteger(warmup) && warmup >= 0 && Number.isInteger(rounds) && rounds > 0)) {
    bad('--requests, --warmup and --rounds take whole numbers')
  }
  if (format !== 'text' && format !== 'json') bad(`--format: text or json, got ${format}`)

  const results = {}
  for (const size of sizes) results[size] = await runSize(dist, size, count, warmup, rounds, profileDir)
  if (profileDir !== undefined) console.error(`sandbox-listing: CPU profiles in ${profileDir}`)
  if (format === 'json') {
    console.log(JSON.stringify({ dist, requests: count, warmup, rounds, node: process.version, results }, null, 2))
    return
  }
  console.log(
    `sandbox listing, ${count} sequential keep-alive requests per route and round (after ${warmup} warm-up), ` +
      `medians of ${rounds} rounds, node ${process.version}, ${dist}`,
  )
  console.log('records  route        req/s    p50 ms   p99 ms   server CPU us/req (user)   body bytes')
  for (const [size, routes] of Object.entries(results)) {
    for (const [name, r] of Object.entries(routes)) {
      console.log(
        `${String(size).padEnd(8)} ${name.padEnd(12)} ${String(r.reqPerSec).padStart(6)}  ${r.p50Ms.toFixed(3).padStart(7)}  ${r.p99Ms
          .toFixed(3)
          .padStart(7)}   ${r.serverCpuUsPerReq.toFixed(1).padStart(17)} ${`(${r.serverUserUsPerReq.toFixed(1)})`.padStart(8)}   ${String(r.bytes).padStart(10)}`,
      )
    }
  }
}

if (process.argv[2] === CHILD_FLAG) {
  child(String(process.argv[3]), Number(process.argv[4])).catch((err) => {
    console.error(err)
    process.exit(1)
  })
} else {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
