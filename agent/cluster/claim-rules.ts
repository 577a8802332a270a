// What the cluster makes of a claim's answer and of a send, pure (cluster.ts applies them).
// Claims (degradedClaim, countClaim):
// 1. a claim Redis cannot answer (down, timed out, refused, unreadable) fails open: `degraded`, with
//    the key derived from the local firedAt, so every agent that pages on its own sends the same key;
// 2. each answer counts once in the stats: won (a failover also as one), done as lost, held, acked,
//    degraded as a degraded send.
// Sent marks (afterSend):
// 3. only a won or degraded claim was sent by us: any other needs no mark;
// 4. a degraded claim, or a won one with Redis down, is remembered and marked on reconnect;
// 5. a won claim with Redis up is marked now.
import { idempotencyKey } from './keys'
import type { Claim, ClusterStats, FleetNotice } from './types'

export type ClaimCounter = 'claimsWon' | 'claimsLost' | 'claimsHeld' | 'acked'

export type ClaimCounts = Pick<ClusterStats, ClaimCounter | 'failovers' | 'degradedSends' | 'merged'>

export type SendFollowUp = 'none' | 'remember' | 'mark'

export function degradedClaim(n: FleetNotice, reason: string): Claim {
  return { outcome: 'degraded', idempotencyKey: idempotencyKey(n, String(n.firedAt)), reason }
}

/** Counts before anything was claimed: where a cluster's counters start. */
export function noClaims(): ClaimCounts {
  return { claimsWon: 0, claimsLost: 0, claimsHeld: 0, failovers: 0, acked: 0, degradedSends: 0, merged: 0 }
}

export function countClaim(counts: ClaimCounts, answer: Claim): void {
  switch (answer.outcome) {
    case 'won':
      counts.claimsWon++
      if (answer.failover) counts.failovers++
      break
    case 'done':
      counts.claimsLost++
      break
    case 'held':
      counts.claimsHeld++
      break
    case 'acked':
      counts.acked++
      break
    case 'degraded':
      counts.degradedSends++
      break
  }
}

export function afterSend(claim: Claim, redisUp: boolean): SendFollowUp {
  if (claim.outcome !== 'won' && claim.outcome !== 'degraded') return 'none'
  if (claim.outcome === 'degraded' || !redisUp) return 'remember'
  return 'mark'
}
