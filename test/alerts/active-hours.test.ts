// One test per numbered rule of alerts/active-hours.ts, then daylight saving in London and New York.
// Instants are written in UTC (Date.UTC, months 1-based here) and the expectations in local time.
import { describe, expect, it } from 'vitest'
import { isActive, type ActiveHours } from '../../alerts/active-hours'

const MIN = 60_000
const SUN = 0
const MON = 1
const THU = 4
const FRI = 5
const SAT = 6

/** Epoch ms of a UTC wall time; `month` 1-12. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second)
}

/** `09:00-18:00` in `timeZone` on `days` (empty: every day). */
function hours(range: string, days: number[] = [], timeZone = 'UTC'): ActiveHours {
  const [from, to] = range.split('-').map((t) => {
    const [hour, minute] = t.split(':').map(Number)
    return { hour: hour as number, minute: minute as number }
  }) as [ActiveHours['from'], ActiveHours['to']]
  return { timeZone, days, from, to }
}

/** Minutes in [start, end) when `entries` are active: an entry's length in elapsed time. */
function activeMinutes(entries: ActiveHours[], start: number, end: number): number {
  let count = 0
  for (let at = start; at < end; at += MIN) if (isActive(entries, at)) count++
  return count
}

// 2026-01-05 is a Monday; 2026-01-09 a Friday, 2026-01-10 a Saturday.
const monday = (hour: number, minute = 0): number => utc(2026, 1, 5, hour, minute)

describe('active hours rules', () => {
  it('1. no entries: always active', () => {
    expect(isActive(undefined, monday(3))).toBe(true)
    expect(isActive([], monday(3))).toBe(true)
  })

  it('2. a list is active when any of its entries is', () => {
    const officeOrWeekend = [hours('09:00-18:00', [MON, 2, 3, THU, FRI]), hours('00:00-00:00', [SAT, SUN])]
    expect(isActive(officeOrWeekend, monday(12))).toBe(true)
    expect(isActive(officeOrWeekend, utc(2026, 1, 10, 3))).toBe(true) // Saturday night
    expect(isActive(officeOrWeekend, monday(20))).toBe(false)
  })

  it("3. the wall clock of the entry's zone, from inclusive, to exclusive", () => {
    // Asia/Kolkata is UTC+05:30 all year: 09:00-18:00 IST is 03:30-12:30 UTC.
    const office = [hours('09:00-18:00', [], 'Asia/Kolkata')]
    expect(isActive(office, monday(3, 29) + 59_999)).toBe(false)
    expect(isActive(office, monday(3, 30))).toBe(true)
    expect(isActive(office, monday(12, 29) + 59_999)).toBe(true)
    expect(isActive(office, monday(12, 30))).toBe(false)
    // UTC, the steps' default, reads the same as its IANA spelling.
    for (const at of [monday(8, 59), monday(9), monday(17, 59), monday(18)]) {
      expect(isActive([hours('09:00-18:00')], at)).toBe(isActive([hours('09:00-18:00', [], 'Etc/UTC')], at))
    }
  })

  it('4. days are local days; empty means every day', () => {
    const weekdays = [hours('09:00-18:00', [MON, 2, 3, THU, FRI])]
    expect(isActive(weekdays, monday(10))).toBe(true)
    expect(isActive(weekdays, utc(2026, 1, 4, 10))).toBe(false) // Sunday
    expect(isActive([hours('09:00-18:00')], utc(2026, 1, 4, 10))).toBe(true)
    // Sunday 20:00 UTC is Monday 01:30 in Kolkata: a Monday entry there is active.
    expect(isActive([hours('00:00-06:00', [MON], 'Asia/Kolkata')], utc(2026, 1, 4, 20))).toBe(true)
    expect(isActive([hours('00:00-06:00', [MON])], utc(2026, 1, 4, 20))).toBe(false)
  })

  it('5. from < to: within one listed day', () => {
    const lunch = [hours('12:00-13:30', [MON])]
    expect(isActive(lunch, monday(11, 59))).toBe(false)
    expect(isActive(lunch, monday(12))).toBe(true)
    expect(isActive(lunch, monday(13, 29))).toBe(true)
    expect(isActive(lunch, monday(13, 30))).toBe(false)
    expect(isActive(lunch, monday(12) + 86_400_000)).toBe(false) // Tuesday
  })

  it('6. to < from spans midnight: the early hours belong to the day the range starts on', () => {
    const fridayNight = [hours('22:00-06:00', [FRI])]
    expect(isActive(fridayNight, utc(2026, 1, 9, 21, 59))).toBe(false)
    expect(isActive(fridayNight, utc(2026, 1, 9, 22))).toBe(true) // Friday 22:00
    expect(isActive(fridayNight, utc(2026, 1, 10, 5, 59))).toBe(true) // Saturday 05:59
    expect(isActive(fridayNight, utc(2026, 1, 10, 6))).toBe(false)
    // Friday 03:00 is Thursday's night, and Saturday 22:00 is Saturday's: not listed.
    expect(isActive(fridayNight, utc(2026, 1, 9, 3))).toBe(false)
    expect(isActive(fridayNight, utc(2026, 1, 10, 22))).toBe(false)
    expect(activeMinutes(fridayNight, utc(2026, 1, 5), utc(2026, 1, 12))).toBe(8 * 60)
  })

  it('7. from == to: 24 hours from `from`; 00:00-00:00 is the whole day', () => {
    const weekend = [hours('00:00-00:00', [SAT, SUN])]
    expect(isActive(weekend, utc(2026, 1, 9, 23, 59))).toBe(false)
    expect(isActive(weekend, utc(2026, 1, 10, 0))).toBe(true)
    expect(isActive(weekend, utc(2026, 1, 11, 23, 59))).toBe(true)
    expect(isActive(weekend, utc(2026, 1, 12, 0))).toBe(false)
    const mondayShift = [hours('09:00-09:00', [MON])]
    expect(isActive(mondayShift, monday(8, 59))).toBe(false)
    expect(isActive(mondayShift, monday(9))).toBe(true)
    expect(isActive(mondayShift, monday(33))).toBe(false) // Tuesday 09:00
    expect(activeMinutes(mondayShift, utc(2026, 1, 4), utc(2026, 1, 8))).toBe(24 * 60)
  })
})

