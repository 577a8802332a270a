'use strict'
// The Alertmanager case of the intake benchmark (issue #31): an Alertmanager webhook posted to a real
// agent's `alertmanager` source -> the SMS stored by the sandbox, p99 against the 20 ms goal. The
// agent runs as under pm2 (bin/logx-agent.js, its node flags), talking to a sandbox in this process as
// to a real API; the clock runs from just before the POST to the sandbox store's `added` event for the
// SMS naming that alert (no polling: the agent's share, fsync of the outbox before the 2xx included).
// Each sample is a new alert (its own alertname and fingerprint: a new incident, group_wait 0), one at
// a time, after --warmup ones not counted. There is no peer: Alertmanager's own webhook is the input.
//
// Usage: npm run build && node bench/intake-alertmanager.js [--samples 500] [--warmup 50]
//   [--format text|json]; bench/intake.js runs it as its Alertmanager case (runAlertmanagerCase).
const http = require('node:http')
const { join } = require('node:path')
const { root, waitFor } = require('./agent-process')
const common = require('./intake-common')
const { oneSourceConfig, post, startIntakeAgent } = common

const GOAL_P99_MS = 20
const API_KEY = 'bench'

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]

function webhook(name) {
  const alert = {
    status: 'firing',
    labels: { alertname: name, severity: 'critical', instance: 'db1:9100', job: 'node' },
    annotations: { summary: 'disk 95% full', description: 'The root filesystem of db1 is 95% full.' },
    startsAt: new Date().toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus.example:9090/graph?g0.expr=node_filesystem_avail_bytes',
    fingerprint: name.slice(-16).padStart(16, '0'),
  }
  return JSON.stringify({
    version: '4',
    groupKey: `{}:{alertname="${name}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'logx',
    groupLabels: { alertname: name },
    commonLabels: alert.labels,
    commonAnnotations: alert.annotations,
    externalURL: 'http://alertmanager.example:9093',
    alerts: [alert],
  })
}

/** Runs the case; returns { p50, p99, max, samples, lost } in ms. */
async function runAlertmanagerCase({ samples = 500, warmup = 50 } = {}) {
  const { startSandbox } = require(join(root, 'dist', 'agent', 'sandbox'))
  const sandbox = await startSandbox({ port: 0, apiKey: API_KEY })
  // The bench posts faster than the per-client default rate limit (200 a second): not what it measures.
  const agent = await startIntakeAgent(
    'am',
    (port, state) => oneSourceConfig(
      state,
      `{ name: prometheus, type: alertmanager, listen: "127.0.0.1:${port}", ` +
        'rate_limit: { requests: 100000, per: 1s } }',
      '{ name: alerts, source: prometheus, title: "{{labels.alertname}} {{annotations.summary}}", notify: [sms] }',
      `messaging:\n  base_url: ${sandbox.info.baseUrl}\n  api_key: ${API_KEY}\n`,
    ),
    { profile: false },
  )
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const arrived = new Map()
  const off = sandbox.store.subscribe((event) => {
    if (event.type !== 'added' || event.entry.kind !== 'sms') return
    const name = /AM-\d{6}-[0-9a-f]{8}/.exec(String(event.entry.record.sms))?.[0]
    if (name !== undefined && !arrived.has(name)) arrived.set(name, performance.now())
  })
  const run = Math.random().toString(16).slice(2, 10)
  const ms = []
  const acks = []
  let lost = 0
  try {
    await agent.banner
    for (let i = 0; i < warmup + samples; i++) {
      const name = `AM-${String(i).padStart(6, '0')}-${run}`
      const sent = performance.now()
      const status = await post(keepAlive, agent.port, '/', 'application/json', webhook(name))
      const answered = performance.now()
      if (status !== 200) throw new Error(`the agent answered ${status} to a webhook`)
      try {
        await waitFor(() => arrived.has(name), 10_000, 0)
      } catch {
        lost++
        continue
      }
      if (i >= warmup) {
        ms.push(arrived.get(name) - sent)
        acks.push(answered - sent)
      }
    }
  } finally {
    off()
    keepAlive.destroy()
    await agent.stop()
    await sandbox.close()
  }
  return {
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: Math.max(...ms),
    samples: ms.length,
    lost,
    // The webhook's own answer (a 2xx once the outbox is fsynced): the share before the SMS is sent.
    answerP50: percentile(acks, 50),
    answerP99: percentile(acks, 99),
  }
}

async function main() {
  const option = common.commandOptions()
  const samples = Number(option('samples', '500'))
  const warmup = Number(option('warmup', '50'))
  common.requireWholeNumbers([samples], 'intake-alertmanager: --samples and --warmup take whole numbers')
  common.requireWholeNumbers([warmup], 'intake-alertmanager: --samples and --warmup take whole numbers', 0)
  const r = await runAlertmanagerCase({ samples, warmup })
  if (option('format', 'text') === 'json') {
    console.log(JSON.stringify(r))
  } else {
    console.log(`Alertmanager webhook -> SMS stored by the sandbox (${r.samples} new alerts, one at a time): ` +
      `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms, lost ${r.lost} ` +
      `(the 2xx, once journaled: p50 ${r.answerP50.toFixed(2)} ms, p99 ${r.answerP99.toFixed(2)} ms); ` +
      `goal p99 <= ${GOAL_P99_MS} ms: ${r.p99 <= GOAL_P99_MS ? 'met' : 'NOT met'}`)
  }
  if (r.lost > 0) process.exit(1)
}

common.runWhenMain(module, main)

module.exports = { runAlertmanagerCase, GOAL_P99_MS }
