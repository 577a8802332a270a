// active_hours (of a channel or an escalation step): one range or a list of them, written -> the
// alerts' ActiveHours. Every value was checked by the shape; a range with a value that failed is
// left out (the problem is reported, so the config is not handed out anyway).
import { parseClock, parseWeekday } from '../values/time-values'
import type { ActiveHours } from '../types'
import { listItems } from '../shape/written-list'
import type { ActiveHoursInput } from '../shape/written-types'

export const DEFAULT_ACTIVE_HOURS_ZONE = 'UTC'
const MIDNIGHT = '00:00'

function entry(written: ActiveHoursInput): ActiveHours | undefined {
  const from = parseClock(written.from ?? MIDNIGHT)
  const to = parseClock(written.to ?? MIDNIGHT)
  if (from === undefined || to === undefined) return undefined
  // Each day once, in week order: the list reads the same however it was written. None: every day.
  const days = [...new Set(listItems(written.days, []).map(({ value }) => parseWeekday(value)))]
  if (days.some((day) => day === undefined)) return undefined
  return {
    timeZone: written.time_zone ?? DEFAULT_ACTIVE_HOURS_ZONE,
    days: (days as number[]).sort((a, b) => a - b),
    from,
    to,
  }
}

/** undefined when none is written (always active). */
export function normalizeActiveHours(
  written: ActiveHoursInput | ActiveHoursInput[] | undefined,
): ActiveHours[] | undefined {
  if (written === undefined) return undefined
  return listItems(written, []).flatMap(({ value }) => entry(value) ?? [])
}
