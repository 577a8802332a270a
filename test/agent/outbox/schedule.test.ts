// The outbox's schedule, rule by rule (the numbers of agent/outbox/schedule.ts's header).
import { describe, expect, it } from 'vitest'
import type { OutboxItem } from '../../../agent/outbox'
import type { FailureInfo } from '../../../agent/outbox/failure'
import type { LaneView } from '../../../agent/outbox/lanes'
import {
  afterFailure,
  planStarts,
  retryNow,
  shouldCompact,
  spillNext,
  wakeAt,
  type FailurePolicy,
  type PumpInput,
} from '../../../agent/outbox/schedule'

const item = (id: string, extra: Partial<OutboxItem> & { lane?: string; key?: string } = {}): OutboxItem => {
  const { lane = 'sms', key, ...rest } = extra
  return { id, kind: lane, payload: { key }, createdAt: 0, attempts: 0, nextAttemptAt: 0, ...rest }
}

const keyOf = (i: OutboxItem): string | undefined => (i.payload as { key?: string }).key

function plan(window: OutboxItem[], lanes: Record<string, Partial<LaneView>> = {}, extra: Partial<PumpInput> = {}) {
  const view = (name: string): LaneView => ({
    inFlight: 0,
    pending: window.filter((i) => i.kind === name).length,
    pausedUntil: 0,
    limit: 4,
    ...lanes[name],
  })
  const names = [...new Set(window.map((i) => i.kind))]
  const input: PumpInput = {
    t: 1000,
    window,
    inFlight: new Set(),
    concurrency: 16,
    laneOf: (i) => i.kind,
    orderOf: keyOf,
    lane: view,
    readyLanes: names.filter((n) => view(n).pending > view(n).inFlight).length,
    ...extra,
  }
  const result = planStarts(input)
  return { started: result.starts.map((s) => s.item.id), soonest: result.soonest }
}

const failure = (extra: Partial<FailureInfo> = {}): FailureInfo => ({
  recoverable: true,
  ambiguous: false,
  retryAfterMs: undefined,
  held: false,
  reason: 'LOGX_MSG_ERR_SERVER',
  message: 'HTTP 503',
  ...extra,
})

const policy: FailurePolicy = {
  maxAttempts: Infinity,
  maxAgeMs: 60_000,
  retryAmbiguous: true,
  backoff: { minDelayMs: 500, maxDelayMs: 60_000, factor: 2 },
  // The top of the jitter: each wait is its whole step.
  random: () => 1,
}

describe('when an item is due', () => {
  it('1. a restart, drain or wake tries it now, unless a Retry-After still holds it', () => {
    expect(retryNow({ nextAttemptAt: 50_000, notBefore: undefined }, 1000)).toBe(1000)
    expect(retryNow({ nextAttemptAt: 50_000, notBefore: 20_000 }, 1000)).toBe(20_000)
    expect(retryNow({ nextAttemptAt: 500, notBefore: undefined }, 1000)).toBe(500)
  })
})

describe('which items start at a pump', () => {
  it('2. a later item of an order key waits while an earlier one waits or is in flight', () => {
    const window = [item('a', { key: 'k', nextAttemptAt: 5000 }), item('b', { key: 'k' }), item('c', { key: 'j' })]
    expect(plan(window).started).toEqual(['c'])
    expect(plan(window.slice(1), {}, { inFlight: new Set(['b']) }).started).toEqual(['c'])
  })

  it('3. an item in flight is not started again', () => {
    const window = [item('a'), item('b')]
    expect(plan(window, { sms: { inFlight: 1 } }, { inFlight: new Set(['a']) }).started).toEqual(['b'])
  })

  it('4. a full or paused lane waits; the other lanes go on', () => {
    const window = [item('a', { lane: 'sms' }), item('b', { lane: 'chat' }), item('c', { lane: 'mail' })]
    const lanes = { sms: { inFlight: 4 }, chat: { pausedUntil: 2000 } }
    expect(plan(window, lanes).started).toEqual(['c'])
    expect(plan([item('a'), item('b'), item('c')], { sms: { limit: 2 } }).started).toEqual(['a', 'b'])
  })

  it('5. an item not yet due waits, and the soonest due time is kept', () => {
    const window = [item('a', { nextAttemptAt: 9000 }), item('b', { nextAttemptAt: 4000 }), item('c')]
    expect(plan(window)).toEqual({ started: ['c'], soonest: 4000 })
  })

  it('6. at most `concurrency` in flight in all, and the scan stops once no lane can take more', () => {
    const window = [item('a'), item('b'), item('c', { lane: 'chat' })]
    expect(plan(window, {}, { concurrency: 2 }).started).toEqual(['a', 'b'])
    // One lane open and it fills up: the items behind are not even looked at (their due times neither).
    const full = [item('a'), item('b', { nextAttemptAt: 3000 })]
    expect(plan(full, { sms: { limit: 1 } }, { readyLanes: 1 })).toEqual({ started: ['a'], soonest: Infinity })
  })

  it('7. the timer is set only while nothing is in flight, for the soonest due item or end of a pause', () => {
    expect(wakeAt(4000, 3000, 0)).toBe(3000)
    expect(wakeAt(4000, Infinity, 0)).toBe(4000)
    expect(wakeAt(4000, 3000, 1)).toBeUndefined()
    expect(wakeAt(Infinity, Infinity, 0)).toBeUndefined()
  })
})

