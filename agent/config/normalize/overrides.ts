// A schedule's overrides: someone on call instead of a layer's rotation, from one instant to
// another. Times are wall times in the schedule's zone unless written with `Z` or an offset; they
// become epoch ms here, and two overrides of one layer must not overlap (which of them would be on
// call is then a guess): the later one in the list is the problem, naming the earlier. What overlaps
// is the schedule arithmetic's to say (alerts' overlappingOverrides), not a second rule here.
import { overlappingOverrides, zonedInstant } from '../../../alerts'
import type { CheckContext } from '../load/check-context'
import { suggestion } from '../shape/did-you-mean'
import { ConfigErrorCodes } from '../errors'
import type { PeopleDirectory } from './people'
import { parseWrittenInstant, type WrittenInstant } from '../values/time-values'
import type { OverrideConfig } from '../types'
import { listItems } from '../shape/written-list'
import type { OverrideInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

/** Epoch ms of a written instant: its own offset, else its wall time in `timeZone`. */
export function instantOf(written: WrittenInstant, timeZone: string): number {
  const { year, month, day, hour, minute } = written.local
  if (written.offsetMinutes !== undefined)
    return Date.UTC(year, month - 1, day, hour, minute) - written.offsetMinutes * 60_000
  // A wall time skipped by a daylight-saving change moves forward by the gap; a repeated one is its first occurrence.
  return zonedInstant({ year, month, day, hour, minute }, timeZone)
}

export interface OverrideScope {
  schedule: string
  timeZone: string
  /** The schedule's layer names as written (broken layers too), the first the default. */
  layers: readonly string[]
  people: PeopleDirectory
}

interface Kept {
  override: OverrideConfig
  index: number
  written: OverrideInput
}

function normalizeOverride(
  written: OverrideInput,
  at: readonly Segment[],
  scope: OverrideScope,
  ctx: CheckContext,
): OverrideConfig | undefined {
  const [user] = scope.people.resolveEach(written.user, [...at, 'user'])
  const layer = written.layer ?? scope.layers[0]
  if (written.layer !== undefined && !scope.layers.includes(written.layer)) {
    ctx.report(
      ConfigErrorCodes.UNKNOWN_REFERENCE,
      [...at, 'layer'],
      `unknown layer "${written.layer}" of schedule ${scope.schedule}${suggestion(written.layer, scope.layers)}`,
    )
    return undefined
  }
  const from = written.from === undefined ? undefined : parseWrittenInstant(written.from)
  const to = written.to === undefined ? undefined : parseWrittenInstant(written.to)
  if (from === undefined || to === undefined || layer === undefined) return undefined
  const fromMs = instantOf(from, scope.timeZone)
  const toMs = instantOf(to, scope.timeZone)
  if (toMs <= fromMs) {
    ctx.report(ConfigErrorCodes.VALUE, [...at, 'to'], `must be after from (${written.from})`)
    return undefined
  }
  return user === undefined ? undefined : { user: user.value, from: fromMs, to: toMs, layer }
}

export function normalizeOverrides(
  written: OverrideInput[] | undefined,
  at: readonly Segment[],
  scope: OverrideScope,
  ctx: CheckContext,
): OverrideConfig[] {
  const kept: Kept[] = []
  for (const { value, path } of listItems(written, at)) {
    const override = normalizeOverride(value, path, scope, ctx)
    if (override !== undefined) kept.push({ override, index: path[path.length - 1] as number, written: value })
  }
  const overrides = kept.map(({ override }) => override)
  // Each override that overlaps an earlier one, once, naming the first of them.
  const firstEarlier = new Map<number, number>()
  for (const [i, j] of overlappingOverrides({
    name: scope.schedule,
    timeZone: scope.timeZone,
    layers: [],
    overrides,
  })) {
    if (!firstEarlier.has(j) || i < (firstEarlier.get(j) as number)) firstEarlier.set(j, i)
  }
  for (const [j, i] of [...firstEarlier].sort(([a], [b]) => a - b)) {
    const earlier = kept[i] as Kept
    const { user, from, to } = earlier.written
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...at, (kept[j] as Kept).index],
      `overlaps overrides[${earlier.index}] (${user}, ${from} to ${to})`,
    )
  }
  return overrides
}