describe('active hours across daylight saving (rule 8)', () => {
  it('London office hours follow the wall clock from GMT to BST', () => {
    const office = [hours('09:00-17:00', [MON, 2, 3, THU, FRI], 'Europe/London')]
    // Friday 27 March 2026, GMT (UTC+0).
    expect(isActive(office, utc(2026, 3, 27, 8, 59))).toBe(false)
    expect(isActive(office, utc(2026, 3, 27, 9))).toBe(true)
    expect(isActive(office, utc(2026, 3, 27, 16, 59))).toBe(true)
    // Monday 30 March 2026, BST (UTC+1): 09:00 local is 08:00 UTC, 17:00 local 16:00 UTC.
    expect(isActive(office, utc(2026, 3, 30, 7, 59))).toBe(false)
    expect(isActive(office, utc(2026, 3, 30, 8))).toBe(true)
    expect(isActive(office, utc(2026, 3, 30, 16))).toBe(false)
  })

  it('a London night lasts 7 hours when the clocks go forward and 9 when they go back', () => {
    const nights = [hours('22:00-06:00', [], 'Europe/London')]
    // Night of Sat 28 -> Sun 29 March 2026: 01:00 GMT becomes 02:00 BST.
    expect(activeMinutes(nights, utc(2026, 3, 28, 12), utc(2026, 3, 29, 12))).toBe(7 * 60)
    // Night of Sat 24 -> Sun 25 October 2026: 02:00 BST becomes 01:00 GMT.
    expect(activeMinutes(nights, utc(2026, 10, 24, 12), utc(2026, 10, 25, 12))).toBe(9 * 60)
    // An ordinary night.
    expect(activeMinutes(nights, utc(2026, 5, 2, 12), utc(2026, 5, 3, 12))).toBe(8 * 60)
  })

  it('New York, falling back: the repeated hour is inside the range both times, the end is 06:00 EST', () => {
    const saturdayNight = [hours('22:00-06:00', [SAT], 'America/New_York')]
    // Sat 31 Oct 2026 22:00 EDT is 02:00 UTC on 1 Nov; 01:30 is lived at 05:30 UTC (EDT) and 06:30 UTC (EST).
    expect(isActive(saturdayNight, utc(2026, 11, 1, 1, 59))).toBe(false)
    expect(isActive(saturdayNight, utc(2026, 11, 1, 2))).toBe(true)
    expect(isActive(saturdayNight, utc(2026, 11, 1, 5, 30))).toBe(true)
    expect(isActive(saturdayNight, utc(2026, 11, 1, 6, 30))).toBe(true)
    expect(isActive(saturdayNight, utc(2026, 11, 1, 10, 59))).toBe(true)
    expect(isActive(saturdayNight, utc(2026, 11, 1, 11))).toBe(false)
    expect(activeMinutes(saturdayNight, utc(2026, 10, 31), utc(2026, 11, 2))).toBe(9 * 60)
  })

  it('New York, springing forward: a bound in the skipped hour takes effect at 03:00 EDT', () => {
    // Sun 8 March 2026: 02:00 EST (07:00 UTC) becomes 03:00 EDT.
    const early = [hours('02:30-04:00', [SUN], 'America/New_York')]
    expect(isActive(early, utc(2026, 3, 8, 6, 59))).toBe(false) // 01:59 EST
    expect(isActive(early, utc(2026, 3, 8, 7))).toBe(true) // 03:00 EDT
    expect(isActive(early, utc(2026, 3, 8, 8))).toBe(false) // 04:00 EDT
    // A range wholly inside the skipped hour does not happen that day; the next Sunday it does.
    const skipped = [hours('02:00-03:00', [SUN], 'America/New_York')]
    expect(activeMinutes(skipped, utc(2026, 3, 8), utc(2026, 3, 9))).toBe(0)
    expect(activeMinutes(skipped, utc(2026, 3, 15), utc(2026, 3, 16))).toBe(60)
  })
})
