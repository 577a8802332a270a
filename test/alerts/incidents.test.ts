import { describe, expect, it } from 'vitest'
import { createIncidentTable } from '../../alerts/incidents'
import { createClock, jsonLine, ruleOf } from './helpers'

const line = jsonLine({ msg: 'db down', err: { type: 'DbError' } })

describe('incident state machine (fake clock)', () => {
  it('10,000 identical errors are one incident and one notice', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ name: 'r' })
    const notices = []
    for (let i = 0; i < 10_000; i++)
      notices.push(...table.observe(rule, jsonLine({ msg: `db down after ${i}ms` }), clock.advance(1)))
    expect(notices.map((n) => n.kind)).toEqual(['firing'])
    expect(table.stats()).toEqual({ open: 1, firing: 1, acknowledged: 0, evicted: 0 })
  })

  it('group_wait holds the first notice, then sends one with the count so far', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ group_wait: '30s' })
    expect(table.observe(rule, line, clock.now())).toEqual([])
    expect(table.observe(rule, line, clock.advance(10_000))).toEqual([])
    expect(table.tick(clock.advance(19_999))).toEqual([])
    const [notice] = table.tick(clock.advance(1))
    expect(notice?.kind).toBe('firing')
    expect(notice?.incident.count).toBe(2)
    expect(notice?.newCount).toBe(2)
  })

  it('repeat_interval: a reminder only after the interval and only with new lines', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ repeat_interval: '1h' })
    expect(table.observe(rule, line, clock.now()).map((n) => n.kind)).toEqual(['firing'])
    expect(table.observe(rule, line, clock.advance(59 * 60_000))).toEqual([])
    expect(table.tick(clock.advance(60_000)).map((n) => [n.kind, n.newCount])).toEqual([['repeat', 1]])
    expect(table.tick(clock.advance(2 * 3_600_000))).toEqual([])
    const [again] = table.observe(rule, line, clock.now())
    expect(again?.kind).toBe('repeat')
    expect(again?.incident.count).toBe(3)
  })

  it('threshold: fires only at N lines within T', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ threshold: { count: 3, within: '1m' } })
    expect(table.observe(rule, line, clock.now())).toEqual([])
    expect(table.observe(rule, line, clock.advance(40_000))).toEqual([])
    // The first hit left the window: still two within the last minute.
    expect(table.observe(rule, line, clock.advance(30_000))).toEqual([])
    expect(table.observe(rule, line, clock.advance(10_000)).map((n) => n.kind)).toEqual(['firing'])
  })

  it('threshold: a quiet window forgets the partial count', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ threshold: { count: 2, within: '1m' } })
    table.observe(rule, line, clock.now())
    expect(table.tick(clock.advance(61_000))).toEqual([])
    expect(table.stats().open).toBe(0)
  })

  it('resolve_after sends a resolved notice when configured, then a new line opens a new incident', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ resolve_after: '5m', send_resolved: true })
    table.observe(rule, line, clock.now())
    expect(table.tick(clock.advance(4 * 60_000))).toEqual([])
    const [resolved] = table.tick(clock.advance(60_000))
    expect(resolved?.kind).toBe('resolved')
    expect(table.stats().open).toBe(0)
    expect(table.observe(rule, line, clock.advance(1)).map((n) => n.kind)).toEqual(['firing'])
  })

  it('resolve_after without send_resolved closes silently', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ resolve_after: '5m' })
    table.observe(rule, line, clock.now())
    expect(table.tick(clock.advance(5 * 60_000))).toEqual([])
    expect(table.stats().open).toBe(0)
  })

  it('escalates through the steps while still firing; resolve goes to every step reached', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({
      notify: 'chat',
      escalate: [
        { after: '10m', notify: 'sms' },
        { after: '30m', notify: 'voice' },
      ],
      resolve_after: '1h',
      send_resolved: true,
    })
    expect(table.observe(rule, line, clock.now()).map((n) => n.channels)).toEqual([['chat']])
    expect(table.tick(clock.advance(9 * 60_000))).toEqual([])
    const [sms] = table.tick(clock.advance(60_000))
    expect([sms?.kind, sms?.channels, sms?.incident.step]).toEqual(['escalated', ['sms'], 1])
    table.observe(rule, line, clock.now())
    const [voice] = table.tick(clock.advance(20 * 60_000))
    expect([voice?.kind, voice?.channels]).toEqual(['escalated', ['voice']])
    const [resolved] = table.tick(clock.advance(3_600_000))
    expect([resolved?.kind, resolved?.channels]).toEqual(['resolved', ['chat', 'sms', 'voice']])
  })

  it('flush fires incidents still waiting in group_wait', () => {
    const clock = createClock()
    const table = createIncidentTable()
    const rule = ruleOf({ group_wait: '1m' })
    table.observe(rule, line, clock.now())
    expect(table.flush(clock.advance(1)).map((n) => n.kind)).toEqual(['firing'])
    expect(table.flush(clock.advance(1))).toEqual([])
  })

  it('keeps memory bounded: past the cap the least recently seen incident is evicted and counted', () => {
    const clock = createClock()
    const table = createIncidentTable({ maxIncidents: 100 })
    const rule = ruleOf({ group_by: ['id'] })
    for (let i = 0; i < 10_000; i++) table.observe(rule, jsonLine({ id: `u${i}` }), clock.advance(1))
    expect(table.stats()).toEqual({ open: 100, firing: 100, acknowledged: 0, evicted: 9_900 })
    // The most recent ones are kept: seeing one again is no new incident.
    expect(table.observe(rule, jsonLine({ id: 'u9999' }), clock.advance(1))).toEqual([])
  })

  it('recency, not age, decides eviction', () => {
    const clock = createClock()
    const table = createIncidentTable({ maxIncidents: 2 })
    const rule = ruleOf({ group_by: ['id'] })
    table.observe(rule, jsonLine({ id: 'a' }), clock.advance(1))
    table.observe(rule, jsonLine({ id: 'b' }), clock.advance(1))
    table.observe(rule, jsonLine({ id: 'a' }), clock.advance(1))
    table.observe(rule, jsonLine({ id: 'c' }), clock.advance(1))
    expect(table.observe(rule, jsonLine({ id: 'a' }), clock.advance(1))).toEqual([])
    expect(table.observe(rule, jsonLine({ id: 'b' }), clock.advance(1)).map((n) => n.kind)).toEqual(['firing'])
  })
})
