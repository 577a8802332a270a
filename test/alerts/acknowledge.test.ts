// Acknowledging through the engine, on configs as users write them: what is sent, to whom, and
// what a missed call from a person acknowledges.
import { describe, expect, it } from 'vitest'
import type { Delivery } from '../../alerts/engine'
import type { Actor } from '../../alerts/notice'
import { createClock, createConfiguredEngine } from './helpers'

const MIN = 60_000
const error = (msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: 50, time: 0, msg, ...extra })
const byConsole: Actor = { by: 'asha', via: 'console' }
const byCall = (who: string): Actor => ({ by: who, via: 'missed_call', detail: `missed call from ${who}'s phone` })

const people = { asha: { phone: '+919800000001' }, ravi: { phone: '+919800000003' }, mira: { phone: '+919800000004' } }
const channels = {
  sms: { type: 'sms', people: ['asha'] },
  voice: { type: 'voice', people: ['ravi'], audio: ['alert.mp3'] },
  chat: { type: 'chat', template_id: 101, people: ['mira'] },
}

/** kind and channel of each delivery, the recording channel's included. */
const sent = (deliveries: Delivery[]): string[] => deliveries.map((d) => `${d.notice.kind}:${d.notice.channel}`)

function engineWith(rule: Record<string, unknown>, extra: Record<string, unknown> = {}, crmMaxPerHour?: number) {
  return createConfiguredEngine({
    config: { people, channels, rules: [{ name: 'errors', notify: ['sms'], ...rule }], ...extra },
    crmMaxPerHour,
  })
}

