// schedules: name -> layers of rotations and dated overrides, written -> the alerts' ScheduleConfig;
// and the directory `oncall:` references (of channels and escalation steps) resolve through: the
// schedule and layer must exist, and everyone who can be on call through it needs the address
// each channel that reaches them sends to.
import type { CheckContext } from '../load/check-context'
import { suggestion } from '../shape/did-you-mean'
import { ConfigErrorCodes } from '../errors'
import { normalizeOverrides } from './overrides'
import type { PeopleDirectory } from './people'
import { resolveLocated } from './references'
import { parseClock, parseLocalDate, parseRotation, parseWeekday } from '../values/time-values'
import type { LayerConfig, OncallRef, OverrideConfig, Rotation, ScheduleConfig } from '../types'
import { createNameRegistry } from './unique-names'
import { listItems, mapEntries } from '../shape/written-list'
import type { LayerInput, ScheduleInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

export const DEFAULT_SCHEDULE_ZONE = 'UTC'
export const DEFAULT_HANDOFF = '09:00'
export const DEFAULT_HANDOFF_DAY = 'monday'

export interface ScheduleDirectory {
  /** `ops` or `ops/secondary` as a reference; undefined (reported at `at`) when either is unknown. */
  resolve(written: string | undefined, at: readonly Segment[]): OncallRef | undefined
  /**
   * Checks that everyone who can be on call through `ref` (the layer's users and the people
   * overriding it) has the address `channel` sends to; a problem names the person, at `at`.
   */
  checkReach(ref: OncallRef, channel: string, at: readonly Segment[]): void
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Layer names as written, valid or not, so a broken layer is not also an unknown one. */
function writtenLayerNames(raw: unknown): string[] {
  const layers = isMapping(raw) && Array.isArray(raw.layers) ? (raw.layers as unknown[]) : []
  return layers.flatMap((layer) => (isMapping(layer) && typeof layer.name === 'string' ? [layer.name] : []))
}

function rotationOf(layer: LayerInput, at: readonly Segment[], ctx: CheckContext): Rotation | undefined {
  const written = layer.rotation === undefined ? undefined : parseRotation(layer.rotation)
  if (written === undefined) return undefined
  if (written.kind !== 'weekly') {
    if (layer.handoff_day !== undefined) {
      ctx.report(
        ConfigErrorCodes.CONFLICT,
        [...at, 'handoff_day'],
        `applies to weekly rotations only (this layer's rotation is ${layer.rotation})`,
        'key',
      )
    }
    return written
  }
  const day = parseWeekday(layer.handoff_day ?? DEFAULT_HANDOFF_DAY)
  return day === undefined ? undefined : { kind: 'weekly', day }
}

function normalizeLayer(
  layer: LayerInput,
  at: readonly Segment[],
  scheduleZone: string,
  people: PeopleDirectory,
  ctx: CheckContext,
): LayerConfig | undefined {
  const users = people.resolveEach(layer.users, [...at, 'users']).map(({ value }) => value)
  const rotation = rotationOf(layer, at, ctx)
  const handoff = parseClock(layer.handoff ?? DEFAULT_HANDOFF)
  const start = layer.start === undefined ? undefined : parseLocalDate(layer.start)
  if (
    layer.name === undefined ||
    rotation === undefined ||
    handoff === undefined ||
    start === undefined ||
    users.length === 0
  )
    return undefined
  return { name: layer.name, users, rotation, handoff, start, timeZone: layer.time_zone ?? scheduleZone }
}

function normalizeSchedule(
  name: string,
  written: ScheduleInput,
  raw: unknown,
  people: PeopleDirectory,
  ctx: CheckContext,
): ScheduleConfig {
  const at = ['schedules', name]
  const timeZone = written.time_zone ?? DEFAULT_SCHEDULE_ZONE
  const register = createNameRegistry('layer', ctx)
  const layers = listItems(written.layers, [...at, 'layers']).flatMap(({ value, path }) => {
    if (value.name !== undefined) register(value.name, [...path, 'name'])
    return normalizeLayer(value, path, timeZone, people, ctx) ?? []
  })
  const overrides = normalizeOverrides(
    written.overrides,
    [...at, 'overrides'],
    { schedule: name, timeZone, layers: writtenLayerNames(raw), people },
    ctx,
  )
  return { name, timeZone, layers, overrides }
}

export function normalizeSchedules(
  written: Record<string, ScheduleInput> | undefined,
  raw: unknown,
  people: PeopleDirectory,
  ctx: CheckContext,
): { schedules: ScheduleConfig[]; directory: ScheduleDirectory } {
  const rawSchedules = isMapping(raw) ? raw : {}
  const schedules = mapEntries(written, ['schedules']).map(({ key, value }) =>
    normalizeSchedule(key, value, rawSchedules[key], people, ctx),
  )
  return { schedules, directory: createScheduleDirectory(schedules, rawSchedules, people, ctx) }
}

function createScheduleDirectory(
  schedules: readonly ScheduleConfig[],
  raw: Record<string, unknown>,
  people: PeopleDirectory,
  ctx: CheckContext,
): ScheduleDirectory {
  const declared = Object.keys(raw)
  const byName = new Map(schedules.map((s) => [s.name, s]))
  return {
    resolve(written, at) {
      if (written === undefined) return undefined
      const [scheduleName = '', layer] = written.split('/')
      const [found] = resolveLocated(scheduleName, at, 'schedule', declared, ctx)
      if (found === undefined) return undefined
      const layers = writtenLayerNames(raw[scheduleName])
      if (layer !== undefined && !layers.includes(layer)) {
        ctx.report(
          ConfigErrorCodes.UNKNOWN_REFERENCE,
          at,
          `unknown layer "${layer}" of schedule ${scheduleName}${suggestion(layer, layers)}`,
        )
        return undefined
      }
      return { schedule: scheduleName, layer }
    },
    checkReach(ref, channel, at) {
      const schedule = byName.get(ref.schedule)
      const layerName = ref.layer ?? writtenLayerNames(raw[ref.schedule])[0]
      if (schedule === undefined || layerName === undefined) return
      const layer = schedule.layers.find((l: LayerConfig) => l.name === layerName)
      const overriding = schedule.overrides
        .filter((o: OverrideConfig) => o.layer === layerName)
        .map((o: OverrideConfig) => o.user)
      const role = `on call in ${ref.schedule}/${layerName}`
      for (const person of new Set([...(layer?.users ?? []), ...overriding]))
        people.addressFor(person, channel, at, role)
    },
  }
}
