// The missed-call cursor's rules (agent/acknowledge/missed-calls-cursor.ts), one test per rule.
import { describe, expect, it } from 'vitest'
import {
  EMPTY_STATE,
  handover,
  judgePage,
  MAX_IDS,
  nextStep,
  readListedCall,
  remember,
  stateOfStored,
  storedOf,
  WINDOW_MS,
  type ListedCall,
  type SeenState,
} from '../../../agent/acknowledge/missed-calls-cursor'

const T = Date.parse('2024-05-01T10:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()
const rec = (id: string, at: number | string | undefined, caller = '+919800000001', called = '15550199999') => ({
  id,
  created_at: typeof at === 'number' ? iso(at) : at,
  caller,
  called,
})
const call = (id: string, at: number | undefined, called = '15550199999'): ListedCall => ({
  id,
  at,
  caller: '+919800000001',
  called,
})
const stateWith = (entries: Array<[string, number | undefined]>, floor?: number): SeenState => ({
  cursor: Math.max(...entries.map(([, at]) => at ?? -Infinity)),
  floor,
  ids: new Map(entries),
})
const ids = (calls: readonly { id: string }[]) => calls.map((c) => c.id)

describe('rule 1: a record is known by its id; created_at read as epoch ms', () => {
  it('reads ISO and numeric times, and no time at all', () => {
    expect(readListedCall(rec('mc-1', T))).toEqual({
      id: 'mc-1',
      at: T,
      caller: '+919800000001',
      called: '15550199999',
    })
    expect(readListedCall({ id: 7, created_at: T / 1000, caller: 1, called: null })).toEqual({
      id: '7',
      at: T,
      caller: '1',
      called: '',
    })
    expect(readListedCall(rec('mc-2', 'yesterday-ish'))?.at).toBeUndefined()
  })

  it('skips records without an id, counting them', () => {
    const j = judgePage(EMPTY_STATE, [{ created_at: iso(T), caller: 'x' }, null, rec('mc-1', T)], new Set())
    expect(ids(j.fresh)).toEqual(['mc-1'])
    expect(j.malformed).toBe(2)
  })
})

it('rule 2: a record listed twice in one poll counts once', () => {
  const j = judgePage(EMPTY_STATE, [rec('mc-3', T), rec('mc-3', T), rec('mc-2', T)], new Set(['mc-2']))
  expect(ids(j.fresh)).toEqual(['mc-3'])
  expect(j.reachedKnown).toBe(false)
})

it('rule 3: a remembered id is seen, and paging stops there', () => {
  const j = judgePage(stateWith([['mc-1', T]]), [rec('mc-2', T + 1), rec('mc-1', T)], new Set())
  expect(ids(j.fresh)).toEqual(['mc-2'])
  expect(j.reachedKnown).toBe(true)
})

it('rule 4: a dated record before the floor is old, its id forgotten or not', () => {
  const j = judgePage(stateWith([['mc-9', T]], T - 1000), [rec('mc-10', T + 5), rec('mc-3', T - 1001)], new Set())
  expect(ids(j.fresh)).toEqual(['mc-10'])
  expect(j.reachedKnown).toBe(true)
})

it('rule 5: an undated record below a seen one is old; above it, new', () => {
  const j = judgePage(
    stateWith([['mc-5', T]]),
    [rec('mc-7', undefined), rec('mc-5', T), rec('mc-4', undefined)],
    new Set(),
  )
  expect(ids(j.fresh)).toEqual(['mc-7'])
})

it('rule 6: a late arrival below a seen record is still new while within the floor', () => {
  const j = judgePage(stateWith([['mc-5', T]], T - WINDOW_MS), [rec('mc-5', T), rec('mc-6', T - 60_000)], new Set())
  expect(ids(j.fresh)).toEqual(['mc-6'])
})

describe('rule 7: when paging stops', () => {
  const page = (reachedKnown: boolean) => ({ fresh: [], reachedKnown, malformed: 0 })
  it('at a seen or old record, at the last page, at the cap, or after the first page of a first start', () => {
    expect(nextStep(page(true), true, 1, false)).toBe('done')
    expect(nextStep(page(false), false, 1, false)).toBe('done')
    expect(nextStep(page(false), true, 1, false)).toBe('next')
    expect(nextStep(page(false), true, 20, false, 20)).toBe('capped')
    expect(nextStep(page(false), true, 1, true)).toBe('done')
  })
})

describe('rule 8: what is handed over', () => {
  it('new calls oldest first; calls to another number ignored', () => {
    const fresh = [call('mc-4', T + 3), call('mc-3', T + 2, '+1 (555) 019-9999'), call('mc-2', T + 1, '918033333333')]
    const h = handover(fresh, '15550199999', T + 10)
    expect(ids(h.calls)).toEqual(['mc-3', 'mc-4'])
    expect(ids(h.ignored)).toEqual(['mc-2'])
  })

  it('every call when no number is set; an undated call is dated by the poll', () => {
    const h = handover([call('mc-2', undefined), call('mc-1', T)], undefined, T + 10)
    expect(h.calls).toEqual([
      { id: 'mc-1', at: T, caller: '+919800000001', called: '15550199999' },
      { id: 'mc-2', at: T + 10, caller: '+919800000001', called: '15550199999' },
    ])
  })
})

describe('rule 9: what is remembered', () => {
  it('the cursor is the newest call; the floor follows it; ids older than the floor go', () => {
    const first = remember(stateWith([['mc-1', T]]), [call('mc-2', T + 1000)], true)
    expect(first).toMatchObject({ cursor: T + 1000, floor: T + 1000 - WINDOW_MS })
    expect([...first.ids.keys()]).toEqual(['mc-1', 'mc-2'])
    const later = remember(first, [call('mc-3', T + WINDOW_MS + 500)], true)
    expect([...later.ids.keys()]).toEqual(['mc-2', 'mc-3'])
    // mc-1, forgotten, is still old by the floor.
    expect(judgePage(later, [rec('mc-1', T)], new Set()).fresh).toEqual([])
  })

  it(`at most ${MAX_IDS} ids: the oldest go and the floor rises past them`, () => {
    const fresh = Array.from({ length: MAX_IDS + 5 }, (_, i) => call(`mc-${i}`, T + i)).reverse()
    const s = remember(undefined, fresh, true)
    expect(s.ids.size).toBe(MAX_IDS)
    expect(s.ids.has('mc-4')).toBe(false)
    expect(s.floor).toBe(T + 5)
    expect(judgePage(s, [rec('mc-4', T + 4)], new Set()).fresh).toEqual([])
  })

  it('calls kept by id alone when the API dates none', () => {
    const s = remember(undefined, [call('mc-2', undefined), call('mc-1', undefined)], true)
    expect(s).toMatchObject({ cursor: undefined, floor: undefined })
    expect(
      ids(judgePage(s, [rec('mc-3', undefined), rec('mc-2', undefined), rec('mc-1', undefined)], new Set()).fresh),
    ).toEqual(['mc-3'])
  })
})

it('rule 10: paging cut short (capped) leaves what lies beyond as old', () => {
  const s = remember(stateWith([['mc-1', T]]), [call('mc-9', T + 9000), call('mc-8', T + 8000)], false)
  expect(s.floor).toBe(T + 8000)
  expect(judgePage(s, [rec('mc-5', T + 5000)], new Set()).fresh).toEqual([])
})

it('rule 11: a first start remembers the first page, so the next poll hands over only what came after', () => {
  const page1 = judgePage(EMPTY_STATE, [rec('mc-2', T + 1), rec('mc-1', T)], new Set())
  const s = remember(undefined, page1.fresh, false)
  const next = judgePage(s, [rec('mc-3', T + 2), rec('mc-2', T + 1), rec('mc-1', T)], new Set())
  expect(ids(next.fresh)).toEqual(['mc-3'])
  // Page 2 of the first start's listing was never read: older than the page read, so old.
  expect(judgePage(s, [rec('mc-0', T - 1)], new Set()).fresh).toEqual([])
})

describe('the stored state', () => {
  it('round-trips through JSON', () => {
    const s = remember(undefined, [call('mc-2', undefined), call('mc-1', T)], true)
    const back = stateOfStored(JSON.parse(JSON.stringify(storedOf(s))))
    expect(back).toEqual(s)
  })

  it('a foreign or damaged value is no state', () => {
    expect(stateOfStored(null)).toBeUndefined()
    expect(stateOfStored({ version: 2, cursor: null, floor: null, seen: [] })).toBeUndefined()
    expect(stateOfStored({ version: 1, cursor: null, floor: null, seen: [[1, 2]] })).toBeUndefined()
  })
})