describe('acknowledging an incident', () => {
  it('an ack stops escalation and repeats; lines keep counting', () => {
    const clock = createClock()
    const engine = engineWith({ repeat_interval: '5m', escalate: [{ after: '10m', notify: 'voice' }] })
    const [page] = engine.ingest(error('db down'), clock.now())
    const key = page?.notice.incident.key as string
    const ack = engine.acknowledge(key, byConsole, clock.advance(2 * MIN))
    if (!ack.ok) throw new Error(ack.reason)
    expect(sent(ack.deliveries)).toEqual(['acknowledged:crm'])
    expect(ack.incident).toMatchObject({ status: 'acknowledged', ack: { by: 'asha', via: 'console', at: clock.now() } })
    expect(engine.ingest(error('db down'), clock.advance(6 * MIN))).toEqual([])
    expect(engine.tick(clock.advance(10 * MIN))).toEqual([])
    expect(engine.ingest(error('db down'), clock.advance(30 * MIN))).toEqual([])
    expect(engine.incident(key)).toMatchObject({ status: 'acknowledged', count: 3, step: 0, lastSeen: clock.now() })
    expect(engine.stats()).toMatchObject({ firingIncidents: 1, acknowledgedIncidents: 1 })
  })

  it('ack_timeout puts it back: the step reached is paged again, and escalation resumes without the time acked', () => {
    const clock = createClock()
    const start = clock.now()
    const engine = engineWith({
      ack_timeout: '30m',
      escalate: [
        { after: '10m', notify: 'voice' },
        { after: '20m', notify: 'chat' },
      ],
    })
    const key = engine.ingest(error('db down'), start)[0]?.notice.incident.key as string
    expect(sent(engine.tick(clock.advance(10 * MIN)))).toEqual(['escalated:voice', 'escalated:crm'])
    expect(engine.acknowledge(key, byConsole, clock.advance(2 * MIN)).ok).toBe(true)
    expect(engine.tick(clock.advance(30 * MIN - 1))).toEqual([])
    const back = engine.tick(clock.advance(1))
    expect(sent(back)).toEqual(['unacknowledged:voice', 'unacknowledged:crm'])
    expect(back[0]?.notice.actor).toEqual({ by: 'ack_timeout', via: 'timeout' })
    expect(back[0]?.notice.incident).toMatchObject({
      status: 'firing',
      ack: undefined,
      step: 1,
      firedAt: start + 30 * MIN,
    })
    // Step 2 was 8 minutes away when the ack came: it comes 8 minutes after the un-ack.
    expect(engine.tick(clock.advance(8 * MIN - 1))).toEqual([])
    expect(sent(engine.tick(clock.advance(1)))).toEqual(['escalated:chat', 'escalated:crm'])
  })

  it('unacknowledge by hand does what the timeout does, with the caller as actor; impossible changes are refused', () => {
    const clock = createClock()
    const engine = engineWith({ group_wait: '1m' })
    engine.ingest(error('db down'), clock.now())
    const key = engine.incidents()[0]?.key as string
    expect(engine.acknowledge(key, byConsole, clock.now())).toEqual({ ok: false, reason: 'pending' })
    expect(engine.unacknowledge(key, byConsole, clock.now())).toEqual({ ok: false, reason: 'not-acknowledged' })
    engine.tick(clock.advance(MIN))
    expect(engine.unacknowledge(key, byConsole, clock.now())).toEqual({ ok: false, reason: 'not-acknowledged' })
    expect(engine.acknowledge(key, byConsole, clock.advance(MIN)).ok).toBe(true)
    expect(engine.acknowledge(key, byCall('ravi'), clock.advance(MIN))).toEqual({
      ok: false,
      reason: 'already-acknowledged',
    })
    expect(engine.acknowledge('nope', byConsole, clock.now())).toEqual({ ok: false, reason: 'unknown' })
    const back = engine.unacknowledge(key, { by: 'ravi', via: 'cli' }, clock.advance(MIN))
    if (!back.ok) throw new Error(back.reason)
    expect(back.deliveries.map((d) => [d.notice.kind, d.notice.channel, d.notice.actor?.by])).toEqual([
      ['unacknowledged', 'sms', 'ravi'],
      ['unacknowledged', 'crm', 'ravi'],
    ])
    expect(back.incident).toMatchObject({ status: 'firing', pagedTo: { asha: clock.now() } })
  })

  it('resolve by hand forgets the incident; the next matching line opens a new one', () => {
    const clock = createClock()
    const quiet = engineWith({})
    const key = quiet.ingest(error('db down'), clock.now())[0]?.notice.incident.key as string
    const resolved = quiet.resolve(key, { by: 'asha', via: 'cli' }, clock.advance(MIN))
    if (!resolved.ok) throw new Error(resolved.reason)
    // Without send_resolved only the trail hears of it, with who did it.
    expect(resolved.deliveries.map((d) => [d.notice.kind, d.notice.channel, d.notice.actor?.by])).toEqual([
      ['resolved', 'crm', 'asha'],
    ])
    expect(quiet.incident(key)).toBeUndefined()
    expect(quiet.resolve(key, byConsole, clock.now())).toEqual({ ok: false, reason: 'unknown' })
    const reopened = quiet.ingest(error('db down'), clock.advance(1))
    expect(sent(reopened)).toEqual(['firing:sms', 'firing:crm'])
    expect(reopened[0]?.notice.incident).toMatchObject({ count: 1, firstSeen: clock.now() })

    const told = engineWith({ send_resolved: true, escalate: [{ after: '10m', notify: 'voice' }] })
    const k = told.ingest(error('db down'), clock.now())[0]?.notice.incident.key as string
    told.tick(clock.advance(10 * MIN))
    told.acknowledge(k, byConsole, clock.advance(MIN))
    const done = told.resolve(k, byConsole, clock.advance(MIN))
    expect(done.ok && sent(done.deliveries)).toEqual(['resolved:sms', 'resolved:voice', 'resolved:crm'])
  })

  it('an acknowledgement reaches the trail past silences and budget', () => {
    const clock = createClock()
    const engine = engineWith(
      { group_by: ['id'] },
      { silences: [{ matchers: { id: 'quiet' }, ends_at: '2100-01-01T00:00:00Z' }] },
      1,
    )
    engine.ingest(error('db down', { id: 'quiet' }), clock.now())
    const key = engine.incidents()[0]?.key as string
    expect(sent(engine.ingest(error('db down', { id: 'loud' }), clock.advance(1)))).toEqual([
      'firing:sms',
      'firing:crm',
    ])
    // The crm budget (1 an hour) is spent and the incident silenced: the ack is still recorded.
    const ack = engine.acknowledge(key, byConsole, clock.advance(1))
    expect(ack.ok && sent(ack.deliveries)).toEqual(['acknowledged:crm'])
  })
})

