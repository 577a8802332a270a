// The alertmanager and grafana sources on a real agent (the built CLI, its embedded sandbox), over
// real HTTP: two sources on one address by path; Grafana's contact point payload pages with its own
// fields in the message; a payload with one bad alert is refused whole with a 400 naming the field,
// and nothing of it pages; a resolved alert with send_resolved: false tells only the incident record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorkspace, messagingYaml, records, recordsWhen, smsTexts, startAgentProcess } from '../daemon/helpers'
import type { RunningAgent, Workspace } from '../daemon/helpers'
import { pollUntil } from '../../helpers/poll-until'
import { alert, alertmanagerBody, grafanaBody } from './alertmanager-fixtures'
import { freePort } from './alertmanager-process'

function config(ws: Workspace, port: number): string {
  return `${messagingYaml()}state_dir: ${ws.state}
sources:
  - { name: prom, type: alertmanager, listen: "127.0.0.1:${port}", path: /am, send_resolved: false }
  - { name: graf, type: grafana, listen: "127.0.0.1:${port}", path: /grafana, severity_levels: { p1: fatal } }
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: graf
    source: graf
    level: fatal
    title: "{{labels.alertname}} {{grafana.panelURL}}"
    notify: oncall-sms
  - name: prom
    source: prom
    notify: oncall-sms
metrics: { listen: 127.0.0.1:0 }
`
}

describe('alertmanager and grafana sources on a running agent', () => {
  let ws: Workspace
  let agent: RunningAgent
  let base: string

  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    })

  beforeAll(async () => {
    ws = createWorkspace()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    ws.writeConfig(config(ws, port))
    agent = await startAgentProcess(ws.config)
  }, 60_000)

  afterAll(async () => {
    await agent?.kill('SIGTERM')
    ws?.remove()
  })

  it("pages for Grafana's contact point payload, its severity mapped by the source's table", async () => {
    const response = await post('/grafana', grafanaBody([alert({ alertname: 'HighMemory', severity: 'P1' })]))
    expect(response.status).toBe(200)
    const all = await recordsWhen(agent.baseUrl, 'the Grafana page', (r) =>
      smsTexts(r).some((t) => t.includes('HighMemory')),
    )
    expect(smsTexts(all).find((t) => t.includes('HighMemory'))).toContain('https://grafana.example/d/abc?viewPanel=2')
  })

  it('refuses a payload with one bad alert whole, naming the field; nothing of it pages', async () => {
    const body = alertmanagerBody([
      alert({ alertname: 'GoodButRefused' }, { fingerprint: '1111' }),
      alert({ alertname: 'Bad', severity: 7 as unknown as string }, { fingerprint: '2222' }),
    ])
    const response = await post('/am', body)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('alerts[1].labels.severity: expected a string, got a number')
    const wrongVersion = await post('/am', { ...alertmanagerBody([alert({ alertname: 'Old' })]), version: '3' })
    expect(wrongVersion.status).toBe(400)
    // A later good alert pages: the refused one never did.
    expect((await post('/am', alertmanagerBody([alert({ alertname: 'After' }, { fingerprint: '3333' })]))).status).toBe(
      200,
    )
    const all = await recordsWhen(agent.baseUrl, 'the later page', (r) => smsTexts(r).some((t) => t.includes('After')))
    expect(smsTexts(all).filter((t) => t.includes('GoodButRefused') || t.includes('Old'))).toEqual([])
  })

  it('with send_resolved: false a resolved alert resolves its incident without an SMS', async () => {
    const firing = alert({ alertname: 'Quiet' }, { fingerprint: '4444' })
    expect((await post('/am', alertmanagerBody([firing]))).status).toBe(200)
    await recordsWhen(agent.baseUrl, 'the Quiet page', (r) => smsTexts(r).some((t) => t.includes('Quiet')))
    const ended = { ...firing, status: 'resolved', endsAt: new Date().toISOString() }
    expect((await post('/am', alertmanagerBody([ended]))).status).toBe(200)
    const gone = async () => {
      const list = (await (await agent.console('/api/incidents')).json()) as { incidents: { title: string }[] }
      return list.incidents.every((incident) => !incident.title.includes('Quiet'))
    }
    await pollUntil('the Quiet incident resolved', gone)
    // A page decided after the resolve: a RESOLVED SMS, had there been one, would have gone out before it.
    expect(
      (await post('/am', alertmanagerBody([alert({ alertname: 'Marker' }, { fingerprint: '5555' })]))).status,
    ).toBe(200)
    await recordsWhen(agent.baseUrl, 'the Marker page', (r) => smsTexts(r).some((t) => t.includes('Marker')))
    expect(smsTexts(await records(agent.baseUrl)).filter((t) => t.includes('Quiet'))).toHaveLength(1)
  })
})
