import { describe, expect, it } from 'vitest'
import { afterSend, countClaim, degradedClaim, noClaims, type ClaimCounts } from '../../../agent/cluster/claim-rules'
import { idempotencyKey } from '../../../agent/cluster/keys'
import type { FleetNotice } from '../../../agent/cluster/types'

const notice: FleetNotice = { incident: 'db-down', kind: 'firing', step: '0', channel: 'sms', part: 0, firedAt: 1_700 }
const zero = (): ClaimCounts => noClaims()
const won = { outcome: 'won', idempotencyKey: 'lx-1', failover: false } as const
const degraded = { outcome: 'degraded', idempotencyKey: 'lx-2', reason: 'Redis unreachable: ECONNREFUSED' } as const

describe('claims', () => {
  it('1: a claim Redis cannot answer is degraded, keyed by the local firedAt as every agent keys it', () => {
    expect(degradedClaim(notice, 'Redis unreachable: ECONNREFUSED')).toEqual({
      outcome: 'degraded',
      idempotencyKey: idempotencyKey(notice, '1700'),
      reason: 'Redis unreachable: ECONNREFUSED',
    })
  })

  it('2: each answer counts once, a failover also as one', () => {
    const counts = zero()
    countClaim(counts, won)
    countClaim(counts, { ...won, failover: true })
    countClaim(counts, { outcome: 'done', by: 'b' })
    countClaim(counts, { outcome: 'held', by: 'b', retryAfterMs: 10 })
    countClaim(counts, { outcome: 'acked', by: 'b', ack: undefined })
    countClaim(counts, degraded)
    expect(counts).toEqual({
      claimsWon: 2,
      claimsLost: 1,
      claimsHeld: 1,
      failovers: 1,
      acked: 1,
      degradedSends: 1,
      merged: 0,
    })
  })
})

describe('sent marks', () => {
  it('3: needs none for a claim this agent did not send under', () => {
    expect(afterSend({ outcome: 'done', by: 'b' }, true)).toBe('none')
    expect(afterSend({ outcome: 'held', by: 'b', retryAfterMs: 5 }, false)).toBe('none')
    expect(afterSend({ outcome: 'acked', by: 'b', ack: undefined }, true)).toBe('none')
  })

  it('4: remembers a degraded send, or a won one while Redis is down, for the reconnect', () => {
    expect(afterSend(degraded, true)).toBe('remember')
    expect(afterSend(degraded, false)).toBe('remember')
    expect(afterSend(won, false)).toBe('remember')
  })

  it('5: marks a won send at once while Redis is up', () => {
    expect(afterSend(won, true)).toBe('mark')
  })
})
