// The kinds kept in a real `kinds.jsonl` in a temp dir (agent/kinds/kind-store.ts): "a restart" is a
// new store on the same file. New kinds are on disk when added() returns; counts go in at flush;
// the file stays within a few times the kinds; a damaged file is said, kept aside, and learning
// starts over.
import { describe, expect, it } from 'vitest'
import { appendFileSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { KindEntry } from '../../../alerts/kinds/types'
import { openKindStore } from '../../../agent/kinds'
import { onCorruptState, type CorruptStateReport } from '../../../agent/storage/corrupt-state'
import { tempDir } from '../../helpers/temp-dir'

const HOUR = 3_600_000
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % HOUR)

function kind(id: string, over: Partial<KindEntry> = {}): KindEntry {
  return {
    id,
    source: 'app',
    template: `Connection refused to <*> (${id})`,
    aliases: [],
    level: 50,
    firstSeen: T0,
    lastSeen: T0,
    lastResolved: undefined,
    count: 1,
    hourly: [[T0, 1]],
    hosts: ['web-1'],
    sample: `connection refused to 10.0.0.1 (${id})`,
    incident: undefined,
    learned: false,
    paged: false,
    ...over,
  }
}

const fileIn = (): string => join(tempDir('kind-store'), 'state', 'kinds.jsonl')
const linesOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')

function reopened(file: string, now = T0 + 10 * HOUR) {
  const store = openKindStore({ file, now })
  const kinds = new Map(store.restored().map((k) => [k.id, k]))
  return { store, kinds }
}

describe('kinds kept in state_dir', () => {
  it('a new kind is in the file when added() returns, before any flush or close', () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    store.added([kind('a1')])
    expect(readFileSync(file, 'utf8')).toContain('"id":"a1"')
    // A restart without a stop (the process killed) finds it.
    expect(reopened(file).kinds.get('a1')).toEqual(kind('a1'))
  })

  it('counts moved since the last write go in at flush, as small records; a restart reads them back', () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    const a = kind('a1')
    store.added([a])
    a.count = 40
    a.lastSeen = T0 + HOUR + 5
    a.hourly = [
      [T0, 10],
      [T0 + HOUR, 30],
    ]
    store.flush([a])
    const last = JSON.parse(linesOf(file).at(-1) ?? '') as unknown[]
    expect(last).toEqual([
      'n',
      'a1',
      T0 + HOUR + 5,
      40,
      [
        [T0, 10],
        [T0 + HOUR, 30],
      ],
    ])
    a.count = 41
    a.hourly = [
      [T0, 10],
      [T0 + HOUR, 31],
    ]
    store.flush([a])
    expect(JSON.parse(linesOf(file).at(-1) ?? '')).toEqual(['n', 'a1', T0 + HOUR + 5, 41, [[T0 + HOUR, 31]]])
    store.flush([a])
    expect(linesOf(file)).toHaveLength(4)
    const back = reopened(file).kinds.get('a1')
    expect(back).toEqual(a)
  })

  it('a kind whose hosts, incident or resolve changed is written whole', () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    const a = kind('a1')
    store.added([a])
    a.hosts = ['web-2', 'web-1']
    a.count = 2
    store.flush([a])
    a.lastResolved = T0 + 7
    a.incident = 'new-kinds:abc'
    store.flush([a])
    expect(reopened(file).kinds.get('a1')).toEqual(a)
  })

  it("a kind: new rule's count and page are in the file when the call returns; a page is not rewritten at flush", () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    const a = kind('a1')
    store.added([a])
    store.waiting('a1', 'new-errors', [T0, T0 + 5])
    expect(reopened(file).kinds.get('a1')?.pending).toEqual([['new-errors', [T0, T0 + 5]]])
    store.paged('a1')
    expect(reopened(file).kinds.get('a1')).toMatchObject({ paged: true, pending: undefined })
    const lines = linesOf(file).length
    store.flush([{ ...a, paged: true }])
    expect(linesOf(file)).toHaveLength(lines)
    // A compaction keeps both: the count of a kind still waiting, the mark of one paged.
    const b = kind('b2', { pending: [['new-errors', [T0 + 7]]] })
    store.added([b])
    for (let i = 0; i < 300; i++) store.flush([{ ...a, paged: true, count: i + 2 }, b])
    expect(store.stats().compactions).toBeGreaterThan(0)
    const back = reopened(file).kinds
    expect(back.get('a1')?.paged).toBe(true)
    expect(back.get('b2')).toMatchObject({ paged: false, pending: [['new-errors', [T0 + 7]]] })
  })

  it('the file is compacted to the kinds the table holds: an evicted kind goes, lines stay bounded', () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    const kinds = Array.from({ length: 50 }, (_, i) => kind(`k${i}`))
    store.added(kinds)
    store.added([kind('gone')])
    for (let round = 1; round <= 200; round++) {
      for (const k of kinds) k.count = round + 1
      store.flush(kinds)
    }
    // 10,050 records written; the file holds a few times the 50 kinds plus the compaction slack.
    expect(linesOf(file).length).toBeLessThan(4 * 50 + 1000 + 50)
    expect(store.stats().compactions).toBeGreaterThan(0)
    const { kinds: back } = reopened(file)
    expect(back.has('gone')).toBe(false)
    expect(back.get('k7')?.count).toBe(201)
  })

  it('the first start is kept: a restart while learning goes on learning from the first start', () => {
    const file = fileIn()
    const first = openKindStore({ file, now: T0 })
    expect(first.firstStart).toBe(true)
    expect(first.learningSince).toBe(T0)
    const second = openKindStore({ file, now: T0 + 20 * 60_000 })
    expect(second.firstStart).toBe(false)
    expect(second.learningSince).toBe(T0)
    expect(second.damaged).toBe(false)
  })

  it('without a file nothing is kept: every start is a first one', () => {
    const store = openKindStore({ file: undefined, now: T0 })
    store.added([kind('a1')])
    store.flush([kind('a1')])
    expect(store.restored()).toEqual([])
    expect(store.firstStart).toBe(true)
  })
})

