// Wall-clock time in an IANA time zone, with Intl (full ICU) as the only source of zone rules: no
// dependency, no clock (every instant is an argument). Instants are epoch ms; wall times are plain
// fields. Two directions:
//   localParts(at, zone)     instant -> the wall time a clock in that zone shows
//   zonedInstant(wall, zone) wall time -> instant; a wall time a DST change skipped (spring forward)
//                            moves forward by the gap (02:30 in New York on 2026-03-08 is 03:30 EDT),
//                            one it repeats (fall back) is its earlier occurrence (01:30 EDT, not EST),
//                            as Temporal's "compatible" disambiguation, java.time and RFC 5545 do.
// A zone's offset is read by formatting an instant there (about 4 us); the formatter is built once per
// zone and kept, and offsets already read are remembered (a bounded memo per zone: one schedule
// question asks for the same few instants several times). An unknown zone throws Intl's RangeError:
// configs check names with isTimeZone first.

export interface WallTime {
  year: number
  /** 1-12 */
  month: number
  day: number
  hour: number
  minute: number
}

export interface LocalParts extends WallTime {
  second: number
  /** 0 = Sunday .. 6 = Saturday */
  weekday: number
}

const DAY_MS = 86_400_000
const GREGORIAN_CYCLE_MS = 146_097 * DAY_MS

const formatters = new Map<string, Intl.DateTimeFormat>()
/** Zone -> (instant, whole seconds -> offset); cleared when full, so memory stays bounded. */
const offsets = new Map<string, Map<number, number>>()
const MEMO_PER_ZONE = 1024

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    // h23: midnight is 00, never the 24 that hour12:false gives in some ICU versions.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/**
 * Epoch ms of a wall time read as UTC; fields out of range carry over like Date.UTC (day 32 is the
 * next month's 1st).
 */
export function utcOfWall(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  // Date.UTC reads years 0-99 as 1900-1999: count from 400 years later (the Gregorian calendar
  // repeats every 400 years, leap days and weekdays alike) and step back by that cycle.
  return Date.UTC(year + 400, month - 1, day, hour, minute, second) - GREGORIAN_CYCLE_MS
}

/** The zone's wall time at `at`, read as UTC: epoch ms of whole seconds. */
function wallAsUtc(at: number, timeZone: string): number {
  let year = 1970
  let month = 1
  let day = 1
  let hour = 0
  let minute = 0
  let second = 0
  for (const part of formatterOf(timeZone).formatToParts(at)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value)
        break
      case 'month':
        month = Number(part.value)
        break
      case 'day':
        day = Number(part.value)
        break
      case 'hour':
        hour = Number(part.value)
        break
      case 'minute':
        minute = Number(part.value)
        break
      case 'second':
        second = Number(part.value)
        break
    }
  }
  return utcOfWall(year, month, day, hour, minute, second)
}

/** The zone's offset from UTC at `at`, in ms (east positive: +19 800 000 for Asia/Kolkata). */
export function zoneOffset(at: number, timeZone: string): number {
  const second = Math.floor(at / 1000) * 1000
  let memo = offsets.get(timeZone)
  if (memo === undefined) {
    memo = new Map()
    offsets.set(timeZone, memo)
  }
  let offset = memo.get(second)
  if (offset === undefined) {
    offset = wallAsUtc(second, timeZone) - second // throws before anything is kept for an unknown zone
    if (memo.size >= MEMO_PER_ZONE) memo.clear()
    memo.set(second, offset)
  }
  return offset
}

/** The wall time a clock in `timeZone` shows at `at` (seconds truncated, as a clock shows them). */
export function localParts(at: number, timeZone: string): LocalParts {
  const date = new Date(Math.floor(at / 1000) * 1000 + zoneOffset(at, timeZone))
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    weekday: date.getUTCDay(),
  }
}

/**
 * The instant a clock in `timeZone` shows `local`. Fields out of range carry over like Date.UTC (so
 * `day: day + 1` is the next day). Skipped by DST: moved forward by the gap; repeated: the earlier.
 * Assumes at most one offset change within a day either side, true of every zone since 1970.
 */
export function zonedInstant(local: WallTime, timeZone: string): number {
  const wall = utcOfWall(local.year, local.month, local.day, local.hour, local.minute)
  const before = zoneOffset(wall - DAY_MS, timeZone)
  const after = zoneOffset(wall + DAY_MS, timeZone)
  const early = wall - before
  if (before === after) return early
  // An offset change within a day of it: try each offset and keep those under which the instant
  // really shows this wall time.
  const late = wall - after
  const earlyShows = zoneOffset(early, timeZone) === before
  const lateShows = zoneOffset(late, timeZone) === after
  if (earlyShows && lateShows) return Math.min(early, late)
  if (lateShows) return late
  // earlyShows alone, or neither: the wall time fell in the gap, and read with the offset before
  // the change it lands past the gap by the gap's length.
  return early
}

/** Whether Intl knows the zone (IANA names and their aliases, any case; `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name === '') return false
  try {
    formatterOf(name)
    return true
  } catch {
    return false
  }
}
