// What `--at` accepts and how `oncall` writes a time: a wall time is read on each schedule's clock
// (a time skipped by DST moves forward), an instant is the same everywhere, and a time is written
// as a clock in the schedule's zone shows it.
import { describe, expect, it } from 'vitest'
import { formatZoned, instantIn, parseAt } from '../../../agent/cli/oncall-times'

describe('--at', () => {
  it("reads a wall time (with or without seconds, or a bare date) on the schedule's clock", () => {
    const at = parseAt('2026-03-08T09:00')
    expect(at).toEqual({ kind: 'wall', wall: { year: 2026, month: 3, day: 8, hour: 9, minute: 0, second: 0 } })
    if (typeof at === 'string') throw new Error(at)
    expect(instantIn(at, 'Asia/Kolkata')).toBe(Date.parse('2026-03-08T03:30:00Z'))
    expect(instantIn(at, 'America/New_York')).toBe(Date.parse('2026-03-08T13:00:00Z'))
    const seconds = parseAt(' 2026-03-08 09:00:30 ')
    if (typeof seconds === 'string') throw new Error(seconds)
    expect(instantIn(seconds, 'UTC')).toBe(Date.parse('2026-03-08T09:00:30Z'))
    const day = parseAt('2026-03-08')
    if (typeof day === 'string') throw new Error(day)
    expect(instantIn(day, 'Europe/Berlin')).toBe(Date.parse('2026-03-07T23:00:00Z'))
  })

  it('moves a wall time that a DST change skips forward by the gap', () => {
    const skipped = parseAt('2026-03-08T02:30')
    if (typeof skipped === 'string') throw new Error(skipped)
    // 02:30 does not exist in New York that night: it is 03:30 EDT.
    expect(instantIn(skipped, 'America/New_York')).toBe(Date.parse('2026-03-08T07:30:00Z'))
  })

  it('reads an instant with Z or an offset, and epoch milliseconds, the same on every clock', () => {
    const instant = Date.parse('2026-03-08T03:30:00Z')
    for (const text of [
      '2026-03-08T03:30Z',
      '2026-03-08T03:30:00z',
      '2026-03-08T09:00+05:30',
      '2026-03-08T09:00+0530',
      '1772940600000',
    ]) {
      const at = parseAt(text)
      expect(at, text).toEqual({ kind: 'instant', at: instant })
      if (typeof at !== 'string') expect(instantIn(at, 'Europe/Berlin')).toBe(instant)
    }
  })

  it('refuses what it cannot read, and dates that do not exist, saying what it takes', () => {
    for (const text of [
      '',
      'now+1h',
      'tomorrow',
      '2026-3-8',
      '2026-02-29',
      '2026-04-31T09:00',
      '2026-02-30T09:00Z',
      '2026-03-08T24:00',
      '2026-03-08T09:60',
      '08/03/2026 09:00',
    ]) {
      const at = parseAt(text)
      expect(typeof at, text).toBe('string')
      expect(at).toContain("expected a wall time in the schedule's zone")
    }
  })
})

describe('times as a schedule shows them', () => {
  it("writes the weekday, date and time on the zone's clock, summer time included", () => {
    expect(formatZoned(Date.parse('2026-03-08T03:30:00Z'), 'Asia/Kolkata')).toBe('Sun 2026-03-08 09:00')
    expect(formatZoned(Date.parse('2026-03-28T08:00:00Z'), 'Europe/Berlin')).toBe('Sat 2026-03-28 09:00')
    expect(formatZoned(Date.parse('2026-03-29T07:00:00Z'), 'Europe/Berlin')).toBe('Sun 2026-03-29 09:00')
    expect(formatZoned(Date.parse('2026-01-01T00:00:00Z'), 'UTC')).toBe('Thu 2026-01-01 00:00')
  })
})
