// The kinds file's records (agent/kinds/kind-records.ts): what is one, and what each does.
import { describe, expect, it } from 'vitest'
import type { KindEntry } from '../../../alerts/kinds/types'
import { applyRecord, HOURS_KEPT, recordOf, withTail, type KindsRead } from '../../../agent/kinds/kind-records'

const entry: KindEntry = {
  id: 'a1',
  source: undefined,
  template: 't <*>',
  aliases: [],
  level: undefined,
  firstSeen: 1,
  lastSeen: 2,
  lastResolved: undefined,
  count: 2,
  hourly: [[0, 2]],
  hosts: ['h'],
  sample: 't 1',
  incident: undefined,
  learned: true,
  paged: false,
}

describe('kinds file records', () => {
  it('a kind read back from JSON (undefined fields left out) is the kind', () => {
    const record = recordOf(JSON.parse(JSON.stringify(['k', entry])))
    expect(record).toEqual(['k', entry])
  })

  it('a kind of a file written before the paged mark is taken as paged (it was handled then)', () => {
    const { paged: _, ...old } = entry
    expect(recordOf(JSON.parse(JSON.stringify(['k', old])))).toEqual(['k', { ...entry, paged: true }])
    const pending = { ...entry, pending: [['new-errors', [1, 2]]] }
    expect(recordOf(['k', pending])).toEqual(['k', pending])
    expect(recordOf(['k', { ...entry, pending: [['new-errors', ['1']]] }])).toBeUndefined()
    expect(recordOf(['k', { ...entry, paged: 'yes' }])).toBeUndefined()
  })

  it("a kind: new rule's count (w) is set for its rule, its page (p) sets paged and ends every count", () => {
    const read: KindsRead = { kinds: new Map([['a1', entry]]), startedAt: undefined, version: undefined }
    const apply = (value: unknown) => {
      const record = recordOf(value)
      expect(record, JSON.stringify(value)).toBeDefined()
      if (record !== undefined) applyRecord(read, record)
    }
    apply(['w', 'a1', 'r1', [10]])
    apply(['w', 'a1', 'r2', [11]])
    // Replayed twice (a compaction racing a kill), a record changes nothing more.
    apply(['w', 'a1', 'r1', [10, 12]])
    apply(['w', 'a1', 'r1', [10, 12]])
    apply(['w', 'gone', 'r1', [10]])
    expect(read.kinds.get('a1')?.pending).toEqual([
      ['r2', [11]],
      ['r1', [10, 12]],
    ])
    apply(['p', 'a1'])
    expect(read.kinds.get('a1')).toMatchObject({ paged: true, pending: undefined })
    expect(recordOf(['w', 'a1', 'r1', ['x']])).toBeUndefined()
    expect(recordOf(['p', 'a1', 'extra'])).toBeUndefined()
  })

  it('what is not a record is refused (the journal keeps the file aside as damaged)', () => {
    expect(recordOf({ id: 'a1' })).toBeUndefined()
    expect(recordOf(['k', { ...entry, count: 'many' }])).toBeUndefined()
    expect(recordOf(['k', { ...entry, hourly: [[1]] }])).toBeUndefined()
    expect(recordOf(['n', 'a1', 1, 2])).toBeUndefined()
    expect(recordOf(['x', 'a1'])).toBeUndefined()
  })

  it('a later version of the file is not taken', () => {
    const read: KindsRead = { kinds: new Map(), startedAt: undefined, version: undefined }
    expect(applyRecord(read, ['v', 99, 5])).toBe(false)
    expect(applyRecord(read, ['v', 1, 5])).toBe(true)
    expect(read.startedAt).toBe(5)
  })

  it('counts of a kind set, not added: replayed twice they change nothing more', () => {
    const read: KindsRead = { kinds: new Map(), startedAt: undefined, version: undefined }
    applyRecord(read, ['k', entry])
    applyRecord(read, ['n', 'a1', 9, 5, [[0, 5]]])
    applyRecord(read, ['n', 'a1', 9, 5, [[0, 5]]])
    expect(read.kinds.get('a1')).toMatchObject({ count: 5, lastSeen: 9, hourly: [[0, 5]] })
    // Counts of a kind the file lost whole are dropped, not an error.
    expect(applyRecord(read, ['n', 'zz', 9, 5, []])).toBe(true)
  })

  it('the hourly tail replaces the buckets from its first hour on; 7 days are kept', () => {
    expect(
      withTail(
        [
          [0, 1],
          [1, 2],
          [2, 3],
        ],
        [
          [1, 5],
          [3, 1],
        ],
      ),
    ).toEqual([
      [0, 1],
      [1, 5],
      [3, 1],
    ])
    const long = Array.from({ length: HOURS_KEPT }, (_, i): [number, number] => [i, 1])
    expect(withTail(long, [[HOURS_KEPT, 1]])).toHaveLength(HOURS_KEPT)
  })
})
