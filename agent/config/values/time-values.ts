// The grammars of schedules and active hours: a time of day (`09:00`), a weekday (`mon`, `monday`),
// a local date (`2026-01-05`), a local date and time (`2026-03-02T09:00`, or with `Z` or an offset),
// and a rotation (`daily`, `weekly`, `every 12h`). Each has a parser the normalizer uses and a check
// the shape uses, so what passes the check always parses. Time zones are value-checks.ts'.
import { suggestion } from '../shape/did-you-mean'
import { parseDuration } from './duration'

export interface Clock {
  hour: number
  minute: number
}

export interface LocalDate {
  year: number
  month: number
  day: number
}

export type LocalDateTime = LocalDate & Clock

const CLOCK = /^(\d{1,2}):(\d{2})$/

/** `HH:MM` (24-hour; `9:00` too), or undefined. */
export function parseClock(value: string): Clock | undefined {
  const m = CLOCK.exec(value.trim())
  if (m === null) return undefined
  const hour = Number(m[1])
  const minute = Number(m[2])
  return hour < 24 && minute < 60 ? { hour, minute } : undefined
}

export function checkClock(value: string): string | undefined {
  return parseClock(value) === undefined ? 'expected a time of day "HH:MM" like "09:00" (00:00 to 23:59)' : undefined
}

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const
const WEEKDAY_NAMES: readonly string[] = [...DAY_NAMES.map((d) => d.slice(0, 3)), ...DAY_NAMES]

/** Every spelling `days` and `handoff_day` take, for editors (the JSON Schema). */
export const WEEKDAYS: readonly string[] = WEEKDAY_NAMES

/** 0 = Sunday .. 6 = Saturday, from `mon` or `monday`, or undefined. */
export function parseWeekday(value: string): number | undefined {
  const index = WEEKDAY_NAMES.indexOf(value.trim())
  return index < 0 ? undefined : index % 7
}

export function checkWeekday(value: string): string | undefined {
  if (parseWeekday(value) !== undefined) return undefined
  const hint = suggestion(value, WEEKDAY_NAMES)
  const expected = 'expected mon, tue, wed, thu, fri, sat or sun (or the full name)'
  return `unknown weekday ${JSON.stringify(value)}${hint}; ${expected}`
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  return day <= (month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number))
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** `YYYY-MM-DD`, a day that exists, or undefined. */
export function parseLocalDate(value: string): LocalDate | undefined {
  const m = DATE.exec(value.trim())
  if (m === null) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  return validDate(year, month, day) ? { year, month, day } : undefined
}

export function checkLocalDate(value: string): string | undefined {
  return parseLocalDate(value) === undefined ? 'expected a date "YYYY-MM-DD" like "2026-01-05"' : undefined
}

/** A written instant: wall time, and the offset from UTC in minutes when one was written (`Z` is 0). */
export interface WrittenInstant {
  local: LocalDateTime
  offsetMinutes: number | undefined
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{1,2}:\d{2}))?(Z|[+-]\d{2}:?\d{2})?$/i

function parseOffset(written: string | undefined): number | undefined | null {
  if (written === undefined) return undefined
  if (written.toUpperCase() === 'Z') return 0
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(written)
  if (m === null) return null
  const [hours, minutes] = [Number(m[2]), Number(m[3])]
  if (hours > 18 || minutes > 59) return null
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes)
}

/**
 * `YYYY-MM-DDTHH:MM` (a blank for the `T` too; the date alone is its 00:00), optionally followed
 * by `Z` or an offset (`+05:30`). Seconds are not taken: turns change on the minute.
 */
export function parseWrittenInstant(value: string): WrittenInstant | undefined {
  const m = DATE_TIME.exec(value.trim())
  if (m === null) return undefined
  const date = parseLocalDate(m[1] as string)
  const clock = m[2] === undefined ? { hour: 0, minute: 0 } : parseClock(m[2])
  const offsetMinutes = parseOffset(m[3])
  if (date === undefined || clock === undefined || offsetMinutes === null) return undefined
  return { local: { ...date, ...clock }, offsetMinutes }
}

export function checkWrittenInstant(value: string): string | undefined {
  return parseWrittenInstant(value) === undefined
    ? 'expected a local date and time "YYYY-MM-DDTHH:MM" like "2026-03-02T09:00" (optionally with Z or an offset ' +
        'like +05:30)'
    : undefined
}

/** What `rotation` says, before the weekday of a weekly one is known. */
export type WrittenRotation = { kind: 'daily' } | { kind: 'weekly' } | { kind: 'every'; ms: number }

/** The shortest turn: shorter ones are most likely a unit typo (`every 12s` for `every 12h`). */
export const MIN_TURN_MS = 60_000

/** `daily`, `weekly` or `every <duration>`; undefined when it is none of them. */
export function parseRotation(value: string): WrittenRotation | undefined {
  const text = value.trim()
  if (text === 'daily' || text === 'weekly') return { kind: text }
  const m = /^every\s+(.+)$/.exec(text)
  if (m === null) return undefined
  const ms = parseDuration(m[1])
  return ms === undefined ? undefined : { kind: 'every', ms }
}

export function checkRotation(value: string): string | undefined {
  const rotation = parseRotation(value)
  if (rotation === undefined) return 'expected daily, weekly or "every <duration>" like "every 12h"'
  if (rotation.kind === 'every' && rotation.ms < MIN_TURN_MS) return 'expected turns of at least 1m'
  return undefined
}

/** `every` and a duration, for editors (the JSON Schema); the duration grammar's own pattern. */
export function rotationPattern(durationPattern: string): string {
  const duration = durationPattern.replace(/^\^\\s\*/, '').replace(/\\s\*\$$/, '')
  return `^(?:daily|weekly|every\\s+${duration})$`
}