describe('acknowledging by missed call', () => {
  function twoPaged() {
    const clock = createClock()
    const engine = engineWith({ group_by: ['id'] })
    const first = engine.ingest(error('db down', { id: 'a' }), clock.now())[0]?.notice.incident.key as string
    const second = engine.ingest(error('db down', { id: 'b' }), clock.advance(MIN))[0]?.notice.incident.key as string
    return { clock, engine, first, second }
  }

  it('acknowledges the incident paged to the caller most recently', () => {
    const { clock, engine, first, second } = twoPaged()
    expect(engine.incident(second)?.pagedTo).toEqual({ asha: clock.now() })
    const acked = engine.acknowledgeFor('asha', byCall('asha'), clock.advance(MIN), false)
    expect(acked.keys).toEqual([second])
    expect(sent(acked.deliveries)).toEqual(['acknowledged:crm'])
    expect(acked.deliveries[0]?.notice.actor).toEqual(byCall('asha'))
    expect(engine.incident(first)?.status).toBe('firing')
    // The next call acknowledges the next one; then nothing is left.
    expect(engine.acknowledgeFor('asha', byCall('asha'), clock.advance(MIN), false).keys).toEqual([first])
    expect(engine.acknowledgeFor('asha', byCall('asha'), clock.advance(MIN), false)).toEqual({
      keys: [],
      deliveries: [],
    })
  })

  it('ignores incidents not paged to the caller, pending ones, and pages after the call', () => {
    const { clock, engine, first } = twoPaged()
    expect(engine.acknowledgeFor('ravi', byCall('ravi'), clock.now(), false)).toEqual({ keys: [], deliveries: [] })
    expect(engine.acknowledgeFor('stranger', byCall('stranger'), clock.now(), true)).toEqual({
      keys: [],
      deliveries: [],
    })
    // A call placed between the two pages: only the first page had reached her.
    expect(engine.acknowledgeFor('asha', byCall('asha'), clock.now() - 1, false).keys).toEqual([first])

    const waiting = engineWith({ group_wait: '5m' })
    waiting.ingest(error('db down'), clock.now())
    expect(waiting.acknowledgeFor('asha', byCall('asha'), clock.advance(MIN), true)).toEqual({
      keys: [],
      deliveries: [],
    })
  })

  it('ack_all acknowledges every firing, unacknowledged incident paged to the caller', () => {
    const { clock, engine, first, second } = twoPaged()
    const all = engine.acknowledgeFor('asha', byCall('asha'), clock.advance(MIN), true)
    expect(all.keys.sort()).toEqual([first, second].sort())
    expect(sent(all.deliveries)).toEqual(['acknowledged:crm', 'acknowledged:crm'])
    expect(engine.acknowledgeFor('asha', byCall('asha'), clock.advance(MIN), true).keys).toEqual([])
  })

  it('a page counts only once it is past silences and budget', () => {
    const clock = createClock()
    const engine = createConfiguredEngine({
      config: {
        people,
        channels: { ...channels, sms: { type: 'sms', people: ['asha'], max_per_hour: 1 } },
        rules: [{ name: 'errors', notify: ['sms'], group_by: ['id'] }],
        silences: [{ matchers: { id: 'quiet' }, ends_at: '2100-01-01T00:00:00Z' }],
      },
    })
    const sentKey = engine.ingest(error('x', { id: 'sent' }), clock.now())[0]?.notice.incident.key
    engine.ingest(error('x', { id: 'quiet' }), clock.advance(1))
    engine.ingest(error('x', { id: 'over-budget' }), clock.advance(1))
    expect(engine.incidents().map((i) => [i.lastLine.record.id, i.pagedTo])).toEqual([
      ['over-budget', {}],
      ['quiet', {}],
      ['sent', { asha: clock.now() - 2 }],
    ])
    // The digest that folds the suppressed page in is no page of that incident.
    expect(engine.tick(clock.advance(3_600_000)).map((d) => d.notice.kind)).toEqual(['digest'])
    expect(engine.acknowledgeFor('asha', byCall('asha'), clock.now(), true).keys).toEqual([sentKey])
  })

  it("an escalation step with people pages them instead of the channel's", () => {
    const clock = createClock()
    const engine = engineWith({ escalate: [{ after: '10m', notify: 'voice', people: ['mira'] }] })
    const key = engine.ingest(error('db down'), clock.now())[0]?.notice.incident.key as string
    const [voice] = engine.tick(clock.advance(10 * MIN))
    expect(voice?.notice.people).toEqual(['mira'])
    expect(engine.incident(key)?.pagedTo).toEqual({ asha: clock.now() - 10 * MIN, mira: clock.now() })
    expect(engine.acknowledgeFor('ravi', byCall('ravi'), clock.now(), false).keys).toEqual([])
    expect(engine.acknowledgeFor('mira', byCall('mira'), clock.now(), false).keys).toEqual([key])
  })
})
