// When the digest (`digest:`) is due and what period it covers. Pure: the agent's clock, the
// schedule and what the last digest covered (kept in state_dir: digest-state.ts) are arguments;
// digest.ts only applies the answer. The rules:
// 1. Nothing covered yet (a first start, or the state file lost): the schedule begins at the latest
//    slot at or before now and nothing is sent at once (no slot passed while the agent ran); the
//    first digest comes at the next slot and covers its whole period.
// 2. The latest slot at or before now is later than what is covered: one digest, now, covering from
//    what is covered to that slot. After a downtime that spans several slots: one digest, not one per
//    slot missed.
// 3. A period is at most MAX_PERIOD_MS (7 days: what the kind table keeps hour by hour): a longer
//    one starts that long before its end.
// 4. Otherwise: wait for the first slot after both now and what is covered (a clock set back never
//    resends a period that went out).
// 5. Slots: with `every` under a day, the local day's `at` and every `every` after it round the clock
//    (every: 6h, at: 09:00 -> 03:00, 09:00, 15:00, 21:00); with whole days, `at` every n days,
//    counted from the local day of what is covered (the first: today).
// 6. Slots are wall-clock times in `time_zone`: one DST skips is at the instant after the gap (02:30
//    on a spring-forward day in New York is 03:30 EDT), one it repeats is its first occurrence, so
//    each wall-clock slot is one digest; two slots on one instant are one.
import { localParts, utcOfWall, zonedInstant } from '../../alerts/zoned-time'

export const DAY_MS = 86_400_000
export const MAX_PERIOD_MS = 7 * DAY_MS
const MINUTE_MS = 60_000

/** The normalized `digest:` schedule (agent/config checked it: `every` divides a day or is whole days). */
export interface DigestSchedule {
  everyMs: number
  at: { hour: number; minute: number }
  timeZone: string
}

export type DigestPlan =
  { kind: 'begin'; covered: number } | { kind: 'send'; from: number; to: number } | { kind: 'wait'; until: number }

/** The local day of `at` in `timeZone`, as days since 1970-01-01. */
function dayNumberOf(at: number, timeZone: string): number {
  const p = localParts(at, timeZone)
  return Math.round(utcOfWall(p.year, p.month, p.day) / DAY_MS)
}

/** Rule 6: the instant of a wall-clock minute of a local day. */
function instantOf(day: number, minuteOfDay: number, timeZone: string): number {
  const date = new Date(day * DAY_MS)
  const wall = {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: Math.floor(minuteOfDay / 60),
    minute: minuteOfDay % 60,
  }
  return zonedInstant(wall, timeZone)
}

/** Rule 5: the slots of the local days around `t` (enough to hold the latest at or before it and the next). */
function slotsAround(schedule: DigestSchedule, t: number, anchor: number): number[] {
  const { everyMs, at, timeZone } = schedule
  const atMinute = at.hour * 60 + at.minute
  const today = dayNumberOf(t, timeZone)
  const slots: number[] = []
  if (everyMs < DAY_MS) {
    const step = everyMs / MINUTE_MS
    const first = atMinute % step
    for (let day = today - 1; day <= today + 1; day++)
      for (let minute = first; minute < 1440; minute += step) slots.push(instantOf(day, minute, timeZone))
  } else {
    const n = Math.round(everyMs / DAY_MS)
    const start = dayNumberOf(anchor, timeZone)
    const near = start + Math.floor((today - start) / n) * n
    for (const day of [near - n, near, near + n]) slots.push(instantOf(day, atMinute, timeZone))
  }
  return slots
}

/** Rules 5 and 6: the latest slot at or before `t`. */
export function latestSlot(schedule: DigestSchedule, t: number, anchor = t): number {
  return Math.max(...slotsAround(schedule, t, anchor).filter((s) => s <= t))
}

/** Rules 5 and 6: the first slot after `t`. */
export function nextSlot(schedule: DigestSchedule, t: number, anchor = t): number {
  return Math.min(...slotsAround(schedule, t, anchor).filter((s) => s > t))
}

/** Rules 1 to 4. `covered`: the end of the last digest's period (undefined: none yet). */
export function planDigest(schedule: DigestSchedule, covered: number | undefined, now: number): DigestPlan {
  if (covered === undefined) return { kind: 'begin', covered: latestSlot(schedule, now) }
  const due = latestSlot(schedule, now, covered)
  if (due > covered) return { kind: 'send', from: Math.max(covered, due - MAX_PERIOD_MS), to: due }
  const after = Math.max(now, covered)
  return { kind: 'wait', until: nextSlot(schedule, after, covered) }
}
