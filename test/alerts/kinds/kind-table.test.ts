// The kind table (alerts/kinds/kind-table.ts): observe, restore, merge, eviction, hourly roll-over, learning.
import { describe, expect, it } from 'vitest'
import { createKindTable, MAX_HOSTS } from '../../../alerts/kinds/kind-table'
import { addHourly, HOUR_MS, HOURLY_BUCKETS, hourlySeries } from '../../../alerts/kinds/kind-table-hourly'
import type { KindDelta, KindRef } from '../../../alerts/kinds/types'
import { textLine } from '../../../alerts/line'

const T0 = Date.UTC(2026, 11, 1, 10, 0, 0)
const ref = (id: string, template = `template ${id}`): KindRef => ({ id, template, created: false })
const line = (text: string, source = 'app') => textLine(`ERROR ${text}`, source)
const delta = (id: string, at: number, count: number, host: string): KindDelta => ({
  ...{ id, source: 'app', template: `template ${id}`, level: 50 },
  ...{ at, count, host, sample: `sample of ${id}` },
})

describe('kind table', () => {
  it('observe: new the first time it meets an id, then counts, hosts and last seen', () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    const first = table.observe(ref('a'), line('boom 1'), T0, 'web-1')
    expect(first).toMatchObject({ isNew: true, previousSeen: undefined })
    const second = table.observe(ref('a'), line('boom 2'), T0 + 5000, 'web-2')
    expect(second.isNew).toBe(false)
    expect(second.previousSeen).toBe(T0)
    expect(second.entry).toMatchObject({ count: 2, firstSeen: T0, lastSeen: T0 + 5000, hosts: ['web-2', 'web-1'] })
    expect(second.entry.sample).toBe('ERROR boom 1')
    expect(second.entry.learned).toBe(false)
  })

  it('entries() and restore(): a restarted table knows the kinds (not new again) and does not learn', () => {
    const table = createKindTable({ max: 10, learnMs: HOUR_MS })
    table.observe(ref('a'), line('boom'), T0, 'web-1')
    table.resolved('a', T0 + 1000)
    const saved = JSON.parse(JSON.stringify(table.entries())) as ReturnType<typeof table.entries>
    const again = createKindTable({ max: 10, learnMs: HOUR_MS })
    expect(again.restore(saved)).toBe(1)
    expect(again.learning(T0 + 2000)).toBe(false)
    const seen = again.observe(ref('a'), line('boom'), T0 + 2000, 'web-1')
    expect(seen.isNew).toBe(false)
    expect(seen.entry).toMatchObject({ count: 2, lastResolved: T0 + 1000, learned: true })
    expect(again.observe(ref('b'), line('other'), T0 + 3000, 'web-1').entry.learned).toBe(false)
  })

  it('a first start learns for learnMs from its first event: kinds first seen then are learned', () => {
    const table = createKindTable({ max: 10, learnMs: HOUR_MS })
    expect(table.observe(ref('a'), line('a'), T0, 'h').entry.learned).toBe(true)
    expect(table.observe(ref('b'), line('b'), T0 + HOUR_MS - 1, 'h').entry.learned).toBe(true)
    expect(table.observe(ref('c'), line('c'), T0 + HOUR_MS, 'h').entry.learned).toBe(false)
  })

  it('with learnFrom (kept by the store), a restarted table goes on learning until learnFrom + learnMs', () => {
    const table = createKindTable({ max: 10, learnMs: HOUR_MS, learnFrom: T0 })
    table.restore([{ ...createKindTable({ max: 1, learnMs: 0 }).observe(ref('a'), line('a'), T0, 'h').entry }])
    expect(table.observe(ref('b'), line('b'), T0 + HOUR_MS - 1, 'h').entry.learned).toBe(true)
    expect(table.observe(ref('c'), line('c'), T0 + HOUR_MS, 'h').entry.learned).toBe(false)
  })

  it('merge: counts add, first/last take min/max, and a kind is new only the first time the table knows it', () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    expect(table.merge(delta('a', T0 + 60_000, 3, 'web-2'), T0 + 60_000).isNew).toBe(true)
    const local = table.observe(ref('a'), line('a'), T0 + 120_000, 'web-1')
    expect(local.isNew).toBe(false)
    const older = table.merge(delta('a', T0, 4, 'web-3'), T0 + 120_000)
    expect(older.isNew).toBe(false)
    expect(older.entry).toMatchObject({ count: 8, firstSeen: T0, lastSeen: T0 + 120_000 })
    expect(older.entry.hosts).toEqual(['web-3', 'web-1', 'web-2'])
    expect(older.entry.sample).toBe('sample of a')
  })

  it("merge: the entry holds only a kind entry's fields, none of the delta's at, count or host", () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    table.merge(delta('a', T0, 3, 'web-2'), T0)
    const [entry] = table.entries()
    const fields = ['id', 'source', 'template', 'aliases', 'level', 'firstSeen', 'lastSeen', 'lastResolved']
    fields.push('count', 'hourly', 'hosts', 'sample', 'incident', 'learned', 'paged', 'pending')
    expect(Object.keys(entry ?? {}).sort()).toEqual(fields.sort())
    expect(entry).toMatchObject({ count: 3, hosts: ['web-2'], firstSeen: T0 })
  })

  it("a kind: new rule's count and page are the entry's, handed to a restart by entries() and restore()", () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    expect(table.observe(ref('a'), line('a'), T0, 'h').entry).toMatchObject({ paged: false, pending: undefined })
    table.waiting('a', 'new-errors', [T0])
    table.waiting('a', 'other', [T0 - 5])
    table.waiting('a', 'new-errors', [T0, T0 + 1000])
    table.waiting('nosuch', 'new-errors', [T0])
    const restarted = createKindTable({ max: 10, learnMs: 0 })
    restarted.restore(table.entries())
    expect(restarted.get('a')?.pending).toEqual([
      ['other', [T0 - 5]],
      ['new-errors', [T0, T0 + 1000]],
    ])
    restarted.paged('a')
    expect(restarted.get('a')).toMatchObject({ paged: true, pending: undefined })
    // entries() are copies: a change to one leaves the table as it was.
    const [copy] = table.entries()
    copy?.pending?.[0]?.[1].push(1)
    expect(table.get('a')?.pending?.[0]?.[1]).toEqual([T0 - 5])
  })

  it('bounded per source: past max the least recently seen kind of that source is evicted and counted', () => {
    const table = createKindTable({ max: 2, learnMs: 0 })
    table.observe(ref('a'), line('a'), T0, 'h')
    table.observe(ref('b'), line('b'), T0 + 1, 'h')
    table.observe(ref('x'), line('x', 'db'), T0 + 2, 'h')
    table.observe(ref('a'), line('a'), T0 + 3, 'h')
    table.observe(ref('c'), line('c'), T0 + 4, 'h')
    expect(table.get('b')).toBeUndefined()
    expect(table.get('a')).toBeDefined()
    expect(table.get('x')).toBeDefined()
    expect(table.stats()).toEqual({ kinds: 3, evicted: 1 })
    expect(table.observe(ref('b'), line('b'), T0 + 5, 'h').isNew).toBe(true)
  })

  it('hourly counts roll over by the hour and keep 7 days (168 buckets)', () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    table.observe(ref('a'), line('a'), T0, 'h')
    table.observe(ref('a'), line('a'), T0 + 10 * 60_000, 'h')
    table.observe(ref('a'), line('a'), T0 + HOUR_MS, 'h')
    expect(table.get('a')?.hourly).toEqual([
      [T0, 2],
      [T0 + HOUR_MS, 1],
    ])
    const late = T0 + HOURLY_BUCKETS * HOUR_MS
    table.observe(ref('a'), line('a'), late, 'h')
    const hourly = table.get('a')?.hourly ?? []
    expect(hourly.length).toBeLessThanOrEqual(HOURLY_BUCKETS)
    expect(hourly[0]).toEqual([T0 + HOUR_MS, 1])
    expect(table.get('a')?.count).toBe(4)
    expect(hourlySeries(hourly, late, 3)).toEqual([0, 0, 1])
  })

  it("an answer is the kind's own (no object per line): another kind's event leaves it as it was", () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    const a = table.observe(ref('a'), line('a'), T0, 'h')
    const b = table.observe(ref('b'), line('b'), T0 + 1, 'h')
    table.merge(delta('b', T0 + 2, 1, 'h2'), T0 + 2)
    expect(a).toMatchObject({ isNew: true, previousSeen: undefined })
    const again = table.observe(ref('a'), line('a'), T0 + 3, 'h')
    expect(again).toBe(a)
    expect(again).toMatchObject({ isNew: false, previousSeen: T0 })
    expect(again.entry).toBe(table.get('a'))
    expect(b.entry).toBe(table.get('b'))
  })

  it('an alias is kept once, whichever order the miner gives aliases in', () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    for (const [i, aliasOf] of ['x', 'x', 'y', 'x', undefined, 'y'].entries())
      table.observe({ ...ref('a'), aliasOf }, line('a'), T0 + i, 'h')
    expect(table.get('a')?.aliases).toEqual(['x', 'y'])
    const restarted = createKindTable({ max: 10, learnMs: 0 })
    restarted.restore(table.entries())
    restarted.observe({ ...ref('a'), aliasOf: 'y' }, line('a'), T0 + 9, 'h')
    expect(restarted.get('a')?.aliases).toEqual(['x', 'y'])
  })

  it('restore over a known id moves it in the recency order: the bound evicts the kind least recently seen', () => {
    const table = createKindTable({ max: 2, learnMs: 0 })
    table.observe(ref('a'), line('a'), T0, 'h')
    table.observe(ref('b'), line('b'), T0 + 1, 'h')
    const [a] = table.entries()
    expect(table.restore(a === undefined ? [] : [{ ...a, lastSeen: T0 + 2 }])).toBe(1)
    table.observe(ref('c'), line('c'), T0 + 3, 'h')
    expect(table.get('b')).toBeUndefined()
    expect(table.get('a')).toBeDefined()
    expect(table.stats()).toEqual({ kinds: 2, evicted: 1 })
  })

  it("a count in the last bucket's hour still trims a bucket older than the 7 days ending with it", () => {
    const hourly: [number, number][] = [
      [T0 - HOURLY_BUCKETS * HOUR_MS, 1],
      [T0, 1],
    ]
    addHourly(hourly, T0 + 1000, 1, T0 + 1000)
    expect(hourly).toEqual([[T0, 2]])
    addHourly(hourly, T0 + 2000, 3, T0 + 2000)
    expect(hourly).toEqual([[T0, 5]])
  })

  it('hosts: at most MAX_HOSTS, most recent first; a known host moves to the front, a new one drops the oldest', () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    const hosts = Array.from({ length: MAX_HOSTS + 1 }, (_, i) => `h${i.toString()}`)
    for (const [i, host] of hosts.entries()) table.observe(ref('a'), line('a'), T0 + i, host)
    expect(table.get('a')?.hosts).toEqual(hosts.slice(1).reverse())
    table.observe(ref('a'), line('a'), T0 + 100, 'h5')
    expect(table.get('a')?.hosts).toEqual([
      'h5',
      ...hosts
        .slice(1)
        .reverse()
        .filter((h) => h !== 'h5'),
    ])
    table.observe(ref('a'), line('a'), T0 + 101, 'h5')
    expect(table.get('a')?.hosts.length).toBe(MAX_HOSTS)
    const restarted = createKindTable({ max: 10, learnMs: 0 })
    const [entry] = table.entries()
    restarted.restore(entry === undefined ? [] : [{ ...entry, hosts: [...hosts, 'x', 'y'] }])
    restarted.observe(ref('a'), line('a'), T0 + 102, 'y')
    expect(restarted.get('a')?.hosts).toEqual(['y', ...hosts.slice(0, MAX_HOSTS - 1)])
  })

  it("a line goes into its hour's bucket after a fleet's delta moved or trimmed the buckets", () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    table.observe(ref('a'), line('a'), T0, 'h')
    table.observe(ref('a'), line('a'), T0 + 1000, 'h')
    // Another host's clock is 200 hours ahead: its bucket becomes the last and trims this hour's.
    table.merge(delta('a', T0 + 200 * HOUR_MS, 3, 'h2'), T0 + 2000)
    table.observe(ref('a'), line('a'), T0 + 3000, 'h')
    expect(table.get('a')?.hourly).toEqual([
      [T0, 1],
      [T0 + 200 * HOUR_MS, 3],
    ])
    expect(table.get('a')?.count).toBe(6)
  })

  it("a line goes into the entry's buckets after entries() trimmed the hour it counted in last", () => {
    const table = createKindTable({ max: 10, learnMs: 0 })
    // A kinds file whose last seen is 300 hours past its buckets: entries() trims by it.
    const odd = { ...table.observe(ref('x'), line('x'), T0, 'h').entry, id: 'a', lastSeen: T0 + 300 * HOUR_MS }
    table.restore([{ ...odd, hourly: [] }])
    table.observe(ref('a'), line('a'), T0 + 1000, 'h')
    table.entries()
    table.observe(ref('a'), line('a'), T0 + 2000, 'h')
    expect(table.get('a')?.hourly).toEqual([[T0, 1]])
  })
})
