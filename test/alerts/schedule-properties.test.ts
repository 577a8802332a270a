// Properties of the rotation arithmetic over random layers, zones with and without DST, and instants
// over several years, biased towards the days clocks change.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  handoffs,
  onCallAt,
  overlappingOverrides,
  type LayerConfig,
  type OverrideConfig,
  type Rotation,
  type ScheduleConfig,
} from '../../alerts/schedule'
import { localParts, utcOfWall, zonedInstant, zoneOffset } from '../../alerts/zoned-time'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const FROM = Date.UTC(2024, 0, 1)
const TO = Date.UTC(2031, 0, 1)
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'America/Santiago',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'UTC',
]

/** Instants each zone's offset changes in [FROM, TO), found by day then bisected to the ms. */
function transitionsOf(zone: string): number[] {
  const found: number[] = []
  for (let day = FROM; day < TO; day += DAY) {
    if (zoneOffset(day, zone) === zoneOffset(day + DAY, zone)) continue
    let low = day
    let high = day + DAY
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (zoneOffset(middle, zone) === zoneOffset(low, zone)) low = middle
      else high = middle
    }
    found.push(high)
  }
  return found
}
const TRANSITIONS = ZONES.flatMap(transitionsOf)

const instant = fc.oneof(
  fc.integer({ min: FROM, max: TO }),
  fc
    .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -3 * DAY, max: 3 * DAY }))
    .map(([change, shift]) => change + shift),
)

// Handoff times clocks skip or repeat somewhere in ZONES come often.
const handoff = fc.oneof(
  fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) }),
  fc.record({ hour: fc.constantFrom(0, 1, 2, 3, 23), minute: fc.constantFrom(0, 15, 30, 45) }),
)

const rotation: fc.Arbitrary<Rotation> = fc.oneof(
  fc.constant<Rotation>({ kind: 'daily' }),
  fc.integer({ min: 0, max: 6 }).map((day): Rotation => ({ kind: 'weekly', day })),
  fc.integer({ min: 60, max: 14 * 24 * 60 }).map((minutes): Rotation => ({ kind: 'every', ms: minutes * MINUTE })),
)

const distinctUsers = fc
  .integer({ min: 1, max: 5 })
  .map((count) => Array.from({ length: count }, (_, index) => `u${index}`))

