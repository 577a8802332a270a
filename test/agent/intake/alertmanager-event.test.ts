// One alert as an event: a test per numbered rule of alert-event.ts and of severity.ts.
import { describe, expect, it } from 'vitest'
import { INCIDENT_KEY_FIELD } from '../../../alerts'
import { alertEvent, alertKey, defaultMessage } from '../../../agent/intake/alertmanager/alert-event'
import { decodeWebhook, type WebhookPayload } from '../../../agent/intake/alertmanager/payload'
import { severityLevel } from '../../../agent/intake/alertmanager/severity'
import { alert, alertmanagerBody, grafanaBody, type Body } from './alertmanager-fixtures'

function payload(body: Body, flavour: 'alertmanager' | 'grafana' = 'alertmanager'): WebhookPayload {
  const decoded = decodeWebhook(body, flavour)
  if (!decoded.ok) throw new Error(`${decoded.field}: ${decoded.problem}`)
  return decoded.payload
}

function eventOf(labels: Record<string, string>, extra: Body = {}) {
  const p = payload(alertmanagerBody([alert(labels, extra)]))
  return alertEvent(p, p.alerts[0] as WebhookPayload['alerts'][number], 'prometheus')
}

const none = new Map<string, number>()

describe('an alert as an event (alert-event.ts)', () => {
  it('1. the record holds the alert: labels, annotations, times, URLs, the group, Grafana fields', () => {
    const event = eventOf({ alertname: 'DiskFull', team: 'db' }, { annotations: { summary: 'disk 95% full' } })
    expect(event.line).toMatchObject({ source: 'prometheus', json: true })
    expect(event.line.record).toMatchObject({
      status: 'firing',
      labels: { alertname: 'DiskFull', team: 'db' },
      annotations: { summary: 'disk 95% full' },
      startsAt: '2026-12-02T03:00:00.000Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=up+%3D%3D+0',
      receiver: 'logx',
      groupKey: '{}:{alertname="InstanceDown"}',
      externalURL: 'http://alertmanager.example:9093',
    })
    expect(JSON.parse(event.line.raw)).toEqual(event.line.record)
    const g = payload(grafanaBody([alert({ alertname: 'Mem' })]), 'grafana')
    const grafana = alertEvent(g, g.alerts[0] as WebhookPayload['alerts'][number], 'grafana').line.record.grafana
    expect(grafana).toMatchObject({
      orgId: 1,
      state: 'alerting',
      panelURL: 'https://grafana.example/d/abc?viewPanel=2',
    })
  })

  it("2. the level is the severity label's", () => {
    expect(eventOf({ alertname: 'A', severity: 'critical' }).line.level).toBe(60)
    expect(eventOf({ alertname: 'A', severity: 'warning' }).line).toMatchObject({ level: 40, record: { level: 40 } })
    expect(eventOf({ alertname: 'A' }).line.level).toBe(50)
  })

  it('3. the message: alertname with summary, else description, else the labels that say where', () => {
    expect(defaultMessage({ labels: { alertname: 'A' }, annotations: { summary: 's', description: 'd' } })).toBe('A: s')
    expect(defaultMessage({ labels: { alertname: 'A' }, annotations: { description: 'd' } })).toBe('A: d')
    expect(defaultMessage({ labels: { alertname: 'A', instance: 'db1', job: 'node', x: 'y' }, annotations: {} })).toBe(
      'A (instance=db1, job=node)',
    )
    expect(defaultMessage({ labels: { alertname: 'A' }, annotations: { summary: ' ' } })).toBe('A')
    expect(defaultMessage({ labels: { b: '2', a: '1' }, annotations: {} })).toBe('a=1, b=2')
    expect(defaultMessage({ labels: {}, annotations: { summary: 's' } })).toBe('s')
    expect(defaultMessage({ labels: {}, annotations: {} })).toBe('alert without labels')
    expect(eventOf({ alertname: 'A' }, { annotations: { summary: 's' } }).line.msg).toBe('A: s')
  })

  it('4. the key is the fingerprint, else a hash of the sorted labels; it is in the record', () => {
    const event = eventOf({ alertname: 'A' }, { fingerprint: 'f00d' })
    expect(event.incidentKey).toBe('f00d')
    expect(event.line.record).toMatchObject({ fingerprint: 'f00d', [INCIDENT_KEY_FIELD]: 'f00d' })
    const byLabels = alertKey({ labels: { b: '2', a: '1' }, fingerprint: undefined })
    expect(byLabels).toBe(alertKey({ labels: { a: '1', b: '2' }, fingerprint: '' }))
    expect(byLabels).not.toBe(alertKey({ labels: { a: '1', b: '3' }, fingerprint: undefined }))
    expect(byLabels).toMatch(/^labels:[0-9a-f]{14}$/)
  })

  it('5. a resolved alert is an end', () => {
    expect(eventOf({ alertname: 'A' }).resolves).toBe(false)
    expect(eventOf({ alertname: 'A' }, { status: 'resolved', endsAt: '2026-12-02T03:05:00Z' }).resolves).toBe(true)
  })

  it('6. a resend of a firing alert is the same event: same key, same record', () => {
    const first = eventOf({ alertname: 'A', instance: 'db1' })
    const again = eventOf({ alertname: 'A', instance: 'db1' })
    expect(again).toEqual(first)
  })
})

describe('severity to level (severity.ts)', () => {
  it("1. the source's severity_levels come first", () => {
    expect(severityLevel(' P1 ', new Map([['p1', 60]]))).toBe(60)
    expect(severityLevel('warning', new Map([['warning', 50]]))).toBe(50)
  })

  it('2. the built-in table', () => {
    const table = Object.fromEntries(
      ['critical', 'fatal', 'error', 'high', 'major', 'warning', 'warn', 'medium', 'minor', 'info', 'low', 'none'].map(
        (name) => [name, severityLevel(name, none)],
      ),
    )
    expect(table).toEqual({
      ...{ critical: 60, fatal: 60, error: 50, high: 50, major: 50 },
      ...{ warning: 40, warn: 40, medium: 40, minor: 40, info: 30, low: 30, none: 30 },
    })
    expect(severityLevel('CRITICAL', none)).toBe(60)
  })

  it('3. no label, or a value neither knows, is an error', () => {
    expect(severityLevel(undefined, none)).toBe(50)
    expect(severityLevel('sev2', none)).toBe(50)
    expect(severityLevel('constructor', none)).toBe(50)
  })
})
