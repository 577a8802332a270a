// The building blocks of the config's shape (shape.ts): field helpers and the value shapes many
// sections share (names, templates, matchers, wall-clock values, active hours).
import { ConfigErrorCodes } from '../errors'
import type { Field, ObjectShape, Shape, StringShape } from './shape'
import { checkClock, checkWeekday, WEEKDAYS } from '../values/time-values'
import {
  checkDotPath,
  checkMatchValue,
  checkName,
  checkOncallRef,
  checkTemplate,
  checkTimeZone,
  checkUrl,
} from '../values/value-checks'

export const field = (shape: Shape, description: string, extra: Omit<Field, 'shape' | 'description'> = {}): Field => ({
  shape,
  description,
  ...extra,
})
export const required = (shape: Shape, description: string): Field => field(shape, description, { required: true })

export const string = (extra: Omit<StringShape, 'kind'> = {}): StringShape => ({ kind: 'string', ...extra })
export const url = string({ check: checkUrl, json: { format: 'uri' } })
export const secret = string({ secret: true })
export const name = string({ check: checkName })
export const template = string({ check: checkTemplate, code: ConfigErrorCodes.TEMPLATE })
export const duration: Shape = { kind: 'duration' }
// References to sources and channels: the YAML checks them against what it declares; a target's
// rules may name sources and channels of other targets, spelt any way.
export const names = (description: string): Shape => ({
  kind: 'list',
  items: string(),
  minItems: 1,
  single: true,
  description,
})
export const object = (fields: Record<string, Field>, description?: string): ObjectShape =>
  description === undefined ? { kind: 'object', fields } : { kind: 'object', fields, description }
/** An object that needs at least one of `keys` (all optional in it). */
export const withOneOf = (keys: readonly string[], shape: ObjectShape): ObjectShape => ({ ...shape, needsOneOf: keys })

/** Dot path -> value; a `/pattern/flags` string is a regular expression, anything else must be equal. */
export const matchValue: Shape = { kind: 'scalar', check: checkMatchValue, code: ConfigErrorCodes.REGEX }
export const matchers: Shape = { kind: 'map', keyCheck: checkDotPath, values: matchValue }

export const kindTemplates = (what: string): Shape => ({
  kind: 'either',
  options: [
    template,
    object({
      firing: field(template, `${what} of firing, repeat and escalated notices`),
      resolved: field(template, `${what} of resolved notices`),
      digest: field(template, `${what} of the digest sent after a budget overflow`),
    }),
  ],
})

// Schedules and active hours: wall-clock values read in an IANA time zone. The checks name the
// zone that does not exist (with a did-you-mean), a time of day that is not one, a weekday's typo.
// A time zone's check quotes the value itself (did-you-mean), hence its code.
export const timeZone = string({ check: checkTimeZone, code: ConfigErrorCodes.VALUE })
export const clock = string({ check: checkClock, json: { pattern: '^\\d{1,2}:\\d{2}$' } })
export const weekday = string({ check: checkWeekday, code: ConfigErrorCodes.VALUE, json: { enum: [...WEEKDAYS] } })
/** `oncall: ops` or `oncall: ops/secondary`. */
export const oncallRef = string({ check: checkOncallRef })

export const activeHoursEntry = object({
  time_zone: field(timeZone, 'IANA time zone the days and times are read in', { default: 'UTC' }),
  days: field(
    { kind: 'list', items: weekday, minItems: 1, single: true },
    'weekdays a range starts on: mon..sun (or monday..sunday); default: every day',
  ),
  from: field(clock, 'local time the range starts (inclusive), "HH:MM"', { default: '00:00' }),
  to: field(
    clock,
    'local time the range ends (exclusive), "HH:MM"; at or before from: the next day (00:00 to 00:00 is the whole day)',
    { default: '00:00' },
  ),
})
export const activeHours = (what: string): Field =>
  field(
    { kind: 'list', items: activeHoursEntry, minItems: 1, single: true },
    `when ${what} is active: one range or a list of them (any one will do); default: always`,
  )