describe('what a failed attempt does', () => {
  it('8. a held item is not a failed attempt: not counted, waits its holder, binds no Retry-After', () => {
    const outcome = afterFailure(
      { attempts: 3, createdAt: 0 },
      failure({ held: true, retryAfterMs: 200 }),
      policy,
      1000,
      undefined,
    )
    expect(outcome).toMatchObject({ kind: 'retry', attempts: 2, counted: false, nextAttemptAt: 1200 })
    expect(outcome).toMatchObject({ notBefore: undefined })
  })

  it('9. an unrecoverable failure, or an ambiguous one when those are not retried, is a dead letter', () => {
    const bad = failure({ recoverable: false, reason: 'LOGX_MSG_ERR_BAD_REQUEST', message: 'no' })
    expect(afterFailure({ attempts: 1, createdAt: 0 }, bad, policy, 1000, undefined)).toEqual({
      kind: 'dead',
      attempts: 1,
      reason: 'LOGX_MSG_ERR_BAD_REQUEST',
      lastError: 'LOGX_MSG_ERR_BAD_REQUEST: no',
    })
    const ambiguous = failure({ ambiguous: true })
    expect(afterFailure({ attempts: 1, createdAt: 0 }, ambiguous, policy, 1000, undefined).kind).toBe('retry')
    const strict = { ...policy, retryAmbiguous: false }
    expect(afterFailure({ attempts: 1, createdAt: 0 }, ambiguous, strict, 1000, undefined).kind).toBe('dead')
  })

  it('10. out of attempts or too old: a dead letter', () => {
    const counted = { ...policy, maxAttempts: 3 }
    expect(afterFailure({ attempts: 3, createdAt: 0 }, failure(), counted, 1000, undefined).kind).toBe('dead')
    expect(afterFailure({ attempts: 2, createdAt: 0 }, failure(), counted, 1000, undefined).kind).toBe('retry')
    expect(afterFailure({ attempts: 1, createdAt: 0 }, failure(), policy, 60_000, undefined).kind).toBe('dead')
  })

  it("11. otherwise a retry after the backoff; a server's Retry-After is a floor that binds", () => {
    expect(afterFailure({ attempts: 3, createdAt: 0 }, failure(), policy, 1000, undefined)).toEqual({
      kind: 'retry',
      attempts: 3,
      counted: true,
      nextAttemptAt: 1000 + 2000,
      notBefore: undefined,
      lastError: 'LOGX_MSG_ERR_SERVER: HTTP 503',
    })
    const limited = failure({ retryAfterMs: 90_000 })
    expect(afterFailure({ attempts: 1, createdAt: 0 }, limited, policy, 1000, undefined)).toMatchObject({
      nextAttemptAt: 91_000,
      notBefore: 91_000,
    })
  })

  it('12. while draining, waits shrink to the time left, never below the base delay or a Retry-After', () => {
    const late = { attempts: 8, createdAt: 0 }
    // A step of 60 s (the cap) with 8 s left: a quarter of those.
    expect(afterFailure(late, failure(), policy, 1000, 9000)).toMatchObject({ nextAttemptAt: 3000 })
    expect(afterFailure(late, failure(), policy, 1000, 1100)).toMatchObject({ nextAttemptAt: 1500 })
    expect(afterFailure(late, failure({ retryAfterMs: 5000 }), policy, 1000, 9000)).toMatchObject({
      nextAttemptAt: 6000,
    })
  })
})

describe('where a batch goes and when the journal is rewritten', () => {
  it('13. to the spill once the window is full, and while anything is spilled', () => {
    expect(spillNext({ canSpill: true, spilled: 0 }, 999, 1000)).toBe(false)
    expect(spillNext({ canSpill: true, spilled: 0 }, 1000, 1000)).toBe(true)
    expect(spillNext({ canSpill: true, spilled: 3 }, 10, 1000)).toBe(true)
    expect(spillNext({ canSpill: false, spilled: 0 }, 5000, 1000)).toBe(false)
  })

  it('14. compacted past 1000 records and four times what is pending', () => {
    expect(shouldCompact(1001, 10)).toBe(true)
    expect(shouldCompact(1000, 10)).toBe(false)
    expect(shouldCompact(2000, 500)).toBe(false)
    expect(shouldCompact(2001, 500)).toBe(true)
  })
})
