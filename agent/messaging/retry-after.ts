// The Retry-After header: read into the `retryAfterMs` of an error, and remembered so that the
// client sends nothing to that operation before it has passed. The client never waits it out
// itself: the caller (the outbox, the one retry layer) does.

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/**
 * What the server asked to wait, per operation, so that no caller (the outbox, or two items of one
 * incident that both need its lead) sends again sooner: Retry-After is an instruction to this
 * client, not to one request. Bounded by the number of operations.
 */
export interface RetryAfterHolds {
  /** Milliseconds left of the wait the server asked for on `operation`; undefined when none. */
  left(operation: string, now: number): number | undefined
  /** Records a Retry-After for `operation`; a longer wait already recorded stands. */
  hold(operation: string, retryAfterMs: number, now: number): void
}

export function createRetryAfterHolds(): RetryAfterHolds {
  const until = new Map<string, number>()
  return {
    left(operation, now) {
      const end = until.get(operation)
      if (end === undefined) return undefined
      if (end > now) return end - now
      until.delete(operation)
      return undefined
    },
    hold(operation, retryAfterMs, now) {
      if (!(retryAfterMs > 0)) return
      until.set(operation, Math.max(until.get(operation) ?? 0, now + retryAfterMs))
    },
  }
}
