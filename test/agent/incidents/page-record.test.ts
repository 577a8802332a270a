// The pure page decisions of the alert path, one test per numbered rule of page-record.ts.
import { describe, expect, it } from 'vitest'
import type { Delivery } from '../../../alerts'
import type { RuleConfig } from '../../../agent/config/types'
import { dropRepages, pageRecords, retentionOf } from '../../../agent/incidents/page-record'
import { rulesOf } from '../../alerts/helpers'

const [rule] = rulesOf(
  [
    {
      name: 'db',
      repeat_interval: '30m',
      resolve_after: '15m',
      group_wait: '10s',
      threshold: { count: 3, within: '1m' },
    },
  ],
  ['sms'],
)
const rules = new Map<string, RuleConfig>([['db', rule as RuleConfig]])
const ruleOf = (name: string): RuleConfig | undefined => rules.get(name)

function notice(kind: Delivery['notice']['kind'], key: string, channel = 'sms'): Delivery {
  return { channelType: 'sms', notice: { kind, channel, incident: { key, rule: 'db' } } } as unknown as Delivery
}
const kinds = (ds: readonly Delivery[]): string[] =>
  ds.map((d) => `${d.notice.kind} ${d.notice.incident.key} ${d.notice.channel}`)

describe('page decisions', () => {
  it('1. a firing of an incident paged within repeat_interval is dropped, and said once per incident', () => {
    const paged = (key: string) => (key === 'a' ? { rule: 'db', notifiedAt: 1000, lastSeen: 1000 } : undefined)
    const within = dropRepages(
      [notice('firing', 'a', 'sms'), notice('firing', 'a', 'chat'), notice('firing', 'b')],
      paged,
      ruleOf,
      1000 + 29 * 60_000,
    )
    expect(kinds(within.kept)).toEqual(['firing b sms'])
    expect(within.suppressed).toEqual([{ key: 'a', rule: 'db' }])
    // Past repeat_interval, it pages again; an unknown rule never suppresses.
    expect(kinds(dropRepages([notice('firing', 'a')], paged, ruleOf, 1000 + 30 * 60_000).kept)).toEqual([
      'firing a sms',
    ])
    expect(kinds(dropRepages([notice('firing', 'a')], paged, () => undefined, 2000).kept)).toEqual(['firing a sms'])
  })

  it('2. every other notice is kept, in order', () => {
    const paged = () => ({ rule: 'db', notifiedAt: 1000, lastSeen: 1000 })
    const all = [notice('repeat', 'a'), notice('escalated', 'a'), notice('resolved', 'a'), notice('digest', 'a')]
    expect(kinds(dropRepages(all, paged, ruleOf, 2000).kept)).toEqual(kinds(all))
  })

  it('3. the last kept notice of each incident says what to record', () => {
    const kept = [
      notice('firing', 'a', 'sms'),
      notice('firing', 'a', 'chat'),
      notice('resolved', 'b'),
      notice('digest', 'c'),
      notice('escalated', 'd'),
      notice('repeat', 'e'),
      notice('acknowledged', 'f'),
      notice('unacknowledged', 'g'),
      notice('acknowledged', 'h'),
      notice('resolved', 'h'),
    ]
    expect(pageRecords(kept)).toEqual([
      { kind: 'paged', key: 'a', rule: 'db' },
      { kind: 'resolved', key: 'b' },
      { kind: 'paged', key: 'd', rule: 'db' },
      { kind: 'paged', key: 'e', rule: 'db' },
      { kind: 'changed', key: 'f', rule: 'db' },
      { kind: 'paged', key: 'g', rule: 'db' },
      { kind: 'resolved', key: 'h' },
    ])
  })

  it('4. entries matter for resolve_after (paged) and group_wait + threshold window + a minute (pending)', () => {
    expect(retentionOf(rule)).toEqual({ pagedMs: 15 * 60_000, pendingMs: 10_000 + 60_000 + 60_000 })
    const [plain] = rulesOf([{ name: 'p' }], ['sms'])
    expect(retentionOf(plain)).toEqual({ pagedMs: Infinity, pendingMs: 60_000 })
    expect(retentionOf(undefined)).toEqual({ pagedMs: 0, pendingMs: 0 })
  })
})
