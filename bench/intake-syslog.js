'use strict'
// The syslog case of the intake benchmark (issue #31): RFC 5424 lines over one TCP connection into a real
// agent's `syslog` source, counted into the alert path (logx_agent_intake_events_total: journaled), beside
// rsyslog's imtcp -> omfile on the same lines from the same sender. 1% of the lines are errors (severity 3),
// the rest info, so the alert path pages for a few and passes the rest. Each side is timed from the first
// byte sent to its last line taken (the agent's counter, rsyslog's output file at its full size); peak RSS
// from /proc (VmHWM). Goal: >= 200,000 lines/s, ahead of rsyslog.
//
// Usage: npm run build && node bench/intake-syslog.js [--lines 1000000] [--format text|json]
//   bench/intake.js runs it as its syslog case (runSyslogCase).
const net = require('node:net')
const { spawn, spawnSync } = require('node:child_process')
const { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { waitFor } = require('./agent-process')
const common = require('./intake-common')
const { eventsTaken, fmt, freePort, oneSourceConfig, startIntakeAgent } = common

const GOAL_LINES_PER_S = 200_000
const hasRsyslog = spawnSync('rsyslogd', ['-v']).status === 0

/** `count` RFC 5424 lines, one in 100 an error. */
function makeLines(count) {
  const parts = []
  for (let i = 0; i < count; i++) {
    const pri = i % 100 === 0 ? 11 : 14
    const msg = i % 100 === 0 ? `payment ${i} failed: card declined` : `request ${i} served in 12 ms`
    parts.push(`<${pri}>1 2026-12-02T03:09:30.123Z web-3 billing 4242 PAY [req@32473 id="${i}"] ${msg}\n`)
  }
  return Buffer.from(parts.join(''))
}

/** The sender both sides get: one connection, the bytes in 64 KiB writes, waiting for drain. */
async function send(port, bytes) {
  const socket = net.connect(port, '127.0.0.1')
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  for (let at = 0; at < bytes.length; at += 65536) {
    if (!socket.write(bytes.subarray(at, at + 65536))) await new Promise((resolve) => socket.once('drain', resolve))
  }
  await new Promise((resolve) => socket.end(resolve))
}

async function runAgentSide(bytes, lines) {
  const agent = await startIntakeAgent('syslog', (port, state) => oneSourceConfig(
    state,
    `{ name: net, type: syslog, listen: "127.0.0.1:${port}", protocol: tcp }`,
    '{ name: errors, source: net, level: error, group_by: [app_name], notify: [sms] }',
  ))
  try {
    const metricsUrl = await agent.banner
    const started = performance.now()
    await send(agent.port, bytes)
    await eventsTaken(metricsUrl, 'net', lines)
    const seconds = (performance.now() - started) / 1000
    return { linesPerS: lines / seconds, seconds, peakRssMb: agent.hwmMb() }
  } finally {
    await agent.stop()
  }
}

async function runRsyslogSide(bytes) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-rsyslog-'))
  const port = await freePort()
  const out = join(dir, 'out.log')
  writeFileSync(join(dir, 'rsyslog.conf'), [
    `global(workDirectory="${dir}" maxMessageSize="64k")`,
    'module(load="imtcp")',
    'template(name="raw" type="string" string="%rawmsg%\\n")',
    `input(type="imtcp" address="127.0.0.1" port="${port}" ruleset="bench")`,
    `ruleset(name="bench") { action(type="omfile" file="${out}" template="raw") }`,
    '',
  ].join('\n'))
  const child = spawn('rsyslogd', ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslog.pid')], {
    stdio: 'ignore',
  })
  const size = () => {
    try {
      return statSync(out).size
    } catch {
      return 0
    }
  }
  try {
    const listening = () => spawnSync('ss', ['-ltn', `sport = :${port}`]).stdout.toString().includes(`:${port}`)
    await waitFor(listening, 10_000, 10)
    const started = performance.now()
    await send(port, bytes)
    await waitFor(() => size() >= bytes.length, 120_000, 10)
    const seconds = (performance.now() - started) / 1000
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
    return { seconds, peakRssMb: hwm }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs the case; returns lines/s and peak RSS of the agent and of rsyslog (undefined without rsyslogd). */
async function runSyslogCase({ lines = 1_000_000 } = {}) {
  const bytes = makeLines(lines)
  const agent = await runAgentSide(bytes, lines)
  const peer = hasRsyslog ? await runRsyslogSide(bytes) : undefined
  return {
    lines,
    agent,
    rsyslog: peer === undefined ? undefined : { linesPerS: lines / peer.seconds, ...peer },
  }
}

async function main() {
  const option = common.commandOptions()
  const lines = Number(option('lines', '1000000'))
  common.requireWholeNumbers([lines], 'intake-syslog: --lines takes a whole number')
  if (!hasRsyslog) console.error('intake-syslog: rsyslogd not found (apt rsyslog): no peer this run')
  const r = await runSyslogCase({ lines })
  if (option('format', 'text') === 'json') return console.log(JSON.stringify(r))
  const peer = r.rsyslog === undefined ? 'no peer' : `rsyslog imtcp -> omfile ${fmt(r.rsyslog.linesPerS)} lines/s ` +
    `(peak RSS ${r.rsyslog.peakRssMb.toFixed(0)} MB)`
  const ahead = r.rsyslog === undefined || r.agent.linesPerS > r.rsyslog.linesPerS
  const met = r.agent.linesPerS >= GOAL_LINES_PER_S && ahead
  console.log(`syslog over TCP, ${fmt(r.lines)} RFC 5424 lines (1% errors) into the alert path: ` +
    `logx ${fmt(r.agent.linesPerS)} lines/s (peak RSS ${r.agent.peakRssMb.toFixed(0)} MB); ${peer}; ` +
    `goal >= ${fmt(GOAL_LINES_PER_S)} lines/s and ahead of rsyslog: ${met ? 'met' : 'NOT met'}`)
}

common.runWhenMain(module, main)

module.exports = { runSyslogCase, GOAL_LINES_PER_S }
