// One test per numbered rule of alerts/kinds/new-kind.ts.
import { describe, expect, it } from 'vitest'
import { newKindVerdict, pendingTimes, type NewKindInput } from '../../../alerts/kinds/new-kind'

const input = (extra: Partial<NewKindInput>): NewKindInput => ({
  ...{ learned: false, isNew: true, pending: undefined, now: 100_000, minCount: 1, withinMs: undefined },
  ...extra,
})

describe('kind: new decisions', () => {
  it('1. a learned kind is never new', () => {
    expect(newKindVerdict(input({ learned: true }))).toBe('pass')
  })

  it('2. a kind the table knew, with nothing pending for the rule, is not new', () => {
    expect(newKindVerdict(input({ isNew: false }))).toBe('pass')
  })

  it('3. a new kind pages once min_count of its lines fell within the window (1: its first line)', () => {
    expect(newKindVerdict(input({}))).toBe('page')
    const waiting = input({ isNew: false, pending: [60_000, 95_000], minCount: 3, withinMs: 50_000 })
    expect(newKindVerdict(waiting)).toBe('page')
    expect(newKindVerdict({ ...waiting, pending: [40_000, 95_000] })).toBe('wait')
  })

  it('4. otherwise it waits, keeping the times still within the window', () => {
    const first = input({ minCount: 3, withinMs: 50_000 })
    expect(newKindVerdict(first)).toBe('wait')
    expect(pendingTimes(first)).toEqual([100_000])
    expect(pendingTimes(input({ isNew: false, pending: [40_000, 95_000], minCount: 3, withinMs: 50_000 }))).toEqual([
      95_000, 100_000,
    ])
  })
})
