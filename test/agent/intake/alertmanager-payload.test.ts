// The webhook decoder: what Alertmanager and Grafana send is read whole; a bad payload is refused
// with the first wrong field named, and nothing of it is taken.
import { describe, expect, it } from 'vitest'
import { decodeWebhook } from '../../../agent/intake/alertmanager/payload'
import { alert, alertmanagerBody, grafanaBody } from './alertmanager-fixtures'

const refusal = (body: unknown, flavour: 'alertmanager' | 'grafana' = 'alertmanager') => {
  const decoded = decodeWebhook(body, flavour)
  return decoded.ok ? 'taken' : `${decoded.field}: ${decoded.problem}`
}

describe('decodeWebhook', () => {
  it("reads Alertmanager's version 4 payload: the group and each alert", () => {
    const body = alertmanagerBody([alert({ alertname: 'InstanceDown', instance: 'db1:9100' })])
    const decoded = decodeWebhook(body, 'alertmanager')
    if (!decoded.ok) throw new Error(decoded.problem)
    expect(decoded.payload).toMatchObject({
      version: '4',
      status: 'firing',
      receiver: 'logx',
      groupKey: '{}:{alertname="InstanceDown"}',
      truncatedAlerts: 0,
      externalURL: 'http://alertmanager.example:9093',
      grafana: {},
    })
    expect(decoded.payload.alerts).toEqual([
      {
        status: 'firing',
        labels: { alertname: 'InstanceDown', instance: 'db1:9100' },
        annotations: {},
        startsAt: '2026-12-02T03:00:00.000Z',
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.example:9090/graph?g0.expr=up+%3D%3D+0',
        fingerprint: 'a1b2c3d4e5f60718',
        grafana: {},
      },
    ])
  })

  it("reads Grafana's contact point payload with its own fields kept", () => {
    const decoded = decodeWebhook(grafanaBody([alert({ alertname: 'High memory usage' })]), 'grafana')
    if (!decoded.ok) throw new Error(decoded.problem)
    expect(decoded.payload.grafana).toEqual({
      orgId: 1,
      title: '[FIRING:1] High memory usage',
      state: 'alerting',
      message: '**Firing**\n\nValue: B=44.2',
    })
    expect(decoded.payload.alerts[0]?.grafana).toEqual({
      silenceURL: 'https://grafana.example/alerting/silence/new',
      dashboardURL: 'https://grafana.example/d/abc',
      panelURL: 'https://grafana.example/d/abc?viewPanel=2',
      values: { B: 44.2, C: 1 },
    })
  })

  it('refuses a payload with the first wrong field named', () => {
    const one = (extra: Record<string, unknown>) => alertmanagerBody([alert({ alertname: 'A' }), alert({}, extra)])
    expect(refusal([])).toBe('(body): expected a JSON object, got an array')
    expect(refusal(alertmanagerBody([], { version: '3' }))).toBe('version: expected "4" (webhook_config), got "3"')
    expect(refusal(alertmanagerBody([], { version: undefined }))).toBe('version: missing')
    expect(refusal(alertmanagerBody([], { status: 'ok' }))).toBe('status: expected "firing" or "resolved", got "ok"')
    expect(refusal(alertmanagerBody([], { alerts: {} }))).toBe('alerts: expected an array, got an object')
    expect(refusal(one({ labels: { severity: 2 } }))).toBe('alerts[1].labels.severity: expected a string, got a number')
    expect(refusal(one({ labels: undefined }))).toBe('alerts[1].labels: missing')
    expect(refusal(one({ annotations: ['x'] }))).toBe(
      'alerts[1].annotations: expected an object of strings, got an array',
    )
    expect(refusal(one({ status: 'pending' }))).toBe('alerts[1].status: expected "firing" or "resolved", got "pending"')
    expect(refusal(one({ startsAt: 'yesterday' }))).toBe('alerts[1].startsAt: expected an RFC 3339 time')
    expect(refusal(one({ fingerprint: 7 }))).toBe('alerts[1].fingerprint: expected a string, got a number')
    expect(refusal(alertmanagerBody([], { truncatedAlerts: -1 }))).toBe('truncatedAlerts: expected a count, got -1')
    expect(refusal(alertmanagerBody([], { commonLabels: { a: null } }))).toBe(
      'commonLabels.a: expected a string, got null',
    )
  })

  it("takes Grafana's version as it comes, and optional fields as null", () => {
    const body = grafanaBody([alert({ alertname: 'A' }, { generatorURL: null, endsAt: null })])
    expect(refusal({ ...body, version: 1 }, 'grafana')).toBe('taken')
    expect(refusal({ ...body, version: undefined }, 'grafana')).toBe('taken')
  })

  it('keeps a label named __proto__ as a label, never as a prototype', () => {
    const body = JSON.parse(
      JSON.stringify(alertmanagerBody([alert({ alertname: 'A' })])).replace(
        '"alertname":"A"',
        '"alertname":"A","__proto__":"x"',
      ),
    ) as unknown
    const decoded = decodeWebhook(body, 'alertmanager')
    if (!decoded.ok) throw new Error(decoded.problem)
    const labels = decoded.payload.alerts[0]?.labels as Record<string, string>
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype)
    expect(Object.hasOwn(labels, '__proto__')).toBe(true)
    expect(labels.__proto__).toBe('x')
  })
})
