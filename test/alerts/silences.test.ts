import { describe, expect, it } from 'vitest'
import type { Notice } from '../../alerts/notice'
import { createSilenceSet } from '../../alerts/silences'
import { createClock, jsonLine, silenceOf, snapshotOf } from './helpers'

function notice(fields: Record<string, unknown>, rule = 'db'): Notice {
  const line = jsonLine(fields)
  return {
    kind: 'firing',
    at: 0,
    newCount: 1,
    channels: undefined,
    incident: snapshotOf(line, { key: `${rule}:abc`, rule }),
  }
}

describe('silences', () => {
  it('mutes matching notices while active, counts them, and expires', () => {
    const clock = createClock()
    const set = createSilenceSet()
    set.add(silenceOf({ matchers: { rule: 'db', host: '/^db-/' }, ends_at: clock.now() + 60_000 }), clock.now())
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
    set.add(
      silenceOf({
        matchers: { fingerprint: 'db:abc' },
        starts_at: clock.now() + 1000,
        ends_at: new Date(clock.now() + 5000).toISOString(),
      }),
      clock.now(),
    )
    expect(set.stage({ now: clock.now() }, [notice({})])).toHaveLength(1)
    expect(set.stage({ now: clock.advance(1000) }, [notice({})])).toHaveLength(0)
  })

  it('can be removed', () => {
    const set = createSilenceSet()
    const s = set.add(silenceOf({ matchers: { rule: 'db' }, ends_at: 10_000 }), 0)
    expect(set.remove(s.id)).toBe(true)
    expect(set.stage({ now: 1 }, [notice({})])).toHaveLength(1)
  })

  it('one that ended already is valid and never applies', () => {
    const set = createSilenceSet([silenceOf({ matchers: { rule: 'db' }, ends_at: 0 })], 5)
    expect(set.stage({ now: 5 }, [notice({})])).toHaveLength(1)
    expect(set.active(5)).toEqual([])
  })

  it('takes its id, or numbers them', () => {
    const set = createSilenceSet()
    expect(set.add(silenceOf({ id: 'deploy-42', matchers: { rule: 'db' }, ends_at: 10_000 }), 0).id).toBe('deploy-42')
    expect(set.add(silenceOf({ matchers: { rule: 'db' }, ends_at: 10_000 }), 0).id).toBe('silence-2')
  })
})
