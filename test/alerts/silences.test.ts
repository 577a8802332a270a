import { describe, expect, it } from 'vitest'
import { AlertsError } from '../../alerts/errors'
import type { Notice } from '../../alerts/notice'
import { createSilenceSet } from '../../alerts/silences'
import { createClock, jsonLine } from './helpers'

function notice(fields: Record<string, unknown>, rule = 'db'): Notice {
  const line = jsonLine(fields)
  return {
    kind: 'firing',
    at: 0,
    newCount: 1,
    channels: undefined,
    incident: { key: `${rule}:abc`, rule, title: line.msg, parts: [], firstSeen: 0, lastSeen: 0, count: 1, step: 0, firstLine: line, lastLine: line },
  }
}

describe('silences', () => {
  it('mutes matching notices while active, counts them, and expires', () => {
    const clock = createClock()
    const set = createSilenceSet()
    set.add({ matchers: { rule: 'db', host: { regex: '^db-' } }, ends_at: clock.now() + 60_000 }, clock.now())
    const stage = set.stage
    expect(stage({ now: clock.now() }, [notice({ host: 'db-1' })])).toEqual([])
    expect(stage({ now: clock.now() }, [notice({ host: 'web-1' })])).toHaveLength(1)
    expect(stage({ now: clock.now() }, [notice({ host: 'db-1' }, 'other')])).toHaveLength(1)
    expect(set.muted()).toBe(1)
    expect(stage({ now: clock.advance(60_000) }, [notice({ host: 'db-1' })])).toHaveLength(1)
    expect(set.active(clock.now())).toEqual([])
  })

  it('a future window starts later (maintenance)', () => {
    const clock = createClock()
    const set = createSilenceSet()
    set.add({ matchers: { fingerprint: 'db:abc' }, starts_at: clock.now() + 1000, ends_at: new Date(clock.now() + 5000).toISOString() }, clock.now())
    expect(set.stage({ now: clock.now() }, [notice({})])).toHaveLength(1)
    expect(set.stage({ now: clock.advance(1000) }, [notice({})])).toHaveLength(0)
  })

  it('can be removed', () => {
    const set = createSilenceSet()
    const s = set.add({ matchers: { rule: 'db' }, ends_at: 10_000 }, 0)
    expect(set.remove(s.id)).toBe(true)
    expect(set.stage({ now: 1 }, [notice({})])).toHaveLength(1)
  })

  it.each([
    [{ matchers: {}, ends_at: 10 }, 'silences[0].matchers'],
    [{ matchers: { rule: 'x' }, ends_at: 'never' }, 'silences[0].ends_at'],
    [{ matchers: { rule: 'x' }, ends_at: 0 }, 'silences[0].ends_at'],
  ])('rejects %j naming %s', (input, path) => {
    expect(() => createSilenceSet([input], 5)).toThrow(AlertsError)
    expect(() => createSilenceSet([input], 5)).toThrow(`${path}: `)
  })
})
