import { describe, expect, it } from 'vitest'
import { createFaultSet, parseFault } from '../../../agent/sandbox/faults'

describe('fault rules', () => {
  it('applies per route or globally; the first terminal rule wins', () => {
    const set = createFaultSet([
      parseFault({ kind: 'error', status: 502, route: 'send_sms' }),
      parseFault({ kind: 'drop' }),
    ])
    expect(set.plan('send_sms').action).toEqual({ kind: 'error', status: 502, message: 'injected fault: HTTP 502' })
    expect(set.plan('sms_record').action).toEqual({ kind: 'drop', phase: 'before' })
  })

  it('expires a rule after `times` firings', () => {
    const set = createFaultSet([parseFault({ kind: 'rate-limit', retryAfterSeconds: 1, times: 2 })])
    expect(set.plan('x').action?.kind).toBe('rate-limit')
    expect(set.list()[0]?.times).toBe(1)
    expect(set.plan('x').action?.kind).toBe('rate-limit')
    expect(set.plan('x').action).toBeUndefined()
    expect(set.list()).toEqual([])
  })

  it('fires by rate using the given randomness', () => {
    let r = 0
    const set = createFaultSet([parseFault({ kind: 'error', status: 500, rate: 0.25 })], () => r)
    r = 0.1
    expect(set.plan('x').action?.kind).toBe('error')
    r = 0.5
    expect(set.plan('x').action).toBeUndefined()
  })

  it('adds fixed and random latency', () => {
    const set = createFaultSet(
      [parseFault({ kind: 'latency', ms: 10 }), parseFault({ kind: 'latency', minMs: 100, maxMs: 200 })],
      () => 0.5,
    )
    expect(set.plan('x')).toEqual({ latencyMs: 160, action: undefined })
  })

  it('names the bad field of a malformed rule', () => {
    expect(() => parseFault({ kind: 'malformed', body: 'xml' })).toThrow(/fault\.body/)
    expect(() => parseFault({ kind: 'error', status: 503, rate: 2 })).toThrow(/fault\.rate/)
    expect(() => parseFault({ kind: 'latency' })).toThrow(/fault\.ms/)
    expect(() => parseFault([])).toThrow(/fault: must be an object/)
  })
})
