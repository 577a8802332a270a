// Which missed calls of a listing are new, when to stop paging, and what to remember, so that each
// call is handed over once, oldest first, across polls and restarts. Pure: the poller
// (missed-calls.ts) fetches the pages and keeps the state; this decides. The listing is newest first
// (`missed_record`), and a call's `created_at` is the API's clock, never ours. The rules:
// 1. A record is known by its `id`; one without a string id cannot be remembered, so it is skipped
//    (counted as malformed). `created_at` is read as epoch ms (anything Date.parse reads, or a
//    number); unreadable, the record is undated.
// 2. A record listed twice in one poll (the listing shifted while we paged) counts once.
// 3. A record whose id is remembered is seen.
// 4. A dated record created before the floor is old, seen or not: its id may have been forgotten.
// 5. An undated record listed below a seen or old record of the same page is old: newest first is
//    all we know of it.
// 6. Anything else is new. A new record below a seen one (a late arrival) is still new.
// 7. Paging stops after the page holding a seen or old record (where the previous poll left off),
//    after the last page, or after `maxPages` (capped). On a first start, after the first page.
// 8. Handed over: the new records, oldest first (the listing reversed); those to another number
//    than `calledNumber` (samePhone) are ignored, and remembered like the others.
// 9. Remembered: each new record's id with its created_at. The cursor is the newest created_at;
//    the floor follows it at WINDOW_MS; ids older than the floor are forgotten (rule 4 covers
//    them); past MAX_IDS the oldest remembered go and the floor rises past their created_at.
// 10. When paging did not reach a seen record nor the end of the listing (capped, or a first
//    start with more pages), the floor rises to the oldest dated record read: what lies beyond was
//    not read and is never handed over.
// 11. First start (no state): every record of the first page is remembered, none handed over, so
//    calls made before the agent ran cannot acknowledge its new pages.

import { samePhone } from '../messaging/validate'

/** A missed call as the poller hands it over. */
export interface MissedCall {
  id: string
  /** created_at as epoch ms (the API's clock); unreadable: the time of the poll that found it. */
  at: number
  caller: string
  called: string
}

/** A listing record as read (rule 1). */
export interface ListedCall {
  id: string
  at: number | undefined
  caller: string
  called: string
}

export interface SeenState {
  /** Newest created_at remembered (API clock, ms); undefined until a dated record is seen. */
  readonly cursor: number | undefined
  /** Dated records created before this are old (rule 4); undefined: no floor yet. */
  readonly floor: number | undefined
  /** Remembered ids -> created_at, oldest remembered first. */
  readonly ids: ReadonlyMap<string, number | undefined>
}

/** How far behind the newest call a late arrival is still taken as new (rule 9). */
export const WINDOW_MS = 2 * 60 * 60_000
/** Ids remembered at most (rule 9): more than a poll can bring (MAX_PAGES * PER_PAGE). */
export const MAX_IDS = 1000
export const PER_PAGE = 50
export const MAX_PAGES = 20

export const EMPTY_STATE: SeenState = { cursor: undefined, floor: undefined, ids: new Map() }

function readTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : at
}

/** Rule 1: a listing record as read; undefined when it has no usable id. */
export function readListedCall(record: unknown): ListedCall | undefined {
  if (typeof record !== 'object' || record === null) return undefined
  const r = record as Record<string, unknown>
  const id = r['id']
  if ((typeof id !== 'string' || id === '') && typeof id !== 'number') return undefined
  const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')
  return { id: String(id), at: readTime(r['created_at']), caller: text(r['caller']), called: text(r['called']) }
}

export interface PageJudgement {
  /** New records of the page, in listing order (newest first). */
  fresh: ListedCall[]
  /** The page holds a seen or old record (rule 7). */
  reachedKnown: boolean
  malformed: number
}

