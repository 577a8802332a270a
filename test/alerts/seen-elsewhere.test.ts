// A fleet's other agents saw an incident's lines too: the table counts them toward the threshold and
// does not resolve an incident the fleet still sees.
import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../alerts/fingerprint'
import { createIncidentTable } from '../../alerts/incidents'
import { createClock, jsonLine, ruleOf } from './helpers'

const line = jsonLine({ msg: 'db down', err: { type: 'DbError' } })

describe('seenElsewhere', () => {
  it('a threshold the fleet met fires here, after group_wait, though this agent saw fewer lines', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ threshold: { count: 5, within: '1m' }, group_wait: '10s' })
    const key = fingerprint(rule, line)
    expect(table.observe(rule, line, clock.now())).toEqual([])
    expect(table.observe(rule, line, clock.advance(1000))).toEqual([])
    // Below the threshold across the fleet: nothing changes.
    expect(table.seenElsewhere(key, { last: clock.now(), windowCount: 4 }, clock.now())).toEqual([])
    expect(table.tick(clock.advance(20_000))).toEqual([])
    // Three more elsewhere: five in the window.
    expect(table.seenElsewhere(key, { last: clock.now(), windowCount: 5 }, clock.now())).toEqual([])
    expect(table.tick(clock.advance(9_999))).toEqual([])
    expect(table.tick(clock.advance(1)).map((n) => n.kind)).toEqual(['firing'])
  })

  it('without group_wait a met threshold fires at once', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ threshold: { count: 3, within: '1m' } })
    const key = fingerprint(rule, line)
    table.observe(rule, line, clock.now())
    expect(table.seenElsewhere(key, { last: clock.now(), windowCount: 3 }, clock.now()).map((n) => n.kind)).toEqual([
      'firing',
    ])
  })

  it('no resolve while another agent still sees the lines; then resolved after resolve_after of fleet quiet', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ resolve_after: '5m', send_resolved: true })
    const key = fingerprint(rule, line)
    expect(table.observe(rule, line, clock.now()).map((n) => n.kind)).toEqual(['firing'])
    clock.advance(4 * 60_000)
    table.seenElsewhere(key, { last: clock.now(), windowCount: 0 }, clock.now())
    expect(table.tick(clock.advance(2 * 60_000))).toEqual([])
    expect(table.tick(clock.advance(3 * 60_000)).map((n) => n.kind)).toEqual(['resolved'])
  })

  it('an incident this agent does not hold, and a last-seen time in the future, change nothing', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({})
    expect(table.seenElsewhere('r:none', { last: clock.now(), windowCount: 99 }, clock.now())).toEqual([])
    const key = fingerprint(rule, line)
    table.observe(rule, line, clock.now())
    table.seenElsewhere(key, { last: clock.now() + 3_600_000, windowCount: 1 }, clock.now())
    expect(table.get(key)?.lastSeen).toBe(clock.now())
  })
})
