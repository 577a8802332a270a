// What the engine does with Alertmanager's alerts: the alert's own key names its incident (resends
// do not page again; two alerts with one summary are two incidents), and a resolved alert resolves
// it with the resolve notice to whoever was paged, or to the record only (send_resolved: false).
import { describe, expect, it } from 'vitest'
import type { Delivery } from '../../../alerts/engine'
import { alertEvent } from '../../../agent/intake/alertmanager/alert-event'
import { decodeWebhook, type WebhookPayload } from '../../../agent/intake/alertmanager/payload'
import type { IntakeEvent } from '../../../agent/intake/types'
import { createClock, createConfiguredEngine } from '../../alerts/helpers'
import { alert, alertmanagerBody, type Body } from './alertmanager-fixtures'

const MIN = 60_000
const channels = { sms: { type: 'sms', people: ['asha'] } }
const people = { asha: { phone: '+919800000001' } }

function engineWith(rule: Record<string, unknown> = {}) {
  return createConfiguredEngine({ config: { people, channels, rules: [{ name: 'alerts', ...rule }] } })
}

function eventOf(labels: Record<string, string>, extra: Body = {}): IntakeEvent {
  const decoded = decodeWebhook(alertmanagerBody([alert(labels, extra)]), 'alertmanager')
  if (!decoded.ok) throw new Error(decoded.problem)
  return alertEvent(decoded.payload, decoded.payload.alerts[0] as WebhookPayload['alerts'][number], 'prometheus')
}

const sent = (deliveries: Delivery[]): string[] => deliveries.map((d) => `${d.notice.kind}:${d.notice.channel}`)
const summary = { annotations: { summary: 'instance down' } }

describe("Alertmanager's alerts on the engine", () => {
  it("an alert's fingerprint keys its incident: a resend pages no more, another alert is another incident", () => {
    const clock = createClock()
    const engine = engineWith()
    const db1 = eventOf({ alertname: 'InstanceDown', instance: 'db1' }, { ...summary, fingerprint: 'aaaa' })
    const db2 = eventOf({ alertname: 'InstanceDown', instance: 'db2' }, { ...summary, fingerprint: 'bbbb' })
    expect(sent(engine.ingest(db1.line, clock.now()))).toEqual(['firing:sms', 'firing:crm'])
    expect(engine.ingest(db1.line, clock.advance(5 * MIN))).toEqual([])
    expect(sent(engine.ingest(db2.line, clock.advance(MIN)))).toEqual(['firing:sms', 'firing:crm'])
    expect(engine.countIncidents()).toBe(2)
  })

  it("a rule's group_by still decides the key when it has one", () => {
    const engine = engineWith({ group_by: ['labels.alertname'] })
    const db1 = eventOf({ alertname: 'InstanceDown', instance: 'db1' }, { fingerprint: 'aaaa' })
    const db2 = eventOf({ alertname: 'InstanceDown', instance: 'db2' }, { fingerprint: 'bbbb' })
    engine.ingest(db1.line, 0)
    expect(engine.ingest(db2.line, 1)).toEqual([])
    expect(engine.countIncidents()).toBe(1)
  })

  it('a resolve without an actor tells whoever was paged, even when the rule does not send resolves', () => {
    const clock = createClock()
    const engine = engineWith({ escalate: [{ after: '10m', notify: 'sms' }] })
    const firing = eventOf({ alertname: 'InstanceDown' })
    const key = engine.select(firing.line)?.key as string
    engine.ingest(firing.line, clock.now())
    const done = engine.resolve(key, undefined, clock.advance(MIN), true)
    expect(done.ok && sent(done.deliveries)).toEqual(['resolved:sms', 'resolved:crm'])
    expect(done.ok && done.deliveries[0]?.notice.actor).toBeUndefined()
    expect(engine.countIncidents()).toBe(0)
    expect(engine.resolve(key, undefined, clock.advance(MIN), true)).toEqual({ ok: false, reason: 'unknown' })
  })

  it('with notify false (send_resolved: false) only the record hears of it', () => {
    const engine = engineWith({ send_resolved: true })
    const firing = eventOf({ alertname: 'InstanceDown' })
    const key = engine.select(firing.line)?.key as string
    engine.ingest(firing.line, 0)
    const done = engine.resolve(key, undefined, MIN, false)
    expect(done.ok && sent(done.deliveries)).toEqual(['resolved:crm'])
  })

  it('the resolved alert keys the same incident as its firing one', () => {
    const engine = engineWith()
    const firing = eventOf({ alertname: 'InstanceDown' }, summary)
    const resolved = eventOf({ alertname: 'InstanceDown' }, { ...summary, status: 'resolved' })
    expect(engine.select(resolved.line)?.key).toBe(engine.select(firing.line)?.key)
  })
})
