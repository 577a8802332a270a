// What a digest (`digest:` in the agent's config, issue #29) says about one period [from, to): the kinds
// and incidents of that period, taken from the kind table's entries and the engine's incidents. Pure:
// the period is an argument, nothing here reads a clock; the renderings are digest-html.ts and
// digest-text.ts. The rules:
// 1. A kind's count in the period is the sum of its hourly counts whose hour starts in
//    [hour of `from`, hour of `to`): the table keeps whole hours, and each hour counts in one digest
//    only, the one whose start it holds (a zone half an hour off UTC starts digests mid-hour).
// 2. New: first seen within [from, to), and not seen while learning (`learned`); newest first.
// 3. Regressed: not new, an incident of it was resolved before `to`, and it was seen again after
//    that resolve within the period; most recently seen first.
// 4. Top: the kinds with a count in the period, the largest count first (ties: the id, so two
//    agents order alike); at most `top`.
// 5. Incidents: those seen within the period (first seen before `to`, last seen at or after
//    `from`), the most recently seen first; each says who acknowledged it, if anyone did.
// 6. Every list is cut at its maximum and says how many it left out; the totals count everything.
// 7. Hourly bars: one bucket per hour of rule 1; a period longer than 24
//    hours gets buckets of as many whole hours as keep them near 24 (a week: 7 hours each), so a
//    weekly digest still reads at a glance.
import type { IncidentStatus } from '../notice'
import type { HourlyCounts, KindEntry } from './types'

const HOUR_MS = 3_600_000
/** Rule 7: the period's length is split into at most this many buckets. */
export const MAX_BUCKETS = 24

export interface DigestLimits {
  top: number
  newKinds: number
  regressed: number
  incidents: number
}

export const DEFAULT_DIGEST_LIMITS: Readonly<DigestLimits> = { top: 10, newKinds: 20, regressed: 20, incidents: 30 }

/** An incident as the digest tells it (the engine's snapshot, or one resolved since, as its caller knows it). */
export interface DigestIncidentInput {
  key: string
  rule: string
  title: string
  status: IncidentStatus | 'resolved'
  firstSeen: number
  lastSeen: number
  count: number
  ack?: { by: string; at: number } | undefined
}

export interface DigestKind {
  id: string
  source: string | undefined
  template: string
  level: number | undefined
  /** Rule 1. */
  count: number
  /** All time, as the table counts it. */
  total: number
  firstSeen: number
  lastSeen: number
  hosts: string[]
  incident: string | undefined
  /** Rule 7: counts per bucket, oldest first. */
  buckets: number[]
}

export interface DigestList<T> {
  items: T[]
  /** Rule 6: how many were left out. */
  more: number
}

export interface Digest {
  from: number
  to: number
  /** Rule 7: each bucket's length. */
  bucketMs: number
  totals: { events: number; kinds: number; newKinds: number; regressed: number; incidents: number }
  newKinds: DigestList<DigestKind>
  top: DigestList<DigestKind>
  regressed: DigestList<DigestKind>
  incidents: DigestList<DigestIncidentInput>
}

const hourOf = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS

/** Rule 1. */
export function countWithin(hourly: HourlyCounts, from: number, to: number): number {
  const first = hourOf(from)
  const end = hourOf(to)
  let sum = 0
  for (const [hour, count] of hourly) if (hour >= first && hour < end) sum += count
  return sum
}

/** Rule 7: the length of a bucket of the period. */
export function bucketLengthOf(from: number, to: number): number {
  const hours = Math.max(1, (hourOf(to) - hourOf(from)) / HOUR_MS)
  return Math.ceil(hours / MAX_BUCKETS) * HOUR_MS
}

/** Rule 7. */
export function bucketsOf(hourly: HourlyCounts, from: number, to: number): number[] {
  const first = hourOf(from)
  const end = hourOf(to)
  const length = bucketLengthOf(from, to)
  const buckets = new Array<number>(Math.max(1, Math.ceil((end - first) / length))).fill(0)
  for (const [hour, count] of hourly) {
    if (hour < first || hour >= end) continue
    const index = Math.floor((hour - first) / length)
    buckets[index] = (buckets[index] ?? 0) + count
  }
  return buckets
}

function kindOf(entry: KindEntry, from: number, to: number): DigestKind {
  return {
    id: entry.id,
    source: entry.source,
    template: entry.template,
    level: entry.level,
    count: countWithin(entry.hourly, from, to),
    total: entry.count,
    firstSeen: entry.firstSeen,
    lastSeen: entry.lastSeen,
    hosts: entry.hosts,
    incident: entry.incident,
    buckets: bucketsOf(entry.hourly, from, to),
  }
}

/** Rule 2. */
export function isNewIn(entry: KindEntry, from: number, to: number): boolean {
  return !entry.learned && entry.firstSeen >= from && entry.firstSeen < to
}

/** Rule 3. */
export function isRegressedIn(entry: KindEntry, from: number, to: number): boolean {
  if (isNewIn(entry, from, to) || entry.lastResolved === undefined || entry.lastResolved >= to) return false
  return entry.lastSeen > entry.lastResolved && entry.lastSeen >= from
}

/** Rule 6. */
function cut<T>(items: readonly T[], max: number): DigestList<T> {
  return { items: items.slice(0, Math.max(0, max)), more: Math.max(0, items.length - Math.max(0, max)) }
}

const byCountThenId = (a: DigestKind, b: DigestKind): number =>
  b.count - a.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Rules 1 to 7: the digest of [from, to). */
export function digestOf(
  kinds: readonly KindEntry[],
  incidents: readonly DigestIncidentInput[],
  period: { from: number; to: number },
  limits: DigestLimits = DEFAULT_DIGEST_LIMITS,
): Digest {
  const { from, to } = period
  const fresh: DigestKind[] = []
  const back: DigestKind[] = []
  const seen: DigestKind[] = []
  for (const entry of kinds) {
    const kind = kindOf(entry, from, to)
    if (isNewIn(entry, from, to)) fresh.push(kind)
    else if (isRegressedIn(entry, from, to)) back.push(kind)
    if (kind.count > 0) seen.push(kind)
  }
  fresh.sort((a, b) => b.firstSeen - a.firstSeen)
  back.sort((a, b) => b.lastSeen - a.lastSeen)
  seen.sort(byCountThenId)
  // Rule 5.
  const during = incidents.filter((i) => i.firstSeen < to && i.lastSeen >= from).sort((a, b) => b.lastSeen - a.lastSeen)
  return {
    from,
    to,
    bucketMs: bucketLengthOf(from, to),
    totals: {
      events: seen.reduce((sum, k) => sum + k.count, 0),
      kinds: seen.length,
      newKinds: fresh.length,
      regressed: back.length,
      incidents: during.length,
    },
    newKinds: cut(fresh, limits.newKinds),
    top: cut(seen, limits.top),
    regressed: cut(back, limits.regressed),
    incidents: cut(during, limits.incidents),
  }
}
