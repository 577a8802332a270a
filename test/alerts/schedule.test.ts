import { describe, expect, it } from 'vitest'
import {
  handoffs,
  onCallAt,
  overlappingOverrides,
  type LayerConfig,
  type OverrideConfig,
  type ScheduleConfig,
} from '../../alerts/schedule'

const at = (iso: string): number => Date.parse(iso)
const HOUR = 3_600_000

const layerOf = (extra: Partial<LayerConfig> = {}): LayerConfig => ({
  name: 'primary',
  users: ['asha', 'ravi', 'meera'],
  rotation: { kind: 'weekly', day: 1 },
  handoff: { hour: 9, minute: 0 },
  start: { year: 2026, month: 1, day: 5 }, // a Monday
  timeZone: 'Asia/Kolkata',
  ...extra,
})

const scheduleOf = (layers: LayerConfig[], overrides: OverrideConfig[] = []): ScheduleConfig => ({
  name: 'ops',
  timeZone: 'Asia/Kolkata',
  layers,
  overrides,
})
const who = (schedule: ScheduleConfig, instant: number, layer?: string): string | undefined =>
  onCallAt(schedule, layer, instant)?.user
const changes = (schedule: ScheduleConfig, from: number, count: number, layer?: string) =>
  handoffs(schedule, layer, from, count).map((change) => [new Date(change.at).toISOString(), change.user])

describe('rule 1: turn 0 begins at start + handoff, and holds before it', () => {
  const ops = scheduleOf([layerOf()])

  it('puts the first user on call before the schedule starts', () => {
    expect(onCallAt(ops, undefined, at('2025-06-01T00:00:00Z'))).toEqual({
      user: 'asha',
      layer: 'primary',
      until: at('2026-01-12T03:30:00Z'),
      override: false,
    })
    expect(who(ops, at('2026-01-05T03:29:59Z'))).toBe('asha')
  })

  it('hands turn 0 over a week after start at the handoff', () => {
    expect(who(ops, at('2026-01-05T03:30:00Z'))).toBe('asha')
    expect(changes(ops, at('2025-06-01T00:00:00Z'), 1)).toEqual([['2026-01-12T03:30:00.000Z', 'ravi']])
  })
})

describe('rule 2: daily turns change at the local handoff wall time', () => {
  const ny = scheduleOf([
    layerOf({ rotation: { kind: 'daily' }, start: { year: 2026, month: 3, day: 1 }, timeZone: 'America/New_York' }),
  ])

  it('makes the turn over spring-forward 23 hours long', () => {
    const list = handoffs(ny, undefined, at('2026-03-07T00:00:00Z'), 3).map((change) => change.at)
    expect(list).toEqual([at('2026-03-07T14:00:00Z'), at('2026-03-08T13:00:00Z'), at('2026-03-09T13:00:00Z')])
    expect((list[1] as number) - (list[0] as number)).toBe(23 * HOUR)
  })

  it('makes the turn over fall-back 25 hours long', () => {
    const list = handoffs(ny, undefined, at('2026-10-31T00:00:00Z'), 2).map((change) => change.at)
    expect(list).toEqual([at('2026-10-31T13:00:00Z'), at('2026-11-01T14:00:00Z')])
  })
})

describe('rule 3: weekly turns change on handoff_day', () => {
  it('changes every 7 local days on the handoff day', () => {
    const ops = scheduleOf([layerOf()])
    expect(changes(ops, at('2026-01-05T03:30:00Z'), 3)).toEqual([
      ['2026-01-12T03:30:00.000Z', 'ravi'],
      ['2026-01-19T03:30:00.000Z', 'meera'],
      ['2026-01-26T03:30:00.000Z', 'asha'],
    ])
  })

  it('ends a turn 0 that began on another weekday at the first handoff_day after start', () => {
    const ops = scheduleOf([layerOf({ start: { year: 2026, month: 1, day: 7 } })]) // a Wednesday
    expect(onCallAt(ops, undefined, at('2026-01-08T00:00:00Z'))).toMatchObject({
      user: 'asha',
      until: at('2026-01-12T03:30:00Z'),
    })
    expect(changes(ops, at('2026-01-08T00:00:00Z'), 2)).toEqual([
      ['2026-01-12T03:30:00.000Z', 'ravi'],
      ['2026-01-19T03:30:00.000Z', 'meera'],
    ])
  })
})

