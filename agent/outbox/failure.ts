// A failed delivery as the outbox reads it: by shape (`recoverable`, `ambiguous`, `retryAfterMs`,
// `code`), so the outbox imports nothing of the messaging client.

export interface FailureInfo {
  recoverable: boolean
  ambiguous: boolean
  retryAfterMs: number | undefined
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
    reason: typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(err),
  }
}
