// Capped exponential backoff with full jitter. Pure: randomness comes in as an argument so tests
// can pin it.

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  retries: number
  /** Base delay of the first retry. */
  minDelayMs: number
  /** Cap of any single computed delay. */
  maxDelayMs: number
  factor: number
  /** A Retry-After longer than this is not waited for: the error is returned to the caller instead. */
  maxRetryAfterMs: number
  /**
   * Sends (SMS, e-mail, chat, voice, lead, activities) are not repeated after an ambiguous failure
   * (timeout, dropped connection, 5xx, malformed 2xx) because the far end may already have acted.
   * Set this to accept possible duplicates in exchange for fewer lost messages.
   */
  retryAmbiguousSends: boolean
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  minDelayMs: 200,
  maxDelayMs: 10_000,
  factor: 2,
  maxRetryAfterMs: 60_000,
  retryAmbiguousSends: false,
}

/** Delay before retry number `retry` (1-based): uniform in [0, min(max, min * factor^(retry-1))]. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.minDelayMs * policy.factor ** Math.max(0, retry - 1))
  return Math.floor(random() * ceiling)
}

/** A Retry-After wins over a shorter backoff: waiting less than the server asked only earns another 429. */
export function retryDelay(
  retry: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs: number | undefined,
): number {
  const backoff = backoffDelay(retry, policy, random)
  return retryAfterMs === undefined ? backoff : Math.max(backoff, retryAfterMs)
}

/** Parses Retry-After (delta seconds or HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}
