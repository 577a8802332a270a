// One test per numbered rule of alerts/acknowledgement.ts, on the pure decisions (time as an
// argument) and, where a rule is about what the table does with them, on the incident table.
import { describe, expect, it } from 'vitest'
import {
  ACK_TIMEOUT_ACTOR,
  ackTimedOut,
  decideAcknowledge,
  decideResolve,
  decideUnacknowledge,
  peoplePaged,
  pickAcknowledgeable,
  type AckView,
  type PagedView,
} from '../../alerts/acknowledgement'
import { createIncidentTable } from '../../alerts/incidents'
import type { Actor, Notice, NoticeKind } from '../../alerts/notice'
import { createClock, jsonLine, ruleOf, snapshotOf } from './helpers'

const MIN = 60_000
const asha: Actor = { by: 'asha', via: 'missed_call', detail: 'missed call from +919800000001' }
const firing: AckView = { status: 'firing', ack: undefined, firedAt: 1_000 }
const acked = (at: number, firedAt = 1_000): AckView => ({
  status: 'acknowledged',
  ack: { by: 'asha', via: 'console', at },
  firedAt,
})
const line = jsonLine({ msg: 'db down', err: { type: 'DbError' } })

describe('acknowledgement rules', () => {
  it('1. only a firing incident can be acknowledged; the first ack stands', () => {
    expect(decideAcknowledge(undefined, asha, 5_000)).toEqual({ kind: 'refuse', reason: 'unknown' })
    expect(decideAcknowledge({ status: 'pending', ack: undefined, firedAt: 0 }, asha, 5_000)).toEqual({
      kind: 'refuse',
      reason: 'pending',
    })
    expect(decideAcknowledge(acked(2_000), asha, 5_000)).toEqual({ kind: 'refuse', reason: 'already-acknowledged' })
    expect(decideAcknowledge(firing, asha, 5_000)).toEqual({
      kind: 'acknowledge',
      ack: { by: 'asha', via: 'missed_call', at: 5_000, detail: 'missed call from +919800000001' },
    })
  })

  it('2. an ack records who, how and when, in a notice for the recording channels only', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ name: 'r', notify: 'sms' }, ['sms'])
    const [fired] = table.observe(rule, line, clock.now())
    const change = table.acknowledge(fired?.incident.key as string, asha, clock.advance(MIN))
    if (!change.ok) throw new Error(change.reason)
    expect(change.incident.status).toBe('acknowledged')
    expect(change.incident.ack).toEqual({
      by: 'asha',
      via: 'missed_call',
      at: clock.now(),
      detail: 'missed call from +919800000001',
    })
    expect(change.notices.map((n) => [n.kind, n.channels, n.actor?.by])).toEqual([['acknowledged', [], 'asha']])
  })

  it('3. while acknowledged nothing pages, lines keep counting, and resolve_after still resolves', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf(
      {
        notify: 'sms',
        repeat_interval: '5m',
        resolve_after: '1h',
        send_resolved: true,
        escalate: [{ after: '10m', notify: 'voice' }],
      },
      ['sms', 'voice'],
    )
    const key = table.observe(rule, line, clock.now())[0]?.incident.key as string
    table.acknowledge(key, asha, clock.advance(MIN))
    expect(table.observe(rule, line, clock.advance(6 * MIN))).toEqual([])
    expect(table.tick(clock.advance(10 * MIN))).toEqual([])
    expect(table.get(key)).toMatchObject({
      status: 'acknowledged',
      count: 2,
      step: 0,
      lastSeen: clock.now() - 10 * MIN,
    })
    const [resolved] = table.tick(clock.advance(60 * MIN))
    expect([resolved?.kind, resolved?.channels]).toEqual(['resolved', ['sms']])
    expect(table.stats().open).toBe(0)
  })

  it('4. only an acknowledged incident can be unacknowledged; the escalation clock moves on by the time acked', () => {
    expect(decideUnacknowledge(undefined, 10_000)).toEqual({ kind: 'refuse', reason: 'unknown' })
    expect(decideUnacknowledge(firing, 10_000)).toEqual({ kind: 'refuse', reason: 'not-acknowledged' })
    expect(decideUnacknowledge({ status: 'pending', ack: undefined, firedAt: 0 }, 10_000)).toEqual({
      kind: 'refuse',
      reason: 'not-acknowledged',
    })
    // Acked from 4 000 to 10 000: six seconds that do not count towards the next step.
    expect(decideUnacknowledge(acked(4_000), 10_000)).toEqual({ kind: 'unacknowledge', firedAt: 7_000 })
    // A missed call's time may be ahead of the caller's clock: the clock never moves back.
    expect(decideUnacknowledge(acked(12_000), 10_000)).toEqual({ kind: 'unacknowledge', firedAt: 1_000 })
  })

  it('5. ack_timeout: due once the ack is that old; without it an ack holds', () => {
    expect(ackTimedOut(acked(1_000), 30 * MIN, 1_000 + 30 * MIN - 1)).toBe(false)
    expect(ackTimedOut(acked(1_000), 30 * MIN, 1_000 + 30 * MIN)).toBe(true)
    expect(ackTimedOut(acked(1_000), undefined, 1_000 + 365 * 24 * 60 * MIN)).toBe(false)
    expect(ackTimedOut(firing, 30 * MIN, 1_000 + 60 * MIN)).toBe(false)
    expect(ACK_TIMEOUT_ACTOR).toEqual({ by: 'ack_timeout', via: 'timeout' })
  })

  it('6. resolve by hand: any open incident; the notice goes where resolves go, or to the trail only, or nowhere when nobody was paged', () => {
    expect(decideResolve(undefined, true)).toEqual({ kind: 'refuse', reason: 'unknown' })
    expect(decideResolve(firing, true)).toEqual({ kind: 'resolve', notice: 'reached' })
    expect(decideResolve(acked(2_000), false)).toEqual({ kind: 'resolve', notice: 'recording' })
    expect(decideResolve({ status: 'pending', ack: undefined, firedAt: 0 }, true)).toEqual({
      kind: 'resolve',
      notice: 'none',
    })
  })

  it('7. a missed call acknowledges the incident paged to the caller most recently by the call, or all of them with ack_all', () => {
    const view = (key: string, status: PagedView['status'], pagedTo: Record<string, number>): PagedView => ({
      key,
      status,
      pagedTo: new Map(Object.entries(pagedTo)),
    })
    const incidents = [
      view('old', 'firing', { asha: 1_000 }),
      view('recent', 'firing', { asha: 3_000, ravi: 3_000 }),
      view('acked', 'acknowledged', { asha: 4_000 }),
      view('pending', 'pending', { asha: 4_500 }),
      view('later', 'firing', { asha: 9_000 }),
      view('ravis', 'firing', { ravi: 5_000 }),
    ]
    expect(pickAcknowledgeable(incidents, 'asha', 5_000, false)).toEqual(['recent'])
    expect(pickAcknowledgeable(incidents, 'asha', 5_000, true)).toEqual(['old', 'recent'])
    expect(pickAcknowledgeable(incidents, 'ravi', 5_000, false)).toEqual(['ravis'])
    expect(pickAcknowledgeable(incidents, 'asha', 500, false)).toEqual([])
    expect(pickAcknowledgeable(incidents, 'nobody', 5_000, true)).toEqual([])
    // A tie goes to the most recently seen (the later one in the table's order).
    expect(
      pickAcknowledgeable([view('a', 'firing', { asha: 1 }), view('b', 'firing', { asha: 1 })], 'asha', 5, false),
    ).toEqual(['b'])
  })

  it("8. a page reaches the step's people, else the channel's; other notices and recording channels page nobody", () => {
    const notice = (kind: NoticeKind, people?: string[]): Notice => ({
      kind,
      at: 0,
      newCount: 1,
      channels: undefined,
      incident: snapshotOf(line),
      ...(people ? { people } : {}),
    })
    const sms = { type: 'sms', people: ['asha'] }
    for (const kind of ['firing', 'repeat', 'escalated', 'unacknowledged'] as const)
      expect(peoplePaged(notice(kind), sms)).toEqual(['asha'])
    expect(peoplePaged(notice('escalated', ['ravi']), sms)).toEqual(['ravi'])
    for (const kind of ['resolved', 'digest', 'acknowledged'] as const)
      expect(peoplePaged(notice(kind), sms)).toEqual([])
    expect(peoplePaged(notice('firing', ['ravi']), { type: 'incident' })).toEqual([])
    expect(peoplePaged(notice('firing'), { type: 'sms' })).toEqual([])
  })
})
