// Kinds the miner merged are one kind in the table (alerts/kinds/kind-table.ts with kind-fold.ts): the
// loghub Linux case, `session opened for user cyrus` and `... news` merged when `root` arrives.
import { describe, expect, it } from 'vitest'
import { createKindMiner } from '../../../alerts/kinds/miner'
import { createKindTable, type KindTable } from '../../../alerts/kinds/kind-table'
import type { KindDelta, KindRef } from '../../../alerts/kinds/types'
import { parseLine } from '../../../alerts/line'

const T0 = Date.UTC(2026, 11, 1, 10, 0, 0)
const su = (user: string) =>
  parseLine(`Jun 15 04:06:18 combo su(pam_unix)[21416]: session opened for user ${user} by (uid=0)`, 'linux')
const USERS = ['cyrus', 'news', 'cyrus', 'news', 'root']

/** The lines of USERS through a real miner into `table`; the refs the miner gave, by user. */
function mineInto(table: KindTable, users = USERS, from = T0) {
  const miner = createKindMiner({ max: 100 })
  const refs = users.map((user, i) => {
    const ref = miner.mine(su(user))
    table.observe(ref, su(user), from + i * 1000, `web-${i % 2}`)
    return ref
  })
  return { miner, refs }
}

const ref = (id: string, fields: Partial<KindRef> = {}): KindRef => ({
  id,
  template: `t ${id}`,
  created: false,
  ...fields,
})
const line = (text: string) => parseLine(`ERROR ${text}`, 'app')

describe('a kind the miner merged into another', () => {
  it('the ref of the merging line names the absorbed kind; the lines before and after it do not', () => {
    const { miner, refs } = mineInto(createKindTable({ max: 100, learnMs: 0 }))
    const [cyrus, news] = refs
    expect(refs.slice(0, 4).map((r) => r.absorbed)).toEqual([undefined, undefined, undefined, undefined])
    expect(refs[4]).toMatchObject({ id: cyrus?.id, absorbed: [news?.id] })
    const next = miner.mine(su('news'))
    expect(next.absorbed).toBeUndefined()
    // A repeat is answered with the kind's ref as it stands: the same object, nothing made for the line.
    expect(miner.mine(su('news'))).toBe(next)
  })

  it('folds into the survivor: one entry, counts summed, the absorbed id an alias; entries() and stats() count kinds', () => {
    const table = createKindTable({ max: 100, learnMs: 0 })
    const { refs } = mineInto(table)
    const [cyrus, news] = refs
    const entries = table.entries()
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ id: cyrus?.id, count: 5, firstSeen: T0, lastSeen: T0 + 4000 })
    expect(entries[0]?.template).toContain('session opened for user <*>')
    expect(entries[0]?.aliases).toContain(news?.id)
    expect(entries[0]?.hosts.sort()).toEqual(['web-0', 'web-1'])
    expect(entries[0]?.hourly).toEqual([[T0, 5]])
    expect(table.stats().kinds).toBe(1)
  })

  it('the absorbed id answers the survivor: get, a fleet delta, resolved, opened, waiting and paged', () => {
    const table = createKindTable({ max: 100, learnMs: 0 })
    const [cyrus, news] = mineInto(table).refs
    const newsId = news?.id ?? ''
    expect(table.get(newsId)?.id).toBe(cyrus?.id)
    const delta: KindDelta = {
      ...{ id: newsId, source: 'linux', template: 'session opened for user news by (uid=<*>)', level: undefined },
      ...{ at: T0 + 9000, count: 3, host: 'db-1', sample: 'x' },
    }
    const seen = table.merge(delta, T0 + 9000)
    expect(seen.isNew).toBe(false)
    expect(seen.entry).toMatchObject({ id: cyrus?.id, count: 8 })
    // A host whose miner has not merged yet does not take the template back.
    expect(seen.entry.template).toContain('<*>')
    expect(table.resolved(newsId, T0 + 10_000)).toBe(true)
    table.opened(newsId, 'new-errors:1')
    table.waiting(newsId, 'new-errors', [T0])
    expect(table.get(cyrus?.id ?? '')).toMatchObject({ lastResolved: T0 + 10_000, incident: 'new-errors:1' })
    expect(table.get(cyrus?.id ?? '')?.pending).toEqual([['new-errors', [T0]]])
    table.paged(newsId)
    expect(table.get(cyrus?.id ?? '')).toMatchObject({ paged: true, pending: undefined })
    expect(table.entries()).toHaveLength(1)
  })

  it('a fold makes nothing new: the survivor not held, the absorbed kind held becomes it', () => {
    const table = createKindTable({ max: 100, learnMs: 0 })
    table.observe(ref('n'), line('n'), T0, 'h')
    const seen = table.observe(ref('s', { absorbed: ['n'] }), line('s'), T0 + 1, 'h')
    expect(seen).toMatchObject({ isNew: false, previousSeen: T0 })
    expect(seen.entry).toMatchObject({ id: 's', count: 2, aliases: ['n'] })
    expect(table.get('n')).toBe(seen.entry)
    expect(table.stats().kinds).toBe(1)
  })

  it('an alias the miner gives that the table holds as a kind of its own folds it', () => {
    const table = createKindTable({ max: 100, learnMs: 0 })
    table.observe(ref('t'), line('t'), T0, 'h')
    table.observe(ref('s'), line('s'), T0 + 1, 'h')
    const seen = table.observe(ref('s', { aliasOf: 't' }), line('s'), T0 + 2, 'h')
    expect(seen.entry).toMatchObject({ id: 's', count: 3, aliases: ['t'] })
    expect(table.entries().map((e) => e.id)).toEqual(['s'])
  })

  it('bounded: an evicted kind takes its aliases with it', () => {
    const table = createKindTable({ max: 1, learnMs: 0 })
    table.observe(ref('n'), line('n'), T0, 'h')
    table.observe(ref('s', { absorbed: ['n'] }), line('s'), T0 + 1, 'h')
    table.observe(ref('x'), line('x'), T0 + 2, 'h')
    expect(table.get('s')).toBeUndefined()
    expect(table.get('n')).toBeUndefined()
    expect(table.stats()).toEqual({ kinds: 1, evicted: 1 })
  })

  it('restore folds the absorbed entry a kinds file still holds: once, not twice', () => {
    const table = createKindTable({ max: 100, learnMs: 0 })
    // What kinds.jsonl holds before a compaction: the absorbed kind's last record beside the survivor's.
    const miner = createKindMiner({ max: 100 })
    const before = ['cyrus', 'news', 'cyrus', 'news'].map((user, i) =>
      table.observe(miner.mine(su(user)), su(user), T0 + i * 1000, 'web-1'),
    )
    const stale = table.entries()
    table.observe(miner.mine(su('root')), su('root'), T0 + 4000, 'web-1')
    // As the store reads it back: the last record of each id.
    const file = new Map([...stale, ...table.entries()].map((entry) => [entry.id, entry]))
    expect(file.size).toBe(2)
    const again = createKindTable({ max: 100, learnMs: 0 })
    expect(again.restore(JSON.parse(JSON.stringify([...file.values()])))).toBe(1)
    expect(again.entries()).toHaveLength(1)
    expect(again.entries()[0]).toMatchObject({ id: before[0]?.entry.id, count: 5 })
    expect(again.get(before[1]?.entry.id ?? '')?.id).toBe(before[0]?.entry.id)
  })
})
