// A restarted engine, handed the incidents the old one had (as the agent keeps them: JSON, lines
// apart), behaves as the old one would have: nothing fires again, repeats and escalation keep
// their clocks, acks and ack timeouts continue.
import { describe, expect, it } from 'vitest'
import type { AlertEngine, Delivery } from '../../alerts/engine'
import type { IncidentSnapshot } from '../../alerts/notice'
import { createClock, createConfiguredEngine } from './helpers'

const MIN = 60_000
const error = (id: string) =>
  JSON.stringify({ level: 50, time: 0, msg: 'db down', id, err: { type: 'DbError', message: 'timeout' } })

const config = {
  people: { asha: { phone: '+919800000001' }, ravi: { phone: '+919800000003' } },
  channels: {
    sms: { type: 'sms', people: ['asha'] },
    voice: { type: 'voice', people: ['ravi'], audio: ['alert.mp3'] },
    chat: { type: 'chat', template_id: 101, people: ['asha'] },
  },
  rules: [
    {
      name: 'errors',
      notify: ['sms'],
      group_by: ['id'],
      repeat_interval: '5m',
      ack_timeout: '30m',
      escalate: [
        { after: '10m', notify: 'voice' },
        { after: '20m', notify: 'chat' },
      ],
    },
  ],
}

/** What the agent writes: the snapshots without their lines, through JSON; and back with them. */
function throughJson(snapshots: IncidentSnapshot[]): IncidentSnapshot[] {
  const stored = JSON.parse(JSON.stringify(snapshots.map(({ firstLine: _f, lastLine: _l, ...rest }) => rest))) as Omit<
    IncidentSnapshot,
    'firstLine' | 'lastLine'
  >[]
  return stored.map((s) => {
    const lines = snapshots.find((o) => o.key === s.key) as IncidentSnapshot
    return { ...s, firstLine: lines.firstLine, lastLine: lines.lastLine }
  })
}

describe('restore', () => {
  it('a restored engine sends what the old one would have sent', () => {
    const clock = createClock()
    const start = clock.now()
    const old = createConfiguredEngine({ config })
    // "a" escalates to voice and is acknowledged there; "b" escalates and owes a repeat; "c" is
    // acknowledged at step 0 and times out first.
    const key = (id: string) => old.incidents().find((i) => i.lastLine.record.id === id)?.key as string
    for (const id of ['a', 'b', 'c']) old.ingest(error(id), clock.now())
    old.ingest(error('b'), clock.advance(3 * MIN))
    old.acknowledge(key('c'), { by: 'asha', via: 'console' }, clock.now())
    old.tick(clock.advance(7 * MIN))
    old.acknowledge(key('a'), { by: 'ravi', via: 'missed_call' }, clock.advance(MIN))
    old.ingest(error('a'), clock.advance(MIN))
    old.ingest(error('b'), clock.now())

    const restarted = createConfiguredEngine({ config })
    expect(restarted.restore(throughJson(old.incidents()), clock.now())).toBe(3)
    expect(restarted.incidents()).toEqual(old.incidents())

    const both = (act: (engine: AlertEngine) => Delivery[]): Delivery[] => {
      const expected = act(old)
      expect(act(restarted)).toEqual(expected)
      return expected
    }
    const kinds = (deliveries: Delivery[]) =>
      deliveries.map((d) => `${d.notice.kind}:${d.notice.incident.lastLine.record.id}:${d.notice.channel}`)
    expect(kinds(both((e) => e.ingest(error('b'), clock.now())))).toEqual([])
    expect(kinds(both((e) => e.ingest(error('a'), clock.now())))).toEqual([])
    const seen: string[] = []
    for (let t = 0; t < 40; t++) {
      const now = clock.advance(MIN)
      seen.push(
        ...kinds(both((e) => e.tick(now)))
          .filter((k) => !k.endsWith(':crm'))
          .map((k) => `${(now - start) / MIN}m ${k}`),
      )
    }
    expect(seen).toEqual([
      '15m repeat:b:voice',
      '20m escalated:b:chat',
      // c: acked at 3m for 30m; its step 1 was 7m away then.
      '33m unacknowledged:c:sms',
      '40m escalated:c:voice',
      // a: acked at 11m on step 1; step 2 was 9m away then.
      '41m unacknowledged:a:voice',
      '50m escalated:c:chat',
      '50m escalated:a:chat',
    ])
    expect(
      kinds(both((e) => e.acknowledgeFor('ravi', { by: 'ravi', via: 'missed_call' }, clock.now(), false).deliveries)),
    ).toHaveLength(1)
  })

  it('skips pending incidents, rules that are gone and keys already open', () => {
    const clock = createClock()
    const old = createConfiguredEngine({ config: { ...config, rules: [{ ...config.rules[0], group_wait: '1m' }] } })
    old.ingest(error('pending'), clock.now())
    old.ingest(error('firing'), clock.now())
    old.tick(clock.advance(MIN))
    old.ingest(error('pending'), clock.advance(1))
    const snapshots = throughJson(old.incidents())
    const restarted = createConfiguredEngine({ config })
    const firing = snapshots.find((s) => s.lastLine.record.id === 'firing') as IncidentSnapshot
    const pending = { ...firing, key: 'errors:pending', status: 'pending' as const }
    const renamed = { ...firing, key: 'gone:x', rule: 'gone' }
    expect(restarted.restore([firing, pending, renamed, firing], clock.now())).toBe(1)
    expect(restarted.incidents().map((i) => i.key)).toEqual([firing.key])
  })
})
