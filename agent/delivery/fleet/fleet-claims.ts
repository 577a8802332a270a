// The dispatcher's side of a fleet's notification log (fleet-gate.ts). Two things keep the log off
// the critical path of a send:
// - Claims go out ahead: a notice is claimed when it is decided, all of one engine step's together
//   (pipelined on the Redis connection while the outbox journals them), so the item's turn in its
//   lane usually finds its answer there instead of paying a round trip first. A win older than half
//   the lease is not trusted at the turn: the claim is made again (which renews our own lease).
// - An item another agent holds is looked at again the moment that agent marks it sent (the log
//   announces every mark), not after a wait; the wait stays, for a lost announcement or a holder
//   that died (then the item is sent here once the holder's lease runs out).
import { HeldByPeer, noticeIdOf } from './fleet-gate'
import type { Claim, FleetGate, FleetNotice } from './types'

/** Claims made ahead and not taken yet (a bound: past it, notices are claimed at their turn). */
export const MAX_AHEAD = 2_000
/** Items remembered as held by another agent (a bound: a forgotten one is only not woken). */
const MAX_HELD = 10_000

export interface FleetClaims {
  /** Claims the notices of items about to be journaled. */
  ahead(notices: readonly FleetNotice[]): void
  /**
   * At the item's turn: the key to send under and the mark to make once sent, or undefined when it
   * is not to be sent here (sent by another agent, or its incident acknowledged elsewhere).
   * Throws HeldByPeer while another agent holds it.
   */
  take(itemId: string, notice: FleetNotice): Promise<{ key: string; done: () => Promise<void> } | undefined>
}

interface Early {
  answer: Promise<Claim>
  /** When the answer came (local clock); undefined until it has. */
  at: number | undefined
}

/** `wake`: an item held by another agent may go now (the outbox tries it at once). */
export function createFleetClaims(
  gate: FleetGate,
  wake: (itemId: string) => void,
  now: () => number = Date.now,
): FleetClaims {
  const { claims } = gate
  const early = new Map<string, Early>()
  /** Items found held, and how often: each looks again later than the last time, unless woken. */
  const held = new Map<string, number>()
  /** Held items by the notice they wait on. */
  const waiting = new Map<string, Set<string>>()
  // The latest marks announced: one may arrive before the answer of a claim Redis made just before
  // it (two connections), and its item then looks again at once.
  const announced = new Set<string>()

  claims.onSent((noticeId) => {
    announced.add(noticeId)
    if (announced.size > MAX_AHEAD) announced.delete(announced.values().next().value as string)
    const items = waiting.get(noticeId)
    if (items === undefined) return
    waiting.delete(noticeId)
    for (const itemId of items) wake(itemId)
  })

  function wait(noticeId: string, itemId: string): void {
    let items = waiting.get(noticeId)
    if (items === undefined) {
      if (waiting.size >= MAX_HELD) waiting.delete(waiting.keys().next().value as string)
      waiting.set(noticeId, (items = new Set()))
    }
    items.add(itemId)
  }

  /**
   * The answer at the item's turn: the one made ahead where it still holds (sent elsewhere,
   * acknowledged, our own fresh lease, or held, with the wait left shortened by the time since),
   * else a new claim.
   */
  async function answerFor(noticeId: string, notice: FleetNotice): Promise<Claim> {
    const entry = early.get(noticeId)
    if (entry === undefined) return claims.claim(notice)
    early.delete(noticeId)
    const claim = await entry.answer
    const age = entry.at === undefined ? 0 : now() - entry.at
    switch (claim.outcome) {
      case 'done':
      case 'acked':
        return claim
      case 'won':
        return age < claims.leaseMs / 2 ? claim : claims.claim(notice)
      case 'held':
        return announced.has(noticeId) || age >= claim.retryAfterMs
          ? claims.claim(notice)
          : { ...claim, retryAfterMs: claim.retryAfterMs - age }
      case 'degraded':
        return claims.claim(notice)
    }
  }

  return {
    ahead(notices) {
      for (const notice of notices) {
        const noticeId = noticeIdOf(notice)
        if (early.size >= MAX_AHEAD || early.has(noticeId)) continue
        const entry: Early = { answer: claims.claim(notice), at: undefined }
        // A claim never rejects (it fails open as `degraded`); if one did, the turn claims again.
        entry.answer.then(
          () => {
            entry.at = now()
          },
          () => early.delete(noticeId),
        )
        early.set(noticeId, entry)
      }
    },
    async take(itemId, notice) {
      const noticeId = noticeIdOf(notice)
      const claim = await answerFor(noticeId, notice)
      const times = held.get(itemId) ?? 0
      held.delete(itemId)
      switch (claim.outcome) {
        case 'held': {
          held.set(itemId, times + 1)
          if (held.size > MAX_HELD) held.delete(held.keys().next().value as string)
          if (announced.has(noticeId)) throw new HeldByPeer(claim.by, 1)
          const woken = claims.listening()
          if (woken) wait(noticeId, itemId)
          throw new HeldByPeer(claim.by, claim.retryAfterMs, times, woken)
        }
        case 'done':
          return undefined
        case 'acked':
          gate.onAcked(notice.incident, claim.ack)
          return undefined
      }
      return { key: claim.idempotencyKey, done: () => claims.sent(notice, claim) }
    },
  }
}
