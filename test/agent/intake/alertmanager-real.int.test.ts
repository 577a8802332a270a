// logx as a real Alertmanager's pager, end to end: Debian's prometheus-alertmanager posts its webhook
// to a real agent (an `alertmanager` source); alerts go to Alertmanager's /api/v2/alerts as Prometheus
// sends them. Firing -> an SMS in the sandbox -> a missed call from the person paged -> the incident
// acknowledged -> the alert resolved at Alertmanager (endsAt in the past) -> the incident resolved and
// "RESOLVED" sent to whoever was paged.
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  createWorkspace,
  records,
  recordsWhen,
  smsTexts,
  startAgentProcess,
  startSandboxProcess,
  messagingYaml,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from '../daemon/helpers'
import { pollUntil } from '../../helpers/poll-until'
import { suiteTempDir } from '../../helpers/temp-dir'
import {
  describeWithAlertmanager,
  freePort,
  startAlertmanager,
  type AlertToPost,
  type RunningAlertmanager,
} from './alertmanager-process'

const ASHA = '919800000001'

function config(ws: Workspace, sandbox: SandboxProcess, port: number): string {
  return `${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: prometheus
    type: alertmanager
    listen: 127.0.0.1:${port}
    path: /alertmanager
people:
  asha: { phone: "${ASHA}" }
channels:
  oncall-sms: { type: sms, people: [asha] }
acknowledge:
  missed_call_number: "15550199999"
  poll_interval: 1s
rules:
  - name: alerts
    source: prometheus
    title: "{{labels.alertname}} on {{labels.instance}}: {{annotations.summary}}"
    notify: oncall-sms
    incident: true
metrics: { listen: 127.0.0.1:0 }
`
}

interface Incident {
  id: string
  state: string
  title: string
  ack?: { by: string; via: string }
}

async function incidents(agent: RunningAgent): Promise<Incident[]> {
  return ((await (await agent.console('/api/incidents')).json()) as { incidents: Incident[] }).incidents
}

describeWithAlertmanager('a real Alertmanager pages through logx', () => {
  const dir = suiteTempDir('alertmanager-real')
  let ws: Workspace
  let sandbox: SandboxProcess
  let agent: RunningAgent | undefined
  let alertmanager: RunningAlertmanager | undefined

  beforeAll(async () => {
    ws = createWorkspace()
    sandbox = await startSandboxProcess()
    const port = await freePort()
    ws.writeConfig(config(ws, sandbox, port))
    agent = await startAgentProcess(ws.config)
    alertmanager = await startAlertmanager({ dir, webhooks: [`http://127.0.0.1:${port}/alertmanager`] })
  })

  afterAll(async () => {
    await alertmanager?.stop()
    await agent?.kill('SIGKILL')
    await sandbox?.close()
    ws?.remove()
  })

  it('firing -> SMS -> missed call -> acknowledged -> resolved at Alertmanager -> RESOLVED', async () => {
    const api = sandbox.api.baseUrl
    const disk: AlertToPost = {
      labels: { alertname: 'DiskFull', severity: 'critical', instance: 'db1:9100' },
      annotations: { summary: 'disk 95% full' },
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=disk',
    }
    await (alertmanager as RunningAlertmanager).postAlerts([disk])
    const paged = await recordsWhen(api, 'the SMS page', (all) => smsTexts(all).length >= 1)
    expect(smsTexts(paged)[0]).toContain('DiskFull on db1:9100: disk 95% full')

    // Alertmanager sends the firing group again (it changed: a second alert joined it): no new page for the first.
    await (alertmanager as RunningAlertmanager).postAlerts([
      disk,
      { ...disk, labels: { ...disk.labels, instance: 'db2:9100' } },
    ])
    const both = await recordsWhen(api, 'the second alert paged', (all) => smsTexts(all).length >= 2)
    expect(smsTexts(both).filter((text) => text.includes('db1:9100'))).toHaveLength(1)

    const call = await fetch(`${api}/_sandbox/missed-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ caller: `+${ASHA}` }),
    })
    expect(call.status).toBe(201)
    const acked = await pollUntil('an incident acknowledged by the missed call', async () => {
      const open = await incidents(agent as RunningAgent)
      return open.find((incident) => incident.state === 'acknowledged')
    })
    expect(acked.ack).toMatchObject({ by: 'asha', via: 'missed_call' })

    // Resolved at Alertmanager: an endsAt in the past; its next webhook says `resolved`.
    const endsAt = new Date(Date.now() - 1000).toISOString()
    const resolvedLabel = acked.title.includes('db2') ? 'db2:9100' : 'db1:9100'
    await (alertmanager as RunningAlertmanager).postAlerts([
      { ...disk, labels: { ...disk.labels, instance: resolvedLabel }, endsAt },
    ])
    const done = await recordsWhen(api, 'the RESOLVED SMS', (all) => smsTexts(all).some((t) => t.includes('RESOLVED')))
    const resolvedText = smsTexts(done).find((t) => t.includes('RESOLVED'))
    expect(resolvedText).toContain(`DiskFull on ${resolvedLabel}`)
    const open = await pollUntil('the incident gone from the open ones', async () => {
      const list = await incidents(agent as RunningAgent)
      return list.every((incident) => incident.id !== acked.id) ? list : undefined
    })
    // The other alert still fires: it is still open, and nothing else was sent.
    expect(open.map((incident) => incident.state)).toEqual(['firing'])
    expect(smsTexts(await records(api))).toHaveLength(3)
  })
})
