// The per-client rate limit of an intake source: `requests` per `perMs` window for each client
// address, counted in fixed windows. Pure: the clock is an argument.
//
// 1. A client's first request opens its window at `now`; requests in the window are counted.
// 2. A request past `requests` in the window is refused with the seconds until the window ends
//    (at least 1), for Retry-After; a refused request is not counted.
// 3. Once its window is over, a client's next request opens a new one (rule 1).
// 4. The table is bounded (`maxClients`): when full, windows that are over are dropped first, then the
//    oldest window, so a flood of addresses cannot grow memory (the dropped client starts afresh).
import type { IntakeRateLimit } from '../config/types'

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export interface RateLimiter {
  take(client: string, now: number): RateDecision
}

const DEFAULT_MAX_CLIENTS = 10_000

interface Window {
  startedAt: number
  count: number
}

export function createRateLimiter(limit: IntakeRateLimit, maxClients = DEFAULT_MAX_CLIENTS): RateLimiter {
  // A Map keeps insertion order: its first key is the oldest window (re-inserted when renewed).
  const windows = new Map<string, Window>()

  function makeRoom(now: number): void {
    for (const [client, window] of windows) if (now - window.startedAt >= limit.perMs) windows.delete(client)
    while (windows.size >= maxClients) {
      const oldest = windows.keys().next()
      if (oldest.done === true) return
      windows.delete(oldest.value)
    }
  }

  return {
    take(client, now) {
      const window = windows.get(client)
      if (window !== undefined && now - window.startedAt < limit.perMs) {
        if (window.count >= limit.requests) {
          const left = window.startedAt + limit.perMs - now
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) }
        }
        window.count++
        return { allowed: true }
      }
      windows.delete(client)
      if (windows.size >= maxClients) makeRoom(now)
      windows.set(client, { startedAt: now, count: 1 })
      return { allowed: true }
    },
  }
}
