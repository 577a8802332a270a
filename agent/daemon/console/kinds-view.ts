// GET /api/kinds's list from the kind table's entries, pure (`now` is an argument):
// 1. a kind is `new` when it was first seen less than 24 hours before `now`;
// 2. `hourly` holds 24 counts, one per hour, oldest first; the last is the hour that holds `now`
//    (hours start on the hour, as the table keeps them); counts of hours outside the window are left out;
// 3. `source` keeps the kinds of that source only;
// 4. sort=count: the most lines first, then the one seen last, then by id; sort=new: the one first
//    seen last first, then the most lines, then by id (the order never depends on the table's);
// 5. at most `limit` kinds; `total` counts every kind rule 3 kept.
import type { KindEntry, KindsQuery, KindView } from './kinds-types'

export const HOUR_MS = 3_600_000
export const HOURS_SHOWN = 24
const NEW_FOR_MS = HOURS_SHOWN * HOUR_MS

/** Rule 2: the last 24 hours' counts of `hourly` ([hourStart, count], any order), oldest first. */
export function lastDay(hourly: KindEntry['hourly'], now: number): number[] {
  const counts = new Array<number>(HOURS_SHOWN).fill(0)
  const currentHour = Math.floor(now / HOUR_MS)
  for (const [hourStart, count] of hourly) {
    const back = currentHour - Math.floor(hourStart / HOUR_MS)
    if (back >= 0 && back < HOURS_SHOWN) counts[HOURS_SHOWN - 1 - back] = (counts[HOURS_SHOWN - 1 - back] ?? 0) + count
  }
  return counts
}

export function kindView(entry: KindEntry, now: number): KindView {
  return {
    id: entry.id,
    source: entry.source,
    template: entry.template,
    level: entry.level,
    count: entry.count,
    firstSeen: entry.firstSeen,
    lastSeen: entry.lastSeen,
    new: now - entry.firstSeen < NEW_FOR_MS,
    hourly: lastDay(entry.hourly, now),
    hosts: [...entry.hosts],
    incident: entry.incident,
    sample: entry.sample,
  }
}

const byId = (a: KindEntry, b: KindEntry): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
const byCount = (a: KindEntry, b: KindEntry): number => b.count - a.count || b.lastSeen - a.lastSeen || byId(a, b)
const byNew = (a: KindEntry, b: KindEntry): number => b.firstSeen - a.firstSeen || b.count - a.count || byId(a, b)

export function listKinds(
  entries: Iterable<KindEntry>,
  query: KindsQuery,
  now: number,
): { items: KindView[]; total: number } {
  const kept: KindEntry[] = []
  for (const entry of entries) if (query.source === undefined || entry.source === query.source) kept.push(entry)
  kept.sort(query.sort === 'new' ? byNew : byCount)
  return { items: kept.slice(0, query.limit).map((entry) => kindView(entry, now)), total: kept.length }
}