describe('rule 4: "every" turns are elapsed time from start + handoff', () => {
  it('changes every 12 hours from the first handoff', () => {
    const ops = scheduleOf([layerOf({ rotation: { kind: 'every', ms: 12 * HOUR } })])
    expect(changes(ops, at('2026-01-01T00:00:00Z'), 3)).toEqual([
      ['2026-01-05T15:30:00.000Z', 'ravi'],
      ['2026-01-06T03:30:00.000Z', 'meera'],
      ['2026-01-06T15:30:00.000Z', 'asha'],
    ])
  })

  it('ignores the wall clock across DST', () => {
    const ny = scheduleOf([
      layerOf({
        rotation: { kind: 'every', ms: 24 * HOUR },
        start: { year: 2026, month: 3, day: 7 },
        timeZone: 'America/New_York',
      }),
    ])
    expect(changes(ny, at('2026-03-07T14:00:00Z'), 1)).toEqual([['2026-03-08T14:00:00.000Z', 'ravi']]) // 10:00 EDT
  })
})

describe('rule 5: users take turns in order and cycle', () => {
  it('gives turn k to users[k mod n]', () => {
    const ops = scheduleOf([layerOf({ rotation: { kind: 'daily' } })])
    const noon = (day: number) => at(`2026-01-${String(day).padStart(2, '0')}T06:30:00Z`) // 12:00 IST
    expect([5, 6, 7, 8, 9, 10, 11].map((day) => who(ops, noon(day)))).toEqual([
      'asha',
      'ravi',
      'meera',
      'asha',
      'ravi',
      'meera',
      'asha',
    ])
  })
})

describe('rule 6: a handoff time DST skips or repeats', () => {
  const ny = scheduleOf([
    layerOf({
      rotation: { kind: 'daily' },
      handoff: { hour: 2, minute: 30 },
      start: { year: 2026, month: 3, day: 1 },
      timeZone: 'America/New_York',
    }),
  ])

  it('happens that much later when skipped (02:30 -> 03:30 EDT)', () => {
    expect(handoffs(ny, undefined, at('2026-03-07T00:00:00Z'), 3).map((change) => change.at)).toEqual([
      at('2026-03-07T07:30:00Z'), // 02:30 EST
      at('2026-03-08T07:30:00Z'), // 02:30 does not exist: 03:30 EDT
      at('2026-03-09T06:30:00Z'), // 02:30 EDT
    ])
    expect(who(ny, at('2026-03-08T07:10:00Z'))).toBe(who(ny, at('2026-03-07T12:00:00Z'))) // 03:10 EDT: not yet
  })

  it('happens at the first occurrence when repeated (01:30 EDT, not EST)', () => {
    const fallBack = scheduleOf([{ ...(ny.layers[0] as LayerConfig), handoff: { hour: 1, minute: 30 } }])
    expect(handoffs(fallBack, undefined, at('2026-11-01T00:00:00Z'), 1).map((change) => change.at)).toEqual([
      at('2026-11-01T05:30:00Z'),
    ])
    expect(who(fallBack, at('2026-11-01T06:15:00Z'))).toBe(who(fallBack, at('2026-11-01T05:30:00Z'))) // 01:15 EST, after it
  })
})

describe('rule 7: an override replaces the layer user in [from, to)', () => {
  const leave: OverrideConfig = {
    user: 'meera',
    from: at('2026-01-07T03:30:00Z'),
    to: at('2026-01-09T03:30:00Z'),
    layer: 'primary',
  }
  const ops = scheduleOf([layerOf(), layerOf({ name: 'secondary', users: ['ravi', 'meera', 'asha'] })], [leave])

  it('puts the override user on call in its span, and only in its layer', () => {
    expect(onCallAt(ops, undefined, at('2026-01-07T03:29:59Z'))).toMatchObject({
      user: 'asha',
      override: false,
      until: leave.from,
    })
    expect(onCallAt(ops, undefined, leave.from)).toEqual({
      user: 'meera',
      layer: 'primary',
      until: leave.to,
      override: true,
    })
    expect(onCallAt(ops, undefined, leave.to)).toMatchObject({ user: 'asha', override: false })
    expect(who(ops, leave.from, 'secondary')).toBe('ravi')
  })

  it('lists the override boundaries among the handoffs', () => {
    expect(handoffs(ops, 'primary', at('2026-01-06T00:00:00Z'), 3)).toEqual([
      { at: leave.from, user: 'meera', layer: 'primary', override: true },
      { at: leave.to, user: 'asha', layer: 'primary', override: false },
      { at: at('2026-01-12T03:30:00Z'), user: 'ravi', layer: 'primary', override: false },
    ])
  })

  it('lets the later of overlapping overrides win', () => {
    const cover: OverrideConfig = {
      user: 'ravi',
      from: at('2026-01-08T00:00:00Z'),
      to: at('2026-01-08T12:00:00Z'),
      layer: 'primary',
    }
    const both = scheduleOf(ops.layers, [leave, cover])
    expect(changes(both, at('2026-01-07T12:00:00Z'), 2)).toEqual([
      ['2026-01-08T00:00:00.000Z', 'ravi'],
      ['2026-01-08T12:00:00.000Z', 'meera'],
    ])
  })
})

