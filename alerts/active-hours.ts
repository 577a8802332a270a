// Time-of-day routing: whether a channel or an escalation step is active at an instant. Pure: the
// instant is an argument. `ActiveHours` is the normalized form agent/config makes (and checks: a
// time zone that does not exist is its error; here an unknown zone throws Intl's RangeError).
// The rules, in order:
// 1. No entries (undefined or []): always active. A channel or step without active_hours is never
//    skipped.
// 2. A list: active when any of its entries is.
// 3. An entry is read on the wall clock of its `timeZone` at the instant: the local weekday and
//    the local time to the minute. `from` is inclusive, `to` exclusive: 09:00-18:00 is active at
//    09:00 and at 17:59:59, not at 18:00.
// 4. `days` (0 = Sunday .. 6) empty: every day. Otherwise the day a range starts on must be listed.
// 5. from < to: from `from` to `to` of one listed local day.
// 6. to < from: the range spans midnight, from `from` on a listed day to `to` the next morning. The
//    early hours belong to the day before: `{ days: [fri], from: 22:00, to: 06:00 }` is Friday 22:00
//    to Saturday 06:00, and Friday 00:00-06:00 is not in it (that is Thursday's night). One entry is
//    one shift, as a rota reads. Alertmanager's time_intervals cannot span midnight (each day is
//    taken separately, and a night is written as two ranges with shifted day lists); ours can.
// 7. from == to: 24 hours from `from` (the same reading as rule 6); 00:00-00:00 is the whole of each
//    listed day, the way to write "all day".
// 8. Daylight saving: the bounds are wall-clock times, so an entry's length in elapsed time changes
//    on the change days (22:00-06:00 lasts 7 hours the night clocks go forward, 9 the night they go
//    back). A bound inside a skipped hour takes effect at the first local time after it (02:30 on a
//    spring-forward night in New York starts at 03:00 EDT); a repeated hour is inside a range both
//    times it is lived.

import { localParts } from './zoned-time'

export interface ActiveHours {
  /** IANA name; the config's default is UTC. */
  timeZone: string
  /** 0 = Sunday .. 6 = Saturday: the days a range starts on; empty: every day. */
  days: number[]
  from: { hour: number; minute: number }
  /** Exclusive. At or before `from`: the range ends the next day (rules 6 and 7). */
  to: { hour: number; minute: number }
}

/** Local weekday and minute of the day: all an entry needs of the wall clock (zoned-time.ts reads it). */
function wallClock(at: number, timeZone: string): { weekday: number; minute: number } {
  const local = localParts(at, timeZone)
  return { weekday: local.weekday, minute: local.hour * 60 + local.minute }
}

function listed(days: readonly number[], weekday: number): boolean {
  return days.length === 0 || days.includes(weekday)
}

function entryActive(entry: ActiveHours, at: number): boolean {
  const clock = wallClock(at, entry.timeZone)
  const from = entry.from.hour * 60 + entry.from.minute
  const to = entry.to.hour * 60 + entry.to.minute
  if (from < to) return clock.minute >= from && clock.minute < to && listed(entry.days, clock.weekday)
  // Spans midnight (or a whole day): the evening part on its own day, the morning on the day before's.
  if (clock.minute >= from) return listed(entry.days, clock.weekday)
  return clock.minute < to && listed(entry.days, (clock.weekday + 6) % 7)
}

/** Whether `at` (epoch ms) falls in any of `hours`; undefined or empty: always (rule 1). */
export function isActive(hours: readonly ActiveHours[] | undefined, at: number): boolean {
  if (hours === undefined || hours.length === 0) return true
  return hours.some((entry) => entryActive(entry, at))
}
