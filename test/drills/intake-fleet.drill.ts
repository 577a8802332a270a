// Fleet drill for the Alertmanager intake (issue #31 item 7): two agents of one fleet (a real
// redis-server), each with an `alertmanager` source, and a real Alertmanager whose receiver sends every
// webhook to both (as an Alertmanager HA pair does, each member to each agent). 40 alerts fire, then
// all resolve at Alertmanager. Checked from the sandbox's side (its own process): each incident paged
// once and "RESOLVED" once, though both agents got every firing and every resolved webhook.
import { expect, test } from 'vitest'
import {
  createWorkspace,
  messagingYaml,
  metric,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from '../agent/daemon/helpers'
import { alertmanagerPath, freePort, startAlertmanager } from '../agent/intake/alertmanager-process'
import { pollUntil } from '../helpers/poll-until'
import { redisServerPath, startRedisServer, type RedisServer } from '../helpers/redis-server'
import { tempDir } from '../helpers/temp-dir'
import { smsRecords, tallyPages } from './lib/fleet'
import { peakRssOf, recordDrill } from './lib/report'

const ALERTS = 40
const CLAIMS = 'logx_agent_cluster_claims_total'
const HELD = 'logx_agent_cluster_claims_total{outcome="held"}'
const DEGRADED_SENDS = 'logx_agent_cluster_degraded_sends_total'

const names = Array.from({ length: ALERTS }, (_, i) => `am-${String(i).padStart(3, '0')}`)
const nameOf = (sms: string): string | undefined => /am-\d{3}/.exec(sms)?.[0]

function config(ws: Workspace, sandbox: SandboxProcess, redis: RedisServer, id: string, port: number): string {
  return `${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: prometheus
    type: alertmanager
    listen: 127.0.0.1:${port}
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: alerts
    source: prometheus
    title: "{{labels.alertname}} on {{labels.instance}}"
    notify: oncall-sms
metrics: { listen: 127.0.0.1:0 }
cluster:
  agent_id: ${id}
  redis:
    url: ${redis.url}
  lease: 2s
  heartbeat: 200ms
  flush: 50ms
  command_timeout: 3s
`
}

/** Every agent decided every notice it claimed: won, lost to the other, or sent without Redis. */
async function decided(agents: readonly RunningAgent[]): Promise<number> {
  let sum = 0
  for (const agent of agents) {
    const url = agent.metricsUrl
    sum += (await metric(url, CLAIMS)) - (await metric(url, HELD)) + (await metric(url, DEGRADED_SENDS))
  }
  return sum
}

const skip = redisServerPath === undefined || alertmanagerPath === undefined
if (skip)
  console.warn(
    '\n!!! SKIPPED the intake fleet drill: it needs redis-server and prometheus-alertmanager ' +
      '(apt-get install redis-server prometheus-alertmanager); CI runs it !!!\n',
  )

;(skip ? test.skip : test)(
  'intake fleet: alerts sent to both agents of a fleet page once per incident, and resolve once',
  async ({ task }) => {
    const started = Date.now()
    const redis = await startRedisServer()
    const sandbox = await startSandboxProcess()
    const agents: RunningAgent[] = []
    const workspaces: Workspace[] = []
    const dir = tempDir('intake-fleet')
    let alertmanager: Awaited<ReturnType<typeof startAlertmanager>> | undefined
    try {
      const urls: string[] = []
      // One at a time: on two cores, parallel starts only race each other.
      for (const id of ['am-1', 'am-2']) {
        const ws = createWorkspace()
        workspaces.push(ws)
        const port = await freePort()
        ws.writeConfig(config(ws, sandbox, redis, id, port))
        agents.push(await startAgentProcess(ws.config))
        urls.push(`http://127.0.0.1:${port}/`)
      }
      alertmanager = await startAlertmanager({ dir, webhooks: urls })
      const base = sandbox.api.baseUrl
      const alerts = names.map((alertname, i) => ({
        labels: { alertname, severity: 'critical', instance: `db${i}:9100` },
        annotations: { summary: `disk full on db${i}` },
      }))

      await alertmanager.postAlerts(alerts)
      await pollUntil('every firing page claimed by both agents', async () => (await decided(agents)) >= 2 * ALERTS, {
        timeoutMs: 120_000,
      })
      const endsAt = new Date(Date.now() - 1000).toISOString()
      await alertmanager.postAlerts(alerts.map((a) => ({ ...a, endsAt })))
      await pollUntil('every resolve claimed by both agents', async () => (await decided(agents)) >= 4 * ALERTS, {
        timeoutMs: 120_000,
      })

      const all = await smsRecords(base)
      const firing = tallyPages(
        all.filter((r) => !String(r.record.sms).includes('RESOLVED')),
        names,
        nameOf,
      )
      const resolved = tallyPages(
        all.filter((r) => String(r.record.sms).includes('RESOLVED')),
        names,
        nameOf,
      )
      const peaks = agents.map((a) => (a.child.pid === undefined ? undefined : peakRssOf(a.child.pid)) ?? 0)
      recordDrill(task, {
        drill: 'intake fleet (Alertmanager to 2 agents)',
        events: ALERTS,
        unit: 'alerts sent to both',
        lost: firing.lost + resolved.lost,
        duplicated: firing.duplicated + resolved.duplicated,
        peakRssMb: Math.max(...peaks),
        timeMs: Date.now() - started,
        notes: `pages ${firing.expected - firing.lost}, RESOLVED ${resolved.expected - resolved.lost} for ${ALERTS} incidents`,
      })
      expect(firing.missing).toEqual([])
      expect(firing.duplicated).toBe(0)
      expect(resolved.missing).toEqual([])
      expect(resolved.duplicated).toBe(0)
    } finally {
      await alertmanager?.stop()
      for (const agent of agents) await agent.kill('SIGKILL')
      await sandbox.close()
      await redis.stop()
      for (const ws of workspaces) ws.remove()
    }
  },
  240_000,
)