describe('a damaged kinds file', () => {
  function watch(): CorruptStateReport[] & { stop: () => void } {
    const reports: CorruptStateReport[] = []
    const stop = onCorruptState((r) => reports.push(r))
    return Object.assign(reports, { stop })
  }

  it('garbage in the middle: said, kept aside, the whole kinds kept, learning starts over from now', () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    store.added([kind('a1'), kind('a2')])
    appendFileSync(file, '{"not a record\n\u0000\u0000garbage\n')
    store.added([kind('a3')])
    store.close()
    const reports: CorruptStateReport[] = []
    const stop = onCorruptState((r) => reports.push(r))
    try {
      const { store: again, kinds } = reopened(file, T0 + 5 * HOUR)
      expect([...kinds.keys()].sort()).toEqual(['a1', 'a2', 'a3'])
      expect(again.damaged).toBe(true)
      expect(again.learningSince).toBe(T0 + 5 * HOUR)
      expect(reports).toHaveLength(1)
      expect(reports[0]?.name).toBe('kinds')
      expect(reports[0]?.keptAs).toMatch(/kinds\.jsonl\.corrupt-/)
      expect(readFileSync(reports[0]?.keptAs ?? '', 'utf8')).toContain('garbage')
      // The file was rewritten with what it held whole: the next start finds nothing wrong.
      expect(openKindStore({ file, now: T0 + 6 * HOUR }).damaged).toBe(false)
    } finally {
      stop()
    }
  })

  it('zero-filled (a power cut): kept aside, no kind, learning from now', () => {
    const file = fileIn()
    openKindStore({ file, now: T0 }).added([kind('a1')])
    writeFileSync(file, Buffer.alloc(4096))
    const reports = watch()
    try {
      const { store, kinds } = reopened(file, T0 + HOUR)
      expect(kinds.size).toBe(0)
      expect(store.damaged).toBe(true)
      expect(store.firstStart).toBe(false)
      expect(store.learningSince).toBe(T0 + HOUR)
      expect(readdirSync(join(file, '..')).some((name) => name.startsWith('kinds.jsonl.corrupt-'))).toBe(true)
    } finally {
      reports.stop()
    }
  })

  it('a last record cut short by a kill: cut off, the kinds before it kept, not damage', () => {
    const file = fileIn()
    const store = openKindStore({ file, now: T0 })
    store.added([kind('a1')])
    store.added([kind('a2')])
    const size = readFileSync(file).length
    truncateSync(file, size - 20)
    const reports = watch()
    try {
      const { store: again, kinds } = reopened(file)
      expect([...kinds.keys()]).toEqual(['a1'])
      expect(again.damaged).toBe(false)
      expect(again.learningSince).toBe(T0)
      expect(reports[0]?.keptAs).toBeUndefined()
    } finally {
      reports.stop()
    }
  })
})
