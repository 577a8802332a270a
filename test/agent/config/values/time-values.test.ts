// The wall-clock grammars of schedules and active hours, and the time zone check.
import { describe, expect, it } from 'vitest'
import {
  checkRotation,
  checkWeekday,
  parseClock,
  parseLocalDate,
  parseRotation,
  parseWeekday,
  parseWrittenInstant,
} from '../../../../agent/config/values/time-values'
import { checkOncallRef, checkTimeZone } from '../../../../agent/config/values/value-checks'

describe('time zones', () => {
  it('accepts what Intl knows: canonical names, former names, UTC', () => {
    for (const zone of ['UTC', 'Asia/Kolkata', 'Asia/Calcutta', 'Europe/Berlin', 'America/New_York', 'Etc/GMT+5'])
      expect(checkTimeZone(zone), zone).toBeUndefined()
    for (const zone of [' ', 'Asia/Kolkatta', 'Mars/Olympus', 'IST+5'])
      expect(checkTimeZone(zone), zone).toMatch(/^unknown time zone/)
  })

  it('names the zone that does not exist, with the one meant', () => {
    expect(checkTimeZone('Asia/Kolkatta')).toBe('unknown time zone "Asia/Kolkatta" (did you mean "Asia/Kolkata"?)')
    expect(checkTimeZone('Europe/Berln')).toBe('unknown time zone "Europe/Berln" (did you mean "Europe/Berlin"?)')
    expect(checkTimeZone('Mars/Olympus')).toBe('unknown time zone "Mars/Olympus"')
    expect(checkTimeZone('Asia/Kolkata')).toBeUndefined()
  })
})

describe('wall-clock values', () => {
  it('times of day: HH:MM, 00:00 to 23:59', () => {
    expect([parseClock('09:00'), parseClock('9:05'), parseClock('23:59'), parseClock('00:00')]).toEqual([
      { hour: 9, minute: 0 },
      { hour: 9, minute: 5 },
      { hour: 23, minute: 59 },
      { hour: 0, minute: 0 },
    ])
    for (const bad of ['24:00', '12:60', '9am', '0900', '09:00:00', '']) expect(parseClock(bad), bad).toBeUndefined()
  })

  it('weekdays: short and full names, Sunday 0', () => {
    expect(['sun', 'mon', 'sat', 'sunday', 'wednesday'].map(parseWeekday)).toEqual([0, 1, 6, 0, 3])
    expect(parseWeekday('Mon')).toBeUndefined()
    expect(checkWeekday('tues')).toBe(
      'unknown weekday "tues" (did you mean "tue"?); expected mon, tue, wed, thu, fri, sat or sun (or the full name)',
    )
  })

  it('dates that exist', () => {
    expect(parseLocalDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 })
    for (const bad of ['2026-02-29', '2026-13-01', '2026-04-31', '2026-1-5', '05-01-2026'])
      expect(parseLocalDate(bad), bad).toBeUndefined()
  })

  it('instants: local wall time, or with Z or an offset', () => {
    expect(parseWrittenInstant('2026-03-02T09:00')).toEqual({
      local: { year: 2026, month: 3, day: 2, hour: 9, minute: 0 },
      offsetMinutes: undefined,
    })
    expect(parseWrittenInstant('2026-03-02 9:30')).toMatchObject({ local: { hour: 9, minute: 30 } })
    expect(parseWrittenInstant('2026-03-02')).toMatchObject({ local: { hour: 0, minute: 0 }, offsetMinutes: undefined })
    expect(parseWrittenInstant('2026-03-02T09:00Z')?.offsetMinutes).toBe(0)
    expect(parseWrittenInstant('2026-03-02T09:00+05:30')?.offsetMinutes).toBe(330)
    expect(parseWrittenInstant('2026-03-02T09:00-0400')?.offsetMinutes).toBe(-240)
    for (const bad of [
      '2026-03-02T25:00',
      '2026-02-30T09:00',
      '2026-03-02T09:00:30',
      'next monday',
      '2026-03-02T09:00+25:00',
    ]) {
      expect(parseWrittenInstant(bad), bad).toBeUndefined()
    }
  })

  it('rotations: daily, weekly, every <duration> of at least a minute', () => {
    expect(['daily', 'weekly', 'every 12h', 'every 1h30m', 'every 1m'].map(parseRotation)).toEqual([
      { kind: 'daily' },
      { kind: 'weekly' },
      { kind: 'every', ms: 43_200_000 },
      { kind: 'every', ms: 5_400_000 },
      { kind: 'every', ms: 60_000 },
    ])
    for (const bad of ['monthly', 'every', 'every 12', 'every twelve hours', '12h'])
      expect(parseRotation(bad), bad).toBeUndefined()
    expect(checkRotation('every 30s')).toBe('expected turns of at least 1m')
    expect(checkRotation('every 1m')).toBeUndefined()
  })

  it('on-call references: a schedule, or schedule/layer', () => {
    for (const ok of ['ops', 'ops/secondary', 'team.eu/night_1']) expect(checkOncallRef(ok), ok).toBeUndefined()
    for (const bad of ['ops/', '/primary', 'ops/primary/x', 'ops primary'])
      expect(checkOncallRef(bad), bad).toBe('expected a schedule name, or schedule/layer like "ops/secondary"')
  })
})
