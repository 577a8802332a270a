// The shapes of people and on-call schedules (layers, rotations, overrides).
import { DURATION_PATTERN } from '../values/duration'
import type { ObjectShape } from './shape'
import { checkLocalDate, checkRotation, checkWrittenInstant, rotationPattern } from '../values/time-values'
import { checkChatNumber, checkEmail, checkPhone } from '../values/value-checks'
import {
  field,
  required,
  string,
  name,
  duration,
  names,
  object,
  withOneOf,
  timeZone,
  clock,
  weekday,
} from './shape-parts'
import { time } from './rule-shape'

export const layerShape = object({
  name: required(name, 'unique in its schedule; `oncall: <schedule>/<layer>` names it'),
  users: required(names('person names'), 'people (from `people`) who take turns, in order'),
  rotation: required(
    string({ check: checkRotation, json: { pattern: rotationPattern(DURATION_PATTERN) } }),
    'length of a turn: daily, weekly, or "every <duration>" (at least 1m)',
  ),
  handoff: field(clock, 'local time turns change, "HH:MM"', { default: '09:00' }),
  handoff_day: field(weekday, 'weekday turns change; weekly only', { default: 'monday' }),
  start: required(
    string({ check: checkLocalDate, json: { format: 'date' } }),
    'local date "YYYY-MM-DD" the first user\'s turn begins (at the handoff time)',
  ),
  time_zone: field(timeZone, "IANA time zone of handoff and start; default: the schedule's"),
})

export const overrideShape = object({
  user: required(string(), 'person (from `people`) on call instead'),
  from: required(
    string({ check: checkWrittenInstant }),
    'start, "YYYY-MM-DDTHH:MM" in the schedule\'s time zone (or with Z or an offset)',
  ),
  to: required(string({ check: checkWrittenInstant }), 'end (exclusive), after from'),
  layer: field(string(), 'layer overridden; default: the first'),
})

export const scheduleShape = object({
  time_zone: field(timeZone, 'IANA time zone of its layers and overrides', { default: 'UTC' }),
  layers: required(
    { kind: 'list', items: layerShape, minItems: 1 },
    "rotations; the first is the schedule's own (`oncall: <schedule>`)",
  ),
  overrides: field({ kind: 'list', items: overrideShape }, 'someone on call instead, for a while (leave, swaps)', {
    default: [],
  }),
})

/** Matchers an inhibition rule's incidents must match: at least one. */
export const personShape: ObjectShape = withOneOf(
  ['phone', 'email', 'chat'],
  object({
    phone: field(
      string({ check: checkPhone }),
      'phone number: SMS and voice channels reach it, chat channels too without `chat`; missed calls from it ' +
        'acknowledge',
    ),
    email: field(string({ check: checkEmail, json: { format: 'email' } }), 'e-mail address, for mail channels'),
    chat: field(string({ check: checkChatNumber }), 'chat number with country prefix; default: phone'),
  }),
)
