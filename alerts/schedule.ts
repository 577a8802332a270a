// On-call schedules: who of a layer's users is on call at an instant, and when that changes. Pure:
// the instant is an argument, zones come from zoned-time.ts. A layer is a rotation of turns; the
// rules, in order:
// 1. Turn 0 begins at `start` (a local date) at the handoff time, in the layer's zone. Instants before
//    it belong to turn 0 too: before the schedule starts its first user is on call (never nobody).
// 2. daily: turn k begins k local days after start, at the handoff wall time, so a turn lasts 23, 24
//    or 25 hours across a DST change.
// 3. weekly: turn 1 begins on the first handoff_day after start, at the handoff time, and each later
//    turn 7 local days after the one before; a start that is not a handoff_day makes turn 0 shorter
//    than a week.
// 4. every <d>: turn k begins k * d of elapsed time after start+handoff, whatever the local clock says.
// 5. Users take turns in order and cycle: turn k is users[k mod n].
// 6. A handoff wall time that a DST change skips (spring forward) happens that much later, at the
//    instant zonedInstant gives (02:30 -> 03:30 EDT); one that a DST change repeats (fall back)
//    happens at its first occurrence (01:30 EDT, not EST).
// 7. An override puts its user on call in its layer for [from, to), whoever's turn it is; of
//    overlapping overrides the later in the list wins (validate reports them: overlappingOverrides).
// 8. Every turn and override is half-open, [begin, end): at the very instant of a handoff the new
//    person is on call.
// 9. A change is an instant where the person differs from the one just before. A handoff to the
//    person already on call (a user listed twice running, an override for them, a layer of one user)
//    is none. onCallAt's `until` is the next change (Infinity: the person never changes);
//    handoffs() lists the changes after an instant.
// 10. Layer undefined: the schedule's first layer. An unknown layer, or a layer without users (the
//    config refuses both): onCallAt gives undefined and handoffs [].
// Cost: onCallAt is a few zone look-ups (turn index in closed form, no walk from start) plus a pass
// over the layer's overrides; handoffs() the same per change.
import { localParts, utcOfWall, zonedInstant } from './zoned-time'

export type Rotation =
  { kind: 'daily' } | { kind: 'weekly'; day: number /* 0=Sunday..6 */ } | { kind: 'every'; ms: number }

export interface LayerConfig {
  name: string
  users: string[]
  rotation: Rotation
  /** Local wall time of the handoff (for `every`: of the first turn's start). */
  handoff: { hour: number; minute: number }
  /** The local date turn 0 begins (at the handoff). */
  start: { year: number; month: number; day: number }
  timeZone: string
}

/** `from` and `to` are epoch ms; `layer` a layer name (the config fills in the first layer's). */
export interface OverrideConfig {
  user: string
  from: number
  to: number
  layer: string
}

export interface ScheduleConfig {
  name: string
  /** Default zone of its layers and overrides (config applies it; the arithmetic reads the layer's). */
  timeZone: string
  layers: LayerConfig[]
  overrides: OverrideConfig[]
}

/** `oncall: ops` or `oncall: ops/secondary`. */
export interface OncallRef {
  schedule: string
  /** undefined: the first layer */
  layer: string | undefined
}

export interface OnCall {
  user: string
  layer: string
  /** The next instant this layer's person changes; Infinity when never. */
  until: number
  /** The person is there by an override. */
  override: boolean
}

export interface Handoff {
  at: number
  user: string
  layer: string
  override: boolean
}

const DAY_MS = 86_400_000

function layerOf(schedule: ScheduleConfig, name: string | undefined): LayerConfig | undefined {
  const layer = name === undefined ? schedule.layers[0] : schedule.layers.find((candidate) => candidate.name === name)
  return layer !== undefined && layer.users.length > 0 ? layer : undefined
}

function overridesOf(schedule: ScheduleConfig, layer: string): OverrideConfig[] {
  return schedule.overrides.filter((override) => override.layer === layer && override.from < override.to)
}

/** Whole days from the epoch to a local date (calendar arithmetic only, no zone). */
function dayNumber(year: number, month: number, day: number): number {
  return Math.round(utcOfWall(year, month, day) / DAY_MS)
}

/** The handoff instant on the day `offset` local days after the layer's start (rules 2, 3, 6). */
function handoffOn(layer: LayerConfig, offset: number): number {
  const { year, month, day } = layer.start
  return zonedInstant(
    { year, month, day: day + offset, hour: layer.handoff.hour, minute: layer.handoff.minute },
    layer.timeZone,
  )
}

/** Days from start to turn 1 of a weekly layer: the first handoff_day after start (rule 3). */
function firstWeeklyTurn(layer: LayerConfig, day: number): number {
  const startDay = dayNumber(layer.start.year, layer.start.month, layer.start.day)
  const startWeekday = (((startDay + 4) % 7) + 7) % 7 // 1970-01-01 was a Thursday
  return (((day - startWeekday) % 7) + 7) % 7 || 7
}

function everyMs(rotation: Rotation): number | undefined {
  return rotation.kind === 'every' && Number.isFinite(rotation.ms) && rotation.ms > 0 ? rotation.ms : undefined
}

/** Local days from start to the last handoff day whose handoff is at or before `at` (may be negative). */
function daysIntoRotation(layer: LayerConfig, at: number): number {
  const local = localParts(at, layer.timeZone)
  let days =
    dayNumber(local.year, local.month, local.day) - dayNumber(layer.start.year, layer.start.month, layer.start.day)
  // Today's handoff not yet reached: yesterday's (or, after a gap longer than a day, earlier) holds.
  while (handoffOn(layer, days) > at) days -= 1
  return days
}

