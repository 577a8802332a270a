// One test per numbered rule of alerts/kinds/new-kind.ts, and what it reads of a table entry.
import { describe, expect, it } from 'vitest'
import {
  newKindStateOf,
  newKindVerdict,
  passesOnEntry,
  pendingTimes,
  type NewKindInput,
} from '../../../alerts/kinds/new-kind'
import type { KindEntry } from '../../../alerts/kinds/types'

const input = (extra: Partial<NewKindInput>): NewKindInput => ({
  ...{ learned: false, paged: false, isNew: true, pending: undefined, now: 100_000, minCount: 1 },
  ...{ withinMs: undefined, ...extra },
})

const entry = (extra: Partial<KindEntry>): KindEntry => ({
  ...{ id: 'k1', source: 'app', template: 'disk <*> full', aliases: [], level: 50, firstSeen: 0, lastSeen: 0 },
  ...{ lastResolved: undefined, count: 1, hourly: [], hosts: [], sample: '', incident: undefined, learned: false },
  ...extra,
})

describe('kind: new decisions', () => {
  it('1. a learned kind is never new', () => {
    expect(newKindVerdict(input({ learned: true }))).toBe('pass')
  })

  it('2. a kind already paged (or of a file written before the mark) is not new again', () => {
    expect(newKindVerdict(input({ paged: true }))).toBe('pass')
    expect(newKindVerdict(input({ paged: true, isNew: false, pending: [99_000], minCount: 2 }))).toBe('pass')
    // What a table entry says: paged false is the only "not paged"; no mark at all was handled.
    expect(newKindStateOf(entry({ paged: false }), 'r').paged).toBe(false)
    expect(newKindStateOf(entry({ paged: undefined }), 'r').paged).toBe(true)
  })

  it('3. a kind the table knew, with nothing pending for the rule, is not new', () => {
    expect(newKindVerdict(input({ isNew: false }))).toBe('pass')
    // Another rule's count is not this rule's.
    const state = newKindStateOf(entry({ paged: false, pending: [['other', [90_000]]] }), 'r')
    expect(newKindVerdict(input({ ...state, isNew: false, minCount: 2 }))).toBe('pass')
  })

  it('4. a kind pages once min_count of its lines fell within the window, counted before a restart too', () => {
    expect(newKindVerdict(input({}))).toBe('page')
    const waiting = input({ isNew: false, pending: [60_000, 95_000], minCount: 3, withinMs: 50_000 })
    expect(newKindVerdict(waiting)).toBe('page')
    expect(newKindVerdict({ ...waiting, pending: [40_000, 95_000] })).toBe('wait')
    // A restarted table: the entry is known (not new), its count for the rule was kept on it.
    const restored = entry({ paged: false, pending: [['r', [60_000, 70_000, 80_000, 90_000]]] })
    const state = newKindStateOf(restored, 'r')
    expect(newKindVerdict(input({ ...state, isNew: false, minCount: 5, withinMs: 600_000 }))).toBe('page')
  })

  it('5. otherwise it waits, keeping the times still within the window', () => {
    const first = input({ minCount: 3, withinMs: 50_000 })
    expect(newKindVerdict(first)).toBe('wait')
    expect(pendingTimes(first)).toEqual([100_000])
    expect(pendingTimes(input({ isNew: false, pending: [40_000, 95_000], minCount: 3, withinMs: 50_000 }))).toEqual([
      95_000, 100_000,
    ])
  })

  it('rules 1 to 3 read off the entry: where passesOnEntry says so, the verdict is pass', () => {
    const pendings = [undefined, [['other', [99_000]]], [['r', [99_000]]]] as const
    let passed = 0
    for (const learned of [false, true])
      for (const paged of [false, true, undefined])
        for (const isNew of [false, true])
          for (const pending of pendings) {
            const known = entry({ learned, paged, pending: pending?.map(([rule, times]) => [rule, [...times]]) })
            if (!passesOnEntry(known, isNew)) continue
            passed++
            expect(newKindVerdict(input({ ...newKindStateOf(known, 'r'), isNew, minCount: 2 }))).toBe('pass')
          }
    // The line of a kind known, not new, with nothing pending (most lines) is one of them.
    expect(passesOnEntry(entry({ paged: false }), false)).toBe(true)
    expect(passesOnEntry(entry({ paged: false }), true)).toBe(false)
    expect(passed).toBeGreaterThan(20)
  })
})
