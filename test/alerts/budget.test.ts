import { describe, expect, it } from 'vitest'
import { createBudgetStage } from '../../alerts/budget'
import type { Notice } from '../../alerts/notice'
import { createClock, jsonLine, snapshotOf } from './helpers'

function notice(title: string, channel = 'sms'): Notice {
  const line = jsonLine({ msg: title })
  return {
    kind: 'firing',
    at: 0,
    newCount: 1,
    channels: undefined,
    channel,
    incident: snapshotOf(line, { key: title, title }),
  }
}

describe('per-channel budget', () => {
  it('passes up to max per hour, folds the rest into one digest once the hour allows', () => {
    const clock = createClock()
    const budget = createBudgetStage({ sms: 2 })
    const first = budget.stage({ now: clock.now() }, [notice('a'), notice('b'), notice('c'), notice('d')])
    expect(first.map((n) => n.incident.title)).toEqual(['a', 'b'])
    expect(budget.stage({ now: clock.advance(30 * 60_000) }, [notice('e')])).toEqual([])
    expect(budget.stats()).toEqual({ suppressed: 3, digests: 0 })
    const [digest, ...rest] = budget.stage({ now: clock.advance(30 * 60_000) }, [])
    expect(rest).toEqual([])
    expect([digest?.kind, digest?.suppressed, digest?.incident.title, digest?.channel]).toEqual([
      'digest',
      3,
      'e',
      'sms',
    ])
    expect(budget.stats()).toEqual({ suppressed: 3, digests: 1 })
  })

  it('keeps order: while a digest is owed, new notices fold into it', () => {
    const clock = createClock()
    const budget = createBudgetStage({ sms: 1 })
    budget.stage({ now: clock.now() }, [notice('a'), notice('b')])
    const next = budget.stage({ now: clock.advance(3_600_000) }, [notice('c')])
    expect(next.map((n) => [n.kind, n.suppressed ?? 0])).toEqual([['digest', 1]])
    const later = budget.stage({ now: clock.advance(3_600_000) }, [])
    expect(later.map((n) => [n.kind, n.suppressed, n.incident.title])).toEqual([['digest', 1, 'c']])
  })

  it('leaves channels without a limit alone and limits channels separately', () => {
    const budget = createBudgetStage({ sms: 1, chat: undefined })
    const out = budget.stage({ now: 0 }, [notice('a'), notice('b'), notice('c', 'chat'), notice('d', 'chat')])
    expect(out.map((n) => n.incident.title)).toEqual(['a', 'c', 'd'])
  })

  it('release sends owed digests at shutdown even without room', () => {
    const budget = createBudgetStage({ sms: 1 })
    budget.stage({ now: 0 }, [notice('a'), notice('b'), notice('c')])
    expect(budget.stage({ now: 1 }, [])).toEqual([])
    const released = budget.release({ now: 2 }, [])
    expect(released.map((n) => [n.kind, n.suppressed])).toEqual([['digest', 2]])
    expect(budget.release({ now: 3 }, [])).toEqual([])
  })
})