/** The turn `at` falls in (rules 1-4, 8). */
function turnAt(layer: LayerConfig, at: number): number {
  const rotation = layer.rotation
  if (rotation.kind === 'every') {
    const ms = everyMs(rotation)
    const first = handoffOn(layer, 0)
    return ms === undefined || at < first ? 0 : Math.floor((at - first) / ms)
  }
  const days = daysIntoRotation(layer, at)
  if (rotation.kind === 'daily') return Math.max(0, days)
  const first = firstWeeklyTurn(layer, rotation.day)
  return days < first ? 0 : 1 + Math.floor((days - first) / 7)
}

/** The instant turn k >= 1 begins (rules 2-4, 6); Infinity for a rotation that never turns. */
function turnStart(layer: LayerConfig, turn: number): number {
  const rotation = layer.rotation
  if (rotation.kind === 'daily') return handoffOn(layer, turn)
  if (rotation.kind === 'weekly') return handoffOn(layer, firstWeeklyTurn(layer, rotation.day) + 7 * (turn - 1))
  const ms = everyMs(rotation)
  return ms === undefined ? Number.POSITIVE_INFINITY : handoffOn(layer, 0) + turn * ms
}

function userOfTurn(layer: LayerConfig, turn: number): string {
  return layer.users[turn % layer.users.length] as string // users is not empty (layerOf)
}

/** Who is on call at `at` and why (rules 5, 7). */
function personAt(
  layer: LayerConfig,
  overrides: readonly OverrideConfig[],
  at: number,
): { user: string; override: boolean } {
  for (let index = overrides.length - 1; index >= 0; index -= 1) {
    const override = overrides[index] as OverrideConfig
    if (override.from <= at && at < override.to) return { user: override.user, override: true }
  }
  return { user: userOfTurn(layer, turnAt(layer, at)), override: false }
}

/** The first handoff after `after` to a rotation user other than `user`, or undefined (rule 9). */
function nextRotationChange(layer: LayerConfig, after: number, user: string): { at: number; user: string } | undefined {
  const users = layer.users
  if (users.every((candidate) => candidate === user)) return undefined
  let turn = turnAt(layer, after) + 1
  // Within n turns some other user comes; the margin covers turns a zone change left no time (a
  // skipped day: that turn begins and ends at one instant, and turnAt names the one that holds).
  for (let step = 0; step < 2 * users.length + 2; step += 1) {
    const at = turnStart(layer, turn)
    if (!Number.isFinite(at)) return undefined
    const holding = at > after ? turnAt(layer, at) : turn
    const next = userOfTurn(layer, holding)
    if (at > after && next !== user) return { at, user: next }
    turn = Math.max(turn, holding) + 1
  }
  return undefined
}

/** The first override boundary (from or to) after `after`. */
function nextBoundary(overrides: readonly OverrideConfig[], after: number): number {
  let next = Number.POSITIVE_INFINITY
  for (const override of overrides) {
    if (override.from > after && override.from < next) next = override.from
    if (override.to > after && override.to < next) next = override.to
  }
  return next
}

/** The next change of the layer's person after `after` (rules 7-9). */
function nextChange(layer: LayerConfig, overrides: readonly OverrideConfig[], after: number): Handoff | undefined {
  const current = personAt(layer, overrides, after)
  // Between two override boundaries the covering override is one and the same: the person is its
  // user throughout, or the rotation's, which changes only at handoffs.
  let cursor = after
  for (;;) {
    const boundary = nextBoundary(overrides, cursor)
    const person = cursor > after ? personAt(layer, overrides, cursor) : current
    if (person.user !== current.user)
      return { at: cursor, user: person.user, layer: layer.name, override: person.override }
    if (!person.override) {
      const change = nextRotationChange(layer, cursor, current.user)
      if (change !== undefined && change.at < boundary)
        return { at: change.at, user: change.user, layer: layer.name, override: false }
    }
    if (!Number.isFinite(boundary)) return undefined
    cursor = boundary
  }
}

/** Who is on call in the layer (undefined: the first) at `at`, until when, and whether by an override. */
export function onCallAt(schedule: ScheduleConfig, layer: string | undefined, at: number): OnCall | undefined {
  const found = layerOf(schedule, layer)
  if (found === undefined) return undefined
  const overrides = overridesOf(schedule, found.name)
  const person = personAt(found, overrides, at)
  const until = nextChange(found, overrides, at)?.at ?? Number.POSITIVE_INFINITY
  return { user: person.user, layer: found.name, until, override: person.override }
}

/**
 * The next `count` (a small number: each is computed) changes of the layer's person after `from` (not
 * at it), in order.
 */
export function handoffs(schedule: ScheduleConfig, layer: string | undefined, from: number, count: number): Handoff[] {
  const found = layerOf(schedule, layer)
  if (found === undefined) return []
  const overrides = overridesOf(schedule, found.name)
  const changes: Handoff[] = []
  let after = from
  while (changes.length < count) {
    const change = nextChange(found, overrides, after)
    if (change === undefined) break
    changes.push(change)
    after = change.at
  }
  return changes
}

/** Index pairs [i, j] (i < j, into schedule.overrides) of overrides of one layer whose spans overlap. */
export function overlappingOverrides(schedule: ScheduleConfig): [number, number][] {
  const pairs: [number, number][] = []
  const spans = schedule.overrides
    .map((override, index) => ({ override, index }))
    .filter(({ override }) => override.from < override.to)
    .sort((a, b) => a.override.from - b.override.from || a.index - b.index)
  for (const [position, { override, index }] of spans.entries()) {
    for (const other of spans.slice(position + 1)) {
      if (other.override.from >= override.to) break
      if (other.override.layer === override.layer)
        pairs.push(index < other.index ? [index, other.index] : [other.index, index])
    }
  }
  return pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1])
}