describe('rule 8: turns and overrides are half-open', () => {
  it('has the new person on call at the very instant of a handoff', () => {
    const ops = scheduleOf([layerOf()])
    expect(who(ops, at('2026-01-12T03:29:59.999Z'))).toBe('asha')
    expect(who(ops, at('2026-01-12T03:30:00Z'))).toBe('ravi')
  })
})

describe('rule 9: a handoff to the person already on call is no change', () => {
  it('skips a user listed twice running', () => {
    const ops = scheduleOf([layerOf({ users: ['asha', 'asha', 'ravi'] })])
    expect(onCallAt(ops, undefined, at('2026-01-06T00:00:00Z'))?.until).toBe(at('2026-01-19T03:30:00Z'))
    expect(changes(ops, at('2026-01-06T00:00:00Z'), 2)).toEqual([
      ['2026-01-19T03:30:00.000Z', 'ravi'],
      ['2026-01-26T03:30:00.000Z', 'asha'],
    ])
  })

  it('skips an override for the person on call', () => {
    const ops = scheduleOf(
      [layerOf()],
      [{ user: 'asha', from: at('2026-01-07T00:00:00Z'), to: at('2026-01-14T00:00:00Z'), layer: 'primary' }],
    )
    expect(onCallAt(ops, undefined, at('2026-01-06T00:00:00Z'))?.until).toBe(at('2026-01-14T00:00:00Z'))
    expect(changes(ops, at('2026-01-06T00:00:00Z'), 1)).toEqual([['2026-01-14T00:00:00.000Z', 'ravi']])
  })

  it('gives a layer of one user no change: until Infinity', () => {
    const ops = scheduleOf([layerOf({ users: ['asha'] })])
    expect(onCallAt(ops, undefined, at('2026-01-06T00:00:00Z'))).toEqual({
      user: 'asha',
      layer: 'primary',
      until: Number.POSITIVE_INFINITY,
      override: false,
    })
    expect(handoffs(ops, undefined, at('2026-01-06T00:00:00Z'), 5)).toEqual([])
  })
})

describe('rule 10: which layer', () => {
  const ops = scheduleOf([layerOf(), layerOf({ name: 'secondary', users: ['ravi', 'meera', 'asha'] })])

  it('reads the first layer when none is named', () => {
    expect(onCallAt(ops, undefined, at('2026-01-06T00:00:00Z'))?.layer).toBe('primary')
    expect(onCallAt(ops, 'secondary', at('2026-01-06T00:00:00Z'))).toMatchObject({ user: 'ravi', layer: 'secondary' })
  })

  it('gives nobody for an unknown layer or one without users', () => {
    expect(onCallAt(ops, 'tertiary', 0)).toBeUndefined()
    expect(handoffs(ops, 'tertiary', 0, 3)).toEqual([])
    expect(onCallAt(scheduleOf([layerOf({ users: [] })]), undefined, 0)).toBeUndefined()
    expect(onCallAt(scheduleOf([]), undefined, 0)).toBeUndefined()
  })
})

describe('overlappingOverrides', () => {
  const span = (from: number, to: number, layer = 'primary'): OverrideConfig => ({ user: 'meera', from, to, layer })

  it('pairs overrides of one layer whose spans overlap, in index order', () => {
    const ops = scheduleOf([layerOf()], [span(10, 20), span(0, 5), span(15, 30), span(12, 13)])
    expect(overlappingOverrides(ops)).toEqual([
      [0, 2],
      [0, 3],
    ])
  })

  it('does not pair spans that only touch, spans of other layers, or empty spans', () => {
    const ops = scheduleOf([layerOf()], [span(0, 10), span(10, 20), span(5, 15, 'secondary'), span(7, 7), span(9, 3)])
    expect(overlappingOverrides(ops)).toEqual([])
  })
})

describe('cost', () => {
  it('finds the person years after start without walking the turns', () => {
    const ops = scheduleOf([layerOf({ rotation: { kind: 'every', ms: 60_000 } })])
    // 10 years of one-minute turns: 5 million turns, answered in closed form.
    expect(onCallAt(ops, undefined, at('2036-01-05T03:30:00Z'))?.until).toBe(at('2036-01-05T03:31:00Z'))
  })
})
