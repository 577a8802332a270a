// The resolves an alert's sender made (Alertmanager's `resolved`), remembered for a while so a late
// firing of the same alert does not open the incident again (pure: `now` is an argument).
// In a fleet behind one address the firing and the resolved webhooks of one alert may reach two agents,
// and Alertmanager's HA peers may resend a firing the other peer already resolved: the agent that
// hears the firing last must not page for an alert that is over.
// 1. remember(key, endedAt, now): the incident `key` ended at `endedAt` (the alert's endsAt, else the
//    time the resolve came in); a later resolve of the same key moves the time on, never back.
// 2. stale(key, startedAt, now): a firing of `key` whose alert started at or before a remembered end is
//    stale (the alert the resolve ended); one that started after it is a new firing (Alertmanager gives
//    a firing after a resolve a new startsAt) and opens a new incident.
// 3. A firing without a start time is never stale: without it, old and new cannot be told apart, and a
//    duplicate page beats silence.
// 4. A resolve is remembered REMEMBER_MS after it was heard, then forgotten (checked lazily).
// 5. At most MAX_REMEMBERED keys: past it, the resolve heard first is forgotten first.
export const REMEMBER_MS = 60 * 60 * 1000
export const MAX_REMEMBERED = 10_000

interface Remembered {
  endedAt: number
  heardAt: number
}

export interface ResolvedMemory {
  remember(key: string, endedAt: number, now: number): void
  stale(key: string, startedAt: number | undefined, now: number): boolean
  readonly size: number
}

export function createResolvedMemory(maxKeys: number = MAX_REMEMBERED): ResolvedMemory {
  // A Map iterates in insertion order: re-inserting on remember() keeps the first-forgotten first.
  const ended = new Map<string, Remembered>()
  return {
    remember(key, endedAt, now) {
      const before = ended.get(key)
      ended.delete(key)
      ended.set(key, { endedAt: Math.max(endedAt, before?.endedAt ?? -Infinity), heardAt: now })
      while (ended.size > maxKeys) {
        const oldest = ended.keys().next()
        if (oldest.done === true) break
        ended.delete(oldest.value)
      }
    },
    stale(key, startedAt, now) {
      const entry = ended.get(key)
      if (entry === undefined) return false
      if (now - entry.heardAt > REMEMBER_MS) {
        ended.delete(key)
        return false
      }
      return startedAt !== undefined && startedAt <= entry.endedAt
    },
    get size() {
      return ended.size
    },
  }
}
