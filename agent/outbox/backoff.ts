// Retry delays of the outbox, the only backoff of the alert path (the messaging client makes one
// attempt per call and never waits): capped exponential with half jitter, so a crowd of failed
// messages spreads out but none waits less than half its step. A server's Retry-After wins when
// longer, even when it is longer than the cap: calling sooner than asked only earns another refusal.

export interface OutboxBackoff {
  minDelayMs: number
  maxDelayMs: number
  factor: number
}

export const DEFAULT_OUTBOX_BACKOFF: OutboxBackoff = { minDelayMs: 500, maxDelayMs: 60_000, factor: 2 }

export function outboxDelay(
  attempts: number,
  policy: OutboxBackoff,
  random: () => number,
  retryAfterMs?: number,
): number {
  const step = Math.min(policy.maxDelayMs, policy.minDelayMs * policy.factor ** Math.max(0, attempts - 1))
  const delay = Math.floor(step / 2 + (random() * step) / 2)
  return retryAfterMs === undefined ? delay : Math.max(delay, Math.ceil(retryAfterMs))
}

/**
 * How long a failed item waits before its next attempt. A held item waits what the holder's claim
 * says (nothing failed: no backoff). While draining (until `deadline`), waits shrink to fit several
 * more attempts into the time left, but never below the base delay (hammering a struggling API only
 * burns attempts) nor below what the server asked for.
 */
export function retryDelay(
  failure: { held: boolean; retryAfterMs: number | undefined },
  attempts: number,
  policy: OutboxBackoff,
  random: () => number,
  t: number,
  deadline: number | undefined,
): number {
  const delay = failure.held
    ? (failure.retryAfterMs ?? policy.minDelayMs)
    : outboxDelay(attempts, policy, random, failure.retryAfterMs)
  if (deadline === undefined) return delay
  return Math.max(failure.retryAfterMs ?? 0, Math.min(delay, Math.max(policy.minDelayMs, (deadline - t) / 4)))
}
