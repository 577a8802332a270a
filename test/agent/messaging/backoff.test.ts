import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from '../../../agent/messaging/backoff'

describe('backoff', () => {
  it('stays within [0, min(max, min * factor^(n-1))] for any retry and jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (retry, r, min, max) => {
          const policy = { ...DEFAULT_RETRY_POLICY, minDelayMs: min, maxDelayMs: max }
          const d = backoffDelay(retry, policy, () => r)
          expect(d).toBeGreaterThanOrEqual(0)
          expect(d).toBeLessThanOrEqual(Math.min(max, min * 2 ** (retry - 1)))
        },
      ),
    )
  })

  it('grows exponentially until the cap', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, minDelayMs: 100, maxDelayMs: 1000 }
    const top = () => 0.9999999
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, top))).toEqual([99, 199, 399, 799, 999])
  })

  it('waits at least what Retry-After asks', () => {
    expect(retryDelay(1, DEFAULT_RETRY_POLICY, () => 0, 3000)).toBe(3000)
  })

  it('parses Retry-After seconds and HTTP dates', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000)
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:05 GMT', 1000)).toBe(4000)
    expect(parseRetryAfter('soon', 0)).toBeUndefined()
    expect(parseRetryAfter(undefined, 0)).toBeUndefined()
  })
})