const layerWith = (
  users: fc.Arbitrary<string[]>,
  rotations: fc.Arbitrary<Rotation> = rotation,
): fc.Arbitrary<LayerConfig> =>
  fc.record({
    name: fc.constant('primary'),
    users,
    rotation: rotations,
    handoff,
    start: fc.record({
      year: fc.integer({ min: 2024, max: 2029 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
    }),
    timeZone: fc.constantFrom(...ZONES),
  })

const scheduleOf = (layer: LayerConfig, overrides: OverrideConfig[] = []): ScheduleConfig => ({
  name: 'ops',
  timeZone: layer.timeZone,
  layers: [layer],
  overrides,
})

/**
 * The local day number a handoff at `at` was meant for, if `at` is the layer's handoff wall time that
 * day, or that wall time moved on by a DST gap that skipped it; undefined otherwise.
 */
function handoffDay(layer: LayerConfig, at: number): number | undefined {
  const zone = layer.timeZone
  const shown = localParts(at, zone)
  if (at % MINUTE !== 0) return undefined
  let meant = utcOfWall(shown.year, shown.month, shown.day, shown.hour, shown.minute)
  const gap = zoneOffset(at, zone) - zoneOffset(at - 6 * HOUR, zone)
  if (shown.hour !== layer.handoff.hour || shown.minute !== layer.handoff.minute) {
    if (gap <= 0) return undefined
    meant -= gap
    const wall = new Date(meant)
    if (wall.getUTCHours() !== layer.handoff.hour || wall.getUTCMinutes() !== layer.handoff.minute) return undefined
    // Skipped indeed: under neither offset around it does any instant show that wall time.
    for (const offset of [zoneOffset(at - 6 * HOUR, zone), zoneOffset(at, zone)])
      if (zoneOffset(meant - offset, zone) === offset) return undefined
  }
  return Math.floor(meant / DAY)
}

describe('rotation properties', () => {
  it('every instant has exactly one of the layer users, who holds until the next handoff', () => {
    fc.assert(
      fc.property(
        layerWith(fc.array(fc.constantFrom('asha', 'ravi', 'meera'), { minLength: 1, maxLength: 5 })),
        instant,
        (layer, at) => {
          const schedule = scheduleOf(layer)
          const now = onCallAt(schedule, undefined, at)
          expect(now).toBeDefined()
          expect(layer.users).toContain(now?.user)
          const [next] = handoffs(schedule, undefined, at, 1)
          expect(now?.until).toBe(next?.at ?? Number.POSITIVE_INFINITY)
          if (next !== undefined) {
            expect(next.at).toBeGreaterThan(at)
            expect(next.user).not.toBe(now?.user)
            // Constant up to the handoff, the next user from it on.
            for (const sample of [at + (next.at - at) / 3, at + (2 * (next.at - at)) / 3, next.at - 1])
              expect(onCallAt(schedule, undefined, Math.floor(sample))?.user).toBe(now?.user)
            expect(onCallAt(schedule, undefined, next.at)?.user).toBe(next.user)
          }
        },
      ),
    )
  })

  it('users change exactly at the handoffs, in order, at the stated local wall time', () => {
    fc.assert(
      fc.property(layerWith(distinctUsers), instant, (layer, at) => {
        const schedule = scheduleOf(layer)
        const list = handoffs(schedule, undefined, at, 8)
        const n = layer.users.length
        if (n === 1) return void expect(list).toEqual([])
        expect(list).toHaveLength(8)
        let before = onCallAt(schedule, undefined, at)?.user as string
        let previous = at
        for (const change of list) {
          expect(change.at).toBeGreaterThan(previous)
          expect(onCallAt(schedule, undefined, change.at - 1)?.user).toBe(before)
          expect(onCallAt(schedule, undefined, change.at)).toMatchObject({ user: change.user, override: false })
          expect(change.user).toBe(layer.users[(layer.users.indexOf(before) + 1) % n]) // the next in order
          if (layer.rotation.kind !== 'every') expect(handoffDay(layer, change.at)).toBeDefined()
          before = change.user
          previous = change.at
        }
      }),
    )
  })

  it('daily handoffs are one local day apart: 23, 24 or 25 hours of elapsed time', () => {
    fc.assert(
      fc.property(
        layerWith(
          distinctUsers.filter((users) => users.length > 1),
          fc.constant<Rotation>({ kind: 'daily' }),
        ),
        instant,
        (layer, at) => {
          const list = handoffs(scheduleOf(layer), undefined, at, 8).map((change) => change.at)
          for (let index = 1; index < list.length; index += 1) {
            const [earlier, later] = [list[index - 1] as number, list[index] as number]
            expect((handoffDay(layer, later) as number) - (handoffDay(layer, earlier) as number)).toBe(1)
            expect([23 * HOUR, 24 * HOUR, 25 * HOUR]).toContain(later - earlier)
          }
        },
      ),
    )
  })

  it('weekly handoffs fall on the handoff day, one local week apart', () => {
    const weekly = fc.integer({ min: 0, max: 6 }).map((day): Rotation => ({ kind: 'weekly', day }))
    fc.assert(
      fc.property(
        layerWith(
          distinctUsers.filter((users) => users.length > 1),
          weekly,
        ),
        instant,
        (layer, at) => {
          const days = handoffs(scheduleOf(layer), undefined, at, 6).map(
            (change) => handoffDay(layer, change.at) as number,
          )
          const day = layer.rotation.kind === 'weekly' ? layer.rotation.day : -1
          for (const [index, number] of days.entries()) {
            expect((((number + 4) % 7) + 7) % 7).toBe(day) // 1970-01-01 was a Thursday
            if (index > 0) expect(number - (days[index - 1] as number)).toBe(7)
          }
        },
      ),
    )
  })

  it('"every" handoffs are whole multiples of the duration after start + handoff', () => {
    const every = fc
      .integer({ min: 60, max: 14 * 24 * 60 })
      .map((minutes): Rotation => ({ kind: 'every', ms: minutes * MINUTE }))
    fc.assert(
      fc.property(
        layerWith(
          distinctUsers.filter((users) => users.length > 1),
          every,
        ),
        instant,
        (layer, at) => {
          const ms = layer.rotation.kind === 'every' ? layer.rotation.ms : 0
          const first = zonedInstant({ ...layer.start, ...layer.handoff }, layer.timeZone)
          const list = handoffs(scheduleOf(layer), undefined, at, 5).map((change) => change.at)
          for (const [index, change] of list.entries()) {
            expect((change - first) % ms).toBe(0)
            if (index > 0) expect(change - (list[index - 1] as number)).toBe(ms)
          }
        },
      ),
    )
  })
})

describe('override properties', () => {
  const overrides = (layer: LayerConfig) =>
    fc.array(
      fc.record({
        user: fc.constantFrom('asha', 'ravi', 'u0', 'u1'),
        from: fc.integer({ min: FROM, max: TO }),
        length: fc.integer({ min: MINUTE, max: 5 * DAY }),
        layer: fc.constantFrom(layer.name, layer.name, 'secondary'),
      }),
      { maxLength: 6 },
    )
  const withOverrides = layerWith(distinctUsers).chain((layer) =>
    fc.tuple(
      fc.constant(layer),
      overrides(layer).map((list) =>
        list.map(({ user, from, length, layer: name }): OverrideConfig => ({
          user,
          from,
          to: from + length,
          layer: name,
        })),
      ),
    ),
  )

  it('the person is the last covering override user, else the rotation user, until the next change', () => {
    fc.assert(
      fc.property(withOverrides, fc.integer({ min: FROM, max: TO }), ([layer, list], at0) => {
        // Start near an override half of the time, where there is something to see.
        const at =
          list.length > 0 && at0 % 2 === 0 ? (list[at0 % list.length] as OverrideConfig).from - (at0 % DAY) : at0
        const plain = scheduleOf(layer)
        const schedule = scheduleOf(layer, list)
        const mine = list.filter((override) => override.layer === layer.name)
        const expected = (x: number): string => {
          const covering = mine.filter((override) => override.from <= x && x < override.to).at(-1)
          return covering?.user ?? (onCallAt(plain, undefined, x)?.user as string)
        }
        const now = onCallAt(schedule, undefined, at)
        expect(now?.user).toBe(expected(at))
        const until = now?.until as number
        // The person is piecewise constant with breaks only at override boundaries and rotation
        // changes: check every break up to `until`.
        const rotationBreaks: number[] = []
        for (let after = at; ;) {
          const [change] = handoffs(plain, undefined, after, 1)
          if (change === undefined || change.at >= until) break
          rotationBreaks.push(change.at)
          after = change.at
        }
        const breaks = [...mine.flatMap((override) => [override.from, override.to]), ...rotationBreaks].filter(
          (x) => x > at && x < until,
        )
        for (const x of breaks) expect(expected(x)).toBe(now?.user)
        if (Number.isFinite(until)) {
          expect(expected(until)).not.toBe(now?.user)
          const [next] = handoffs(schedule, undefined, at, 1)
          expect(next).toEqual({
            at: until,
            user: expected(until),
            layer: layer.name,
            override: mine.some((override) => override.from <= until && until < override.to),
          })
        }
      }),
      { numRuns: 200 },
    )
  })

  it('overlappingOverrides finds exactly the overlapping pairs of one layer', () => {
    const span = fc.record({
      from: fc.integer({ min: 0, max: 50 }),
      length: fc.integer({ min: -2, max: 20 }),
      layer: fc.constantFrom('primary', 'secondary'),
    })
    fc.assert(
      fc.property(fc.array(span, { maxLength: 12 }), (spans) => {
        const list = spans.map(({ from, length, layer }): OverrideConfig => ({
          user: 'asha',
          from,
          to: from + length,
          layer,
        }))
        const expected: [number, number][] = []
        for (const [i, a] of list.entries()) {
          for (const [j, b] of list.entries()) {
            if (i < j && a.layer === b.layer && a.from < a.to && b.from < b.to && a.from < b.to && b.from < a.to)
              expected.push([i, j])
          }
        }
        const schedule: ScheduleConfig = { name: 'ops', timeZone: 'UTC', layers: [], overrides: list }
        expect(overlappingOverrides(schedule)).toEqual(expected)
      }),
    )
  })
})