/** Rules 1-6 for one page; `readThisPoll` holds the ids already read by earlier pages of the poll. */
export function judgePage(
  state: SeenState,
  records: readonly unknown[],
  readThisPoll: ReadonlySet<string>,
): PageJudgement {
  const fresh: ListedCall[] = []
  const onPage = new Set<string>()
  let reachedKnown = false
  let malformed = 0
  for (const record of records) {
    const call = readListedCall(record)
    if (call === undefined) {
      malformed++
      continue
    }
    if (readThisPoll.has(call.id) || onPage.has(call.id)) continue
    onPage.add(call.id)
    const seen = state.ids.has(call.id)
    const old = call.at === undefined ? reachedKnown : state.floor !== undefined && call.at < state.floor
    if (seen || old) {
      reachedKnown = true
      continue
    }
    fresh.push(call)
  }
  return { fresh, reachedKnown, malformed }
}

export type PagingStep = 'next' | 'done' | 'capped'

/** Rule 7: after `pagesRead` pages, whether to read the next. */
export function nextStep(
  page: PageJudgement,
  hasMore: boolean,
  pagesRead: number,
  firstStart: boolean,
  maxPages = MAX_PAGES,
): PagingStep {
  if (page.reachedKnown || !hasMore || firstStart) return 'done'
  return pagesRead >= maxPages ? 'capped' : 'next'
}

export interface Handover {
  /** Oldest first. */
  calls: MissedCall[]
  ignored: ListedCall[]
}

/** Rule 8. `fresh` is newest first, as listed; `pollTime` dates the undated. */
export function handover(fresh: readonly ListedCall[], calledNumber: string | undefined, pollTime: number): Handover {
  const calls: MissedCall[] = []
  const ignored: ListedCall[] = []
  for (let i = fresh.length - 1; i >= 0; i--) {
    const c = fresh[i] as ListedCall
    if (calledNumber !== undefined && !samePhone(c.called, calledNumber)) ignored.push(c)
    else calls.push({ id: c.id, at: c.at ?? pollTime, caller: c.caller, called: c.called })
  }
  return { calls, ignored }
}

const maxOf = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b)

/**
 * Rules 9-11: the state after a poll read `fresh` (newest first). `complete`: paging reached a seen
 * or old record, or the end of the listing.
 */
export function remember(state: SeenState | undefined, fresh: readonly ListedCall[], complete: boolean): SeenState {
  const ids = new Map(state?.ids ?? [])
  let cursor = state?.cursor
  let floor = state?.floor
  let oldestRead: number | undefined
  for (let i = fresh.length - 1; i >= 0; i--) {
    const c = fresh[i] as ListedCall
    ids.set(c.id, c.at)
    cursor = maxOf(cursor, c.at)
    if (c.at !== undefined) oldestRead = oldestRead === undefined ? c.at : Math.min(oldestRead, c.at)
  }
  if (cursor !== undefined) floor = maxOf(floor, cursor - WINDOW_MS)
  if (!complete) floor = maxOf(floor, oldestRead)
  for (const [id, at] of ids) {
    if (ids.size <= MAX_IDS) break
    ids.delete(id)
    if (at !== undefined) floor = maxOf(floor, at + 1)
  }
  if (floor !== undefined) {
    for (const [id, at] of ids) if (at !== undefined && at < floor) ids.delete(id)
  }
  return { cursor, floor, ids }
}

// ---- the state as stored (<state_dir>/missed-calls.json) --------------------------------------

export interface StoredSeenState {
  version: 1
  cursor: number | null
  floor: number | null
  /** [id, created_at or null], oldest remembered first. */
  seen: Array<[string, number | null]>
}

export function storedOf(state: SeenState): StoredSeenState {
  return {
    version: 1,
    cursor: state.cursor ?? null,
    floor: state.floor ?? null,
    seen: [...state.ids].map(([id, at]) => [id, at ?? null]),
  }
}

const numberOrNull = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v))

/** The state of a stored file; undefined when the value is not one (a foreign or damaged file). */
export function stateOfStored(value: unknown): SeenState | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  if (v['version'] !== 1 || !numberOrNull(v['cursor']) || !numberOrNull(v['floor']) || !Array.isArray(v['seen']))
    return undefined
  const ids = new Map<string, number | undefined>()
  for (const entry of v['seen'] as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !numberOrNull(entry[1])) return undefined
    ids.set(entry[0], entry[1] ?? undefined)
  }
  return { cursor: v['cursor'] ?? undefined, floor: v['floor'] ?? undefined, ids }
}
