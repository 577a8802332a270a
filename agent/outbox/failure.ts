// A failed delivery as the outbox reads it: by shape (`recoverable`, `ambiguous`, `retryAfterMs`,
// `code`), so the outbox imports nothing of the messaging client.

export interface FailureInfo {
  recoverable: boolean
  ambiguous: boolean
  retryAfterMs: number | undefined
  /**
   * Not a failed attempt: the item waits `retryAfterMs` on its own (another agent of a fleet holds
   * its claim, agent/cluster): the attempt is not counted and its lane goes on.
   */
  held: boolean
  reason: string
  message: string
}

export function describeFailure(err: unknown): FailureInfo {
  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>
  return {
    // Errors without the flag (a bug, a TypeError) are not retried: they would fail the same way.
    recoverable: e.recoverable === true,
    ambiguous: e.ambiguous === true,
    retryAfterMs: typeof e.retryAfterMs === 'number' ? e.retryAfterMs : undefined,
    held: e.held === true,
    reason: typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(err),
  }
}
