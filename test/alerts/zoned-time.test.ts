import { describe, expect, it } from 'vitest'
import { isTimeZone, localParts, utcOfWall, zonedInstant, zoneOffset } from '../../alerts/zoned-time'

const at = (iso: string): number => Date.parse(iso)
const wall = (year: number, month: number, day: number, hour: number, minute: number) => ({
  year,
  month,
  day,
  hour,
  minute,
})

describe('localParts', () => {
  it('shows the wall clock of the zone, with the weekday', () => {
    expect(localParts(at('2026-03-08T07:30:00Z'), 'America/New_York')).toEqual({
      year: 2026,
      month: 3,
      day: 8,
      hour: 3,
      minute: 30,
      second: 0,
      weekday: 0,
    })
    expect(localParts(at('2026-01-05T03:30:15.900Z'), 'Asia/Kolkata')).toEqual({
      year: 2026,
      month: 1,
      day: 5,
      hour: 9,
      minute: 0,
      second: 15,
      weekday: 1,
    })
  })

  it('shows midnight as 00, not 24', () => {
    expect(localParts(at('2026-06-01T04:00:00Z'), 'America/New_York')).toMatchObject({ day: 1, hour: 0, minute: 0 })
  })

  it('crosses the date line with the zone', () => {
    expect(localParts(at('2026-12-31T20:00:00Z'), 'Australia/Sydney')).toMatchObject({
      year: 2027,
      month: 1,
      day: 1,
      hour: 7,
      weekday: 5,
    })
  })
})

describe('zoneOffset', () => {
  it('is east positive and follows DST', () => {
    expect(zoneOffset(at('2026-01-05T00:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * 3_600_000)
    expect(zoneOffset(at('2026-01-05T00:00:00Z'), 'America/New_York')).toBe(-5 * 3_600_000)
    expect(zoneOffset(at('2026-07-05T00:00:00Z'), 'America/New_York')).toBe(-4 * 3_600_000)
  })
})

describe('zonedInstant', () => {
  it('reads an ordinary wall time with the offset of that day', () => {
    expect(zonedInstant(wall(2026, 1, 5, 9, 0), 'Asia/Kolkata')).toBe(at('2026-01-05T03:30:00Z'))
    expect(zonedInstant(wall(2026, 7, 1, 9, 0), 'Europe/London')).toBe(at('2026-07-01T08:00:00Z'))
    expect(zonedInstant(wall(2026, 3, 8, 12, 0), 'America/New_York')).toBe(at('2026-03-08T16:00:00Z'))
  })

  it('moves a wall time skipped by spring-forward on by the gap', () => {
    expect(zonedInstant(wall(2026, 3, 8, 2, 30), 'America/New_York')).toBe(at('2026-03-08T07:30:00Z')) // 03:30 EDT
    expect(zonedInstant(wall(2026, 3, 8, 2, 0), 'America/New_York')).toBe(at('2026-03-08T07:00:00Z')) // 03:00 EDT
    expect(zonedInstant(wall(2026, 3, 29, 1, 30), 'Europe/London')).toBe(at('2026-03-29T01:30:00Z')) // 02:30 BST
    expect(zonedInstant(wall(2026, 10, 4, 2, 30), 'Australia/Sydney')).toBe(at('2026-10-03T16:30:00Z')) // 03:30 AEDT
    expect(zonedInstant(wall(2026, 9, 6, 0, 30), 'America/Santiago')).toBe(at('2026-09-06T04:30:00Z')) // 01:30 -03, midnight skipped
  })

  it('takes the earlier of a wall time repeated by fall-back', () => {
    expect(zonedInstant(wall(2026, 11, 1, 1, 30), 'America/New_York')).toBe(at('2026-11-01T05:30:00Z')) // EDT, not EST
    expect(zonedInstant(wall(2026, 10, 25, 1, 30), 'Europe/London')).toBe(at('2026-10-25T00:30:00Z')) // BST
    expect(zonedInstant(wall(2026, 4, 5, 2, 30), 'Australia/Sydney')).toBe(at('2026-04-04T15:30:00Z')) // AEDT
    expect(zonedInstant(wall(2026, 4, 4, 23, 30), 'America/Santiago')).toBe(at('2026-04-05T02:30:00Z')) // -03, before midnight comes back
  })

  it('gives the first instant a clock shows after the repeated hour', () => {
    expect(zonedInstant(wall(2026, 11, 1, 2, 0), 'America/New_York')).toBe(at('2026-11-01T07:00:00Z'))
  })

  it('is the inverse of localParts for every wall time that exists', () => {
    for (let hour = 0; hour < 24; hour += 1) {
      for (const zone of ['America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
        const instant = zonedInstant(wall(2026, 6, 15, hour, 45), zone)
        expect(localParts(instant, zone)).toMatchObject({ year: 2026, month: 6, day: 15, hour, minute: 45 })
      }
    }
  })

  it('carries fields out of range over like Date.UTC', () => {
    expect(zonedInstant(wall(2026, 1, 32, 9, 0), 'Asia/Kolkata')).toBe(
      zonedInstant(wall(2026, 2, 1, 9, 0), 'Asia/Kolkata'),
    )
    expect(zonedInstant(wall(2026, 13, 1, 0, 0), 'UTC')).toBe(at('2027-01-01T00:00:00Z'))
    expect(utcOfWall(2025, 2, 36)).toBe(at('2025-03-08T00:00:00Z')) // February of its own year (28 days)
    expect(utcOfWall(2024, 2, 36)).toBe(at('2024-03-07T00:00:00Z')) // a leap year's
  })

  it('reads years below 100 as themselves', () => {
    expect(new Date(utcOfWall(42, 1, 1)).getUTCFullYear()).toBe(42)
    expect(new Date(zonedInstant(wall(99, 12, 31, 0, 0), 'UTC')).getUTCFullYear()).toBe(99)
  })

  it('throws on a zone Intl does not know', () => {
    expect(() => zonedInstant(wall(2026, 1, 1, 0, 0), 'Mars/Olympus_Mons')).toThrow(RangeError)
  })
})

describe('isTimeZone', () => {
  it('knows IANA names, their aliases and UTC', () => {
    for (const name of ['Asia/Kolkata', 'Asia/Calcutta', 'America/New_York', 'UTC', 'Europe/London'])
      expect(isTimeZone(name)).toBe(true)
  })

  it('refuses names that are no zone', () => {
    for (const name of ['', 'Mars/Olympus_Mons', 'Asia/Kolkatta', 'IST+5']) expect(isTimeZone(name)).toBe(false)
  })
})
