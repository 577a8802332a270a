// A kind's hourly counts over the last 7 days (`HourlyCounts`: `[hourStartMs, count]`, oldest first). Pure
// helpers on the array the table keeps in its entries, so a stored or merged entry needs no conversion.
import type { HourlyCounts } from './types'

export const HOUR_MS = 3_600_000
/** 7 days of hours. */
export const HOURLY_BUCKETS = 168

export const hourOf = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS
/** From the first hour kept to the last. */
const SPAN_MS = (HOURLY_BUCKETS - 1) * HOUR_MS

/** Drops the buckets older than the 168 hours ending with `now`'s hour. */
export function trimHourly(hourly: HourlyCounts, now: number): void {
  const oldest = hourOf(now) - SPAN_MS
  let drop = 0
  while (drop < hourly.length && (hourly[drop]?.[0] ?? oldest) < oldest) drop++
  if (drop > 0) hourly.splice(0, drop)
}

/**
 * Adds `count` to the hour of `at`; a fleet's delta may be older than the last bucket, so it goes in
 * order. A count older than the 7 days ending with `now` is left out of the buckets (the total keeps it).
 * Returns the last bucket when the buckets now end with `now`'s hour and hold nothing older than 7 days
 * before it: while it stays the last, a count of that hour may go straight into it (the table's nodes
 * keep it so, without a call per line).
 */
export function addHourly(hourly: HourlyCounts, at: number, count: number, now: number): [number, number] | undefined {
  // hourOf inlined: this runs on every line.
  const hour = Math.floor(at / HOUR_MS) * HOUR_MS
  // Most lines: the hour of the last bucket, and nothing left to trim (the oldest bucket is within
  // the 7 days ending with that hour): the count goes in place, with no search, splice or trim.
  const last = hourly[hourly.length - 1]
  const nowHour = Math.floor(now / HOUR_MS) * HOUR_MS
  if (last !== undefined && last[0] === hour && nowHour === hour && (hourly[0]?.[0] ?? hour) >= hour - SPAN_MS) {
    last[1] += count
    return last
  }
  if (hour < nowHour - SPAN_MS) return undefined
  let index = hourly.length - 1
  while (index >= 0 && (hourly[index]?.[0] ?? 0) > hour) index--
  const bucket = hourly[index]
  if (bucket !== undefined && bucket[0] === hour) bucket[1] += count
  else hourly.splice(index + 1, 0, [hour, count])
  trimHourly(hourly, Math.max(now, at))
  const end = hourly[hourly.length - 1]
  return end !== undefined && end[0] === nowHour && hour <= nowHour ? end : undefined
}

/** The counts of the last `hours` hours ending with `now`'s, one number per hour, oldest first (sparklines). */
export function hourlySeries(hourly: HourlyCounts, now: number, hours: number): number[] {
  const last = hourOf(now)
  const series = new Array<number>(hours).fill(0)
  for (const [hour, count] of hourly) {
    const slot = hours - 1 - (last - hour) / HOUR_MS
    if (slot >= 0 && slot < hours) series[slot] = (series[slot] ?? 0) + count
  }
  return series
}
