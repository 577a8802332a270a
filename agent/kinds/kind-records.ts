// The kinds file's records, one JSON array a line, and what each does to the kinds read back. Pure:
// the store (kind-store.ts) reads and writes them.
//
//   ["v", 1, startedAt]            the file's version and when the first start made it (kinds.learn
//                                  counts from it, so a restart while learning goes on learning)
//   ["k", entry]                   a kind whole (KindEntry): put in place of what the id had
//   ["n", id, lastSeen, count, tail]  a kind's counts moved: count and lastSeen set, and the hourly
//                                  buckets from tail's first hour on set to tail (a storm of lines
//                                  costs a few bytes a kind each flush, not the whole kind)
//   ["f", cursor]                  how far the fleet's kind counts were merged (a Redis stream id), so
//                                  a restart does not merge them twice
//   ["w", id, rule, times]         a `kind: new` rule's count toward its min_count: the times of the
//                                  kind's lines it counts, set for that rule
//   ["p", id]                      a `kind: new` rule paged the kind: paged set, nothing pending
//
// A kind whole without `paged` (a file written before the mark) is taken as paged: it was handled.
//
// Every record sets rather than adds, so a record replayed twice (a compaction racing a kill leaves
// the old file or the new, never both) changes nothing more.
import type { HourlyCounts, KindEntry, PendingNew } from '../../alerts/kinds/types'

export const KINDS_FILE_VERSION = 1
/** Hourly buckets kept: 7 days. */
export const HOURS_KEPT = 168

export type KindRecord =
  | readonly ['v', number, number]
  | readonly ['k', KindEntry]
  | readonly ['n', string, number, number, HourlyCounts]
  | readonly ['f', string]
  | readonly ['w', string, string, number[]]
  | readonly ['p', string]

const isString = (value: unknown): value is string => typeof value === 'string'
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString)
const isHourly = (value: unknown): value is HourlyCounts =>
  Array.isArray(value) &&
  value.every((pair) => Array.isArray(pair) && pair.length === 2 && isNumber(pair[0]) && isNumber(pair[1]))
const isNumbers = (value: unknown): value is number[] => Array.isArray(value) && value.every(isNumber)
const isPending = (value: unknown): value is PendingNew[] =>
  Array.isArray(value) &&
  value.every((pair) => Array.isArray(pair) && pair.length === 2 && isString(pair[0]) && isNumbers(pair[1]))
const optional = <T>(value: unknown, check: (v: unknown) => v is T): boolean => value === undefined || check(value)

/** A kind as read from JSON (where undefined fields are left out), or undefined when it is not one. */
export function entryOf(value: unknown): KindEntry | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const e = value as Record<string, unknown>
  const whole =
    isString(e.id) &&
    e.id !== '' &&
    optional(e.source, isString) &&
    isString(e.template) &&
    isStringArray(e.aliases) &&
    optional(e.level, isNumber) &&
    isNumber(e.firstSeen) &&
    isNumber(e.lastSeen) &&
    optional(e.lastResolved, isNumber) &&
    isNumber(e.count) &&
    isHourly(e.hourly) &&
    isStringArray(e.hosts) &&
    isString(e.sample) &&
    optional(e.incident, isString) &&
    typeof e.learned === 'boolean' &&
    optional(e.paged, (v): v is boolean => typeof v === 'boolean') &&
    optional(e.pending, isPending)
  if (!whole) return undefined
  return {
    id: e.id as string,
    source: e.source as string | undefined,
    template: e.template as string,
    aliases: e.aliases as string[],
    level: e.level as number | undefined,
    firstSeen: e.firstSeen as number,
    lastSeen: e.lastSeen as number,
    lastResolved: e.lastResolved as number | undefined,
    count: e.count as number,
    hourly: e.hourly as HourlyCounts,
    hosts: e.hosts as string[],
    sample: e.sample as string,
    incident: e.incident as string | undefined,
    learned: e.learned as boolean,
    // Rule of the file: a kind written before the mark was handled then.
    paged: (e.paged as boolean | undefined) ?? true,
    pending: e.pending as PendingNew[] | undefined,
  }
}

/** A line of the file as a record, or undefined when it is not one (damage: the journal keeps it aside). */
export function recordOf(value: unknown): KindRecord | undefined {
  if (!Array.isArray(value)) return undefined
  const [tag, a, b, c, d] = value as unknown[]
  if (tag === 'v' && isNumber(a) && isNumber(b) && value.length === 3) return ['v', a, b]
  if (tag === 'k' && value.length === 2) {
    const entry = entryOf(a)
    return entry === undefined ? undefined : ['k', entry]
  }
  if (tag === 'f' && isString(a) && value.length === 2) return ['f', a]
  if (tag === 'w' && isString(a) && isString(b) && isNumbers(c) && value.length === 4) return ['w', a, b, c]
  if (tag === 'p' && isString(a) && value.length === 2) return ['p', a]
  if (tag === 'n' && isString(a) && isNumber(b) && isNumber(c) && isHourly(d) && value.length === 5) {
    return ['n', a, b, c, d]
  }
  return undefined
}

/** `hourly` with the buckets from `tail`'s first hour on replaced by `tail`, the last HOURS_KEPT kept. */
export function withTail(hourly: HourlyCounts, tail: HourlyCounts): HourlyCounts {
  const from = tail[0]?.[0]
  if (from === undefined) return hourly
  const kept = hourly.filter(([hour]) => hour < from)
  const joined = kept.concat(tail.map(([hour, n]): [number, number] => [hour, n]))
  return joined.length > HOURS_KEPT ? joined.slice(joined.length - HOURS_KEPT) : joined
}

/** What the file holds once read: the kinds by id and when learning started (undefined: no version record). */
export interface KindsRead {
  kinds: Map<string, KindEntry>
  startedAt: number | undefined
  version: number | undefined
  /** The fleet's cursor (`f`), when one was written. */
  cursor?: string | undefined
}

/** A `kind: new` rule's count (`w`) or page (`p`); a kind whose whole record was lost has nothing to take it. */
function applyNewKind(
  read: KindsRead,
  record: readonly ['w', string, string, number[]] | readonly ['p', string],
): void {
  const entry = read.kinds.get(record[1])
  if (entry === undefined) return
  if (record[0] === 'p') {
    read.kinds.set(entry.id, { ...entry, paged: true, pending: undefined })
    return
  }
  const [, , rule, times] = record
  const others = (entry.pending ?? []).filter(([name]) => name !== rule)
  read.kinds.set(entry.id, { ...entry, pending: [...others, [rule, [...times]]] })
}

/** Applies one record to what was read so far; false for a record this version does not take. */
export function applyRecord(read: KindsRead, record: KindRecord): boolean {
  if (record[0] === 'v') {
    if (record[1] > KINDS_FILE_VERSION) return false
    read.version = record[1]
    read.startedAt = record[2]
    return true
  }
  if (record[0] === 'f') {
    read.cursor = record[1]
    return true
  }
  if (record[0] === 'k') {
    read.kinds.set(record[1].id, record[1])
    return true
  }
  if (record[0] === 'w' || record[0] === 'p') {
    applyNewKind(read, record)
    return true
  }
  const [, id, lastSeen, count, tail] = record
  const entry = read.kinds.get(id)
  // Counts of a kind whose whole record was lost to damage: nothing to put them on.
  if (entry === undefined) return true
  read.kinds.set(id, { ...entry, lastSeen, count, hourly: withTail(entry.hourly, tail) })
  return true
}
