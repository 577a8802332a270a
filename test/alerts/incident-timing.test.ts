// One test per numbered rule of alerts/incident-timing.ts, on the pure decisions (time as an argument).
import { describe, expect, it } from 'vitest'
import { onFleetSeen, onLine, onTick, windowHits, type TimingView } from '../../alerts/incident-timing'
import type { Rule } from '../../alerts/rule'
import { ruleOf } from './helpers'

const MIN = 60_000
const T = 1_000_000

const view = (rule: Rule, extra: Partial<TimingView> = {}): TimingView => ({
  rule,
  status: 'pending',
  ack: undefined,
  firedAt: 0,
  fireAt: undefined,
  hits: [],
  lastSeen: T,
  notifiedAt: 0,
  sinceNotice: 0,
  step: 0,
  ...extra,
})
const firing = (rule: Rule, extra: Partial<TimingView> = {}): TimingView =>
  view(rule, { status: 'firing', firedAt: T, notifiedAt: T, ...extra })

describe('incident timing rules', () => {
  it('1. a pending line counts towards the threshold; once it is met, group_wait starts', () => {
    const rule = ruleOf({ threshold: { count: 3, within: '1m' }, group_wait: '30s' })
    expect(onLine(view(rule), T)).toEqual({ kind: 'count', hits: [T], fireAt: undefined })
    // Hits older than the window fall out.
    expect(windowHits([T - 2 * MIN, T - 10], T, rule.threshold)).toEqual([T - 10, T])
    expect(onLine(view(rule, { hits: [T - 20, T - 10] }), T)).toEqual({
      kind: 'count',
      hits: [T - 20, T - 10, T],
      fireAt: T + 30_000,
    })
    expect(onLine(view(ruleOf({ group_wait: '30s' })), T)).toEqual({ kind: 'count', hits: [], fireAt: T + 30_000 })
  })

  it('2. a pending incident whose group_wait elapsed fires on its line; a group_wait of 0 at once', () => {
    expect(onLine(view(ruleOf()), T)).toEqual({ kind: 'fire' })
    const waiting = ruleOf({ group_wait: '30s' })
    expect(onLine(view(waiting, { fireAt: T + 1 }), T)).toEqual({ kind: 'none' })
    expect(onLine(view(waiting, { fireAt: T }), T)).toEqual({ kind: 'fire' })
  })

  it('3. a firing incident repeats on a line after repeat_interval; an acknowledged one never', () => {
    const rule = ruleOf({ repeat_interval: '10m' })
    expect(onLine(firing(rule), T + 9 * MIN)).toEqual({ kind: 'none' })
    expect(onLine(firing(rule), T + 10 * MIN)).toEqual({ kind: 'repeat' })
    const ack = { by: 'asha', via: 'console' as const, at: T }
    expect(onLine(firing(rule, { status: 'acknowledged', ack }), T + 60 * MIN)).toEqual({ kind: 'none' })
  })

  it('4. at a tick, a pending incident whose group_wait elapsed fires', () => {
    const rule = ruleOf({ group_wait: '30s' })
    expect(onTick(view(rule, { fireAt: T + 30_000 }), T + 29_999)).toEqual({ kind: 'none' })
    expect(onTick(view(rule, { fireAt: T + 30_000 }), T + 30_000)).toEqual({ kind: 'fire' })
  })

  it('5. a pending incident below its threshold and quiet for a whole window is dropped', () => {
    const rule = ruleOf({ threshold: { count: 3, within: '1m' } })
    expect(onTick(view(rule, { hits: [T] }), T + MIN)).toEqual({ kind: 'none' })
    expect(onTick(view(rule, { hits: [T] }), T + MIN + 1)).toEqual({ kind: 'drop' })
  })

  it('6. an open incident quiet for resolve_after resolves; the notice only with send_resolved', () => {
    const quiet = ruleOf({ resolve_after: '5m' })
    expect(onTick(firing(quiet), T + 5 * MIN - 1)).toEqual({ kind: 'none' })
    expect(onTick(firing(quiet), T + 5 * MIN)).toEqual({ kind: 'resolve', notify: false })
    const told = ruleOf({ resolve_after: '5m', send_resolved: true })
    expect(onTick(firing(told), T + 5 * MIN)).toEqual({ kind: 'resolve', notify: true })
  })

  it('7. an acknowledged incident past ack_timeout is unacknowledged', () => {
    const rule: Rule = { ...ruleOf(), ackTimeoutMs: 15 * MIN }
    const acked = firing(rule, { status: 'acknowledged', ack: { by: 'asha', via: 'console', at: T } })
    expect(onTick(acked, T + 15 * MIN - 1)).toEqual({ kind: 'none' })
    expect(onTick(acked, T + 15 * MIN)).toEqual({ kind: 'ack-timeout' })
  })

  it('8. a due escalation step escalates to the first step active now; none active: all passed silently', () => {
    const rule = ruleOf({ notify: 'sms', escalate: [{ after: '10m', notify: 'voice' }] }, ['sms', 'voice'])
    expect(onTick(firing(rule), T + 10 * MIN - 1)).toEqual({ kind: 'none' })
    expect(onTick(firing(rule), T + 10 * MIN)).toEqual({ kind: 'escalate', step: 1, notify: true })
    // Active one minute of Saturday only: 1970-01-12 (T) was a Monday.
    const saturday = { timeZone: 'UTC', days: [6], from: { hour: 0, minute: 0 }, to: { hour: 0, minute: 1 } }
    const never: Rule = {
      ...rule,
      escalation: [rule.escalation[0]!, { ...rule.escalation[1]!, activeHours: [saturday] }],
    }
    expect(onTick(firing(never), T + 10 * MIN)).toEqual({ kind: 'escalate', step: 1, notify: false })
  })

  it('9. a firing incident with new lines repeats after repeat_interval; without new lines it does not', () => {
    const rule = ruleOf({ repeat_interval: '10m' })
    expect(onTick(firing(rule, { sinceNotice: 0 }), T + 10 * MIN)).toEqual({ kind: 'none' })
    expect(onTick(firing(rule, { sinceNotice: 2 }), T + 10 * MIN - 1)).toEqual({ kind: 'none' })
    expect(onTick(firing(rule, { sinceNotice: 2 }), T + 10 * MIN)).toEqual({ kind: 'repeat' })
  })

  it("10. the fleet's later last-seen time is taken (never past now); its threshold count starts group_wait", () => {
    const rule = ruleOf({ threshold: { count: 3, within: '1m' }, group_wait: '30s' })
    expect(onFleetSeen(view(rule), { last: T + 5, windowCount: 1 }, T + 10)).toEqual({
      lastSeen: T + 5,
      fireAt: undefined,
    })
    expect(onFleetSeen(view(rule), { last: T + 50, windowCount: 1 }, T + 10).lastSeen).toBe(T + 10)
    expect(onFleetSeen(view(rule), { last: T - 5, windowCount: 3 }, T + 10)).toEqual({
      lastSeen: T,
      fireAt: T + 10 + 30_000,
    })
    expect(onFleetSeen(firing(rule), { last: T, windowCount: 3 }, T + 10).fireAt).toBeUndefined()
  })
})
