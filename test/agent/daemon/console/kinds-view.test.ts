// GET /api/kinds's list (agent/daemon/console/kinds-view.ts), one test per numbered rule.
import { describe, expect, it } from 'vitest'
import { kindView, lastDay, listKinds } from '../../../../agent/daemon/console/kinds-view'
import { HOUR, kindEntry, NOW, THIS_HOUR } from './kinds-fixtures'

const ids = (list: { items: { id: string }[] }): string[] => list.items.map((k) => k.id)

describe('kinds view', () => {
  it('rule 1: new while first seen less than 24 hours ago', () => {
    expect(kindView(kindEntry('a', { firstSeen: NOW - 24 * HOUR + 1 }), NOW).new).toBe(true)
    expect(kindView(kindEntry('a', { firstSeen: NOW - 24 * HOUR }), NOW).new).toBe(false)
  })

  it('rule 2: 24 hourly counts, oldest first, the last the hour that holds now; older hours left out', () => {
    const hourly: [number, number][] = [
      [THIS_HOUR - 30 * HOUR, 99],
      [THIS_HOUR - 23 * HOUR, 4],
      [THIS_HOUR - HOUR, 2],
      [THIS_HOUR, 7],
      [THIS_HOUR + HOUR, 5],
    ]
    const day = lastDay(hourly, NOW)
    expect(day).toHaveLength(24)
    expect(day[0]).toBe(4)
    expect(day[22]).toBe(2)
    expect(day[23]).toBe(7)
    expect(day.reduce((a, b) => a + b, 0)).toBe(13)
  })

  it('rule 3: source keeps the kinds of that source only', () => {
    const entries = [kindEntry('a'), kindEntry('b', { source: 'db' }), kindEntry('c', { source: undefined })]
    const list = listKinds(entries, { sort: 'count', limit: 10, source: 'db' }, NOW)
    expect(ids(list)).toEqual(['b'])
    expect(list.total).toBe(1)
  })

  it('rule 4: by count (then last seen, then id), or newest first (then count, then id)', () => {
    const entries = [
      kindEntry('old-busy', { count: 500, firstSeen: NOW - 5 * 86_400_000 }),
      kindEntry('fresh', { count: 3, firstSeen: NOW - HOUR }),
      kindEntry('b-tie', { count: 40, lastSeen: NOW - 1000, firstSeen: NOW - 2 * HOUR }),
      kindEntry('a-tie', { count: 40, lastSeen: NOW - 1000, firstSeen: NOW - 2 * HOUR }),
      kindEntry('seen-last', { count: 40, lastSeen: NOW, firstSeen: NOW - 3 * HOUR }),
    ]
    expect(ids(listKinds(entries, { sort: 'count', limit: 10, source: undefined }, NOW))).toEqual([
      'old-busy',
      'seen-last',
      'a-tie',
      'b-tie',
      'fresh',
    ])
    expect(ids(listKinds(entries, { sort: 'new', limit: 10, source: undefined }, NOW))).toEqual([
      'fresh',
      'a-tie',
      'b-tie',
      'seen-last',
      'old-busy',
    ])
  })

  it('rule 5: at most limit kinds; total counts them all', () => {
    const entries = ['a', 'b', 'c'].map((id, i) => kindEntry(id, { count: 10 - i }))
    const list = listKinds(entries, { sort: 'count', limit: 2, source: undefined }, NOW)
    expect(ids(list)).toEqual(['a', 'b'])
    expect(list.total).toBe(3)
  })
})
