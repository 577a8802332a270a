// One kind folded into another (alerts/kinds/kind-fold.ts): a test per rule, 1 to 11.
import { describe, expect, it } from 'vitest'
import { foldKind, foldRestored, MAX_HOSTS } from '../../../alerts/kinds/kind-fold'
import { HOUR_MS, HOURLY_BUCKETS } from '../../../alerts/kinds/kind-table-hourly'
import type { KindEntry } from '../../../alerts/kinds/types'

const T0 = Date.UTC(2026, 11, 1, 10, 0, 0)

const entry = (id: string, fields: Partial<KindEntry> = {}): KindEntry => ({
  ...{ id, source: 'app', template: `session opened for user ${id}`, aliases: [], level: 30 },
  ...{ firstSeen: T0, lastSeen: T0, lastResolved: undefined, count: 1, hourly: [[T0, 1]] },
  ...{ hosts: ['web-1'], sample: `sample ${id}`, incident: undefined, learned: false, paged: false },
  pending: undefined,
  ...fields,
})

const folded = (into: KindEntry, gone: KindEntry): KindEntry => {
  foldKind(into, gone)
  return into
}

describe('foldKind', () => {
  it('1: counts add', () => {
    expect(folded(entry('s', { count: 3 }), entry('n', { count: 4 })).count).toBe(7)
  })

  it('2: hourly counts add hour by hour; the last 7 days kept', () => {
    const h = (n: number) => T0 + n * HOUR_MS
    const into = entry('s', {
      hourly: [
        [h(0), 2],
        [h(2), 1],
      ],
      lastSeen: h(2),
    })
    const gone = entry('n', {
      hourly: [
        [h(1), 5],
        [h(2), 3],
        [h(3), 1],
      ],
      lastSeen: h(3),
    })
    expect(folded(into, gone).hourly).toEqual([
      [h(0), 2],
      [h(1), 5],
      [h(2), 4],
      [h(3), 1],
    ])
    const old = entry('o', { hourly: [[h(-HOURLY_BUCKETS), 9]] })
    expect(folded(entry('s', { hourly: [[h(0), 1]] }), old).hourly).toEqual([[h(0), 1]])
  })

  it("3: hosts join, the survivor's first, at most MAX_HOSTS", () => {
    expect(folded(entry('s', { hosts: ['a', 'b'] }), entry('n', { hosts: ['b', 'c'] })).hosts).toEqual(['a', 'b', 'c'])
    const many = Array.from({ length: MAX_HOSTS }, (_, i) => `h${i}`)
    const joined = folded(entry('s', { hosts: many.slice(0, 10) }), entry('n', { hosts: ['x', ...many] })).hosts
    expect(joined).toHaveLength(MAX_HOSTS)
    expect(joined.slice(0, 11)).toEqual([...many.slice(0, 10), 'x'])
  })

  it('4: firstSeen the earlier, lastSeen and lastResolved the later', () => {
    const into = entry('s', { firstSeen: T0 + 5, lastSeen: T0 + 9, lastResolved: T0 + 1 })
    const gone = entry('n', { firstSeen: T0 + 2, lastSeen: T0 + 7, lastResolved: T0 + 3 })
    expect(folded(into, gone)).toMatchObject({ firstSeen: T0 + 2, lastSeen: T0 + 9, lastResolved: T0 + 3 })
    expect(folded(entry('s', { lastResolved: T0 }), entry('n')).lastResolved).toBe(T0)
    expect(folded(entry('s'), entry('n', { lastResolved: T0 })).lastResolved).toBe(T0)
  })

  it("5: the incident is the survivor's, else the absorbed kind's", () => {
    expect(folded(entry('s', { incident: 'r:1' }), entry('n', { incident: 'r:2' })).incident).toBe('r:1')
    expect(folded(entry('s'), entry('n', { incident: 'r:2' })).incident).toBe('r:2')
  })

  it('6: learned when either was', () => {
    expect(folded(entry('s'), entry('n', { learned: true })).learned).toBe(true)
    expect(folded(entry('s', { learned: true }), entry('n')).learned).toBe(true)
    expect(folded(entry('s'), entry('n')).learned).toBe(false)
  })

  it('7: paged when either was (no mark: paged), nothing pending then; else pending times join per rule', () => {
    const waits = (times: number[]): KindEntry['pending'] => [['new', times]]
    expect(folded(entry('s', { pending: waits([1]) }), entry('n', { paged: true }))).toMatchObject({
      paged: true,
      pending: undefined,
    })
    expect(folded(entry('s', { pending: waits([1]) }), entry('n', { paged: undefined })).paged).toBe(true)
    const into = entry('s', {
      pending: [
        ['new', [T0 + 3]],
        ['other', [T0]],
      ],
    })
    const gone = entry('n', { pending: [['new', [T0 + 1, T0 + 5]]] })
    expect(folded(into, gone)).toMatchObject({
      paged: false,
      pending: [
        ['new', [T0 + 1, T0 + 3, T0 + 5]],
        ['other', [T0]],
      ],
    })
    expect(folded(entry('s'), entry('n', { pending: waits([T0]) })).pending).toEqual(waits([T0]))
    expect(folded(entry('s', { pending: waits([T0]) }), entry('n')).pending).toEqual(waits([T0]))
  })

  it("8: the absorbed id and its aliases become aliases, once each, never the survivor's own id", () => {
    const into = entry('s', { aliases: ['s2', 'm'] })
    expect(folded(into, entry('n', { aliases: ['m', 's', 'n2'] })).aliases).toEqual(['s2', 'm', 'n', 'n2'])
  })

  it('9: the survivor keeps its id, source, template, level and sample; an empty sample takes the other', () => {
    const into = entry('s', { template: 'session opened for user <*>', level: 40 })
    expect(folded(into, entry('n', { source: 'b', level: 50 }))).toMatchObject({
      ...{ id: 's', source: 'app', template: 'session opened for user <*>', level: 40, sample: 'sample s' },
    })
    expect(folded(entry('s', { sample: '' }), entry('n')).sample).toBe('sample n')
  })
})

describe('foldRestored', () => {
  it("10: an entry whose id is another entry's alias goes into it, following a chain; a cycle is left", () => {
    const s = entry('s', { aliases: ['m'], lastSeen: T0, count: 1 })
    const m = entry('m', { aliases: ['n'], lastSeen: T0 + 1, count: 2 })
    const n = entry('n', { lastSeen: T0 + 2, count: 4 })
    const other = entry('x', { count: 8 })
    const kept = foldRestored([n, s, other, m])
    expect(kept.map((e) => e.id)).toEqual(['s', 'x'])
    expect(kept[0]).toMatchObject({ count: 7, aliases: ['m', 'n'], lastSeen: T0 + 2 })
    const a = entry('a', { aliases: ['b'] })
    const b = entry('b', { aliases: ['a'] })
    expect(foldRestored([a, b]).map((e) => e.id)).toEqual(['a', 'b'])
  })

  it('11: one last seen no later than its survivor is a record from before the fold: dropped, nothing added', () => {
    const s = entry('s', { aliases: ['n'], lastSeen: T0 + 10, count: 5, hosts: ['web-1'] })
    const n = entry('n', { lastSeen: T0 + 10, count: 2, hosts: ['web-9'], paged: true })
    const kept = foldRestored([s, n])
    expect(kept).toHaveLength(1)
    expect(kept[0]).toMatchObject({ id: 's', count: 5, hosts: ['web-1'], paged: false })
  })
})
