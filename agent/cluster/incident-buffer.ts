// What this agent saw of each incident since the last flush (pure). Lines are merged per incident, so
// Redis is written per incident per flush, never per line; while Redis is down the deltas keep
// merging (one per incident), and at most `maxIncidents` are kept: past that the least recently seen
// is dropped and counted (its lines still count locally; the fleet's count misses them).
import type { IncidentDelta } from './types'

export interface PendingIncident {
  rule: string
  title: string
  count: number
  first: number
  last: number
  windowMs: number | undefined
  /** A threshold rule's lines by second (epoch s of each delta's `last`). */
  buckets: Map<number, number>
}

export interface IncidentBuffer {
  add(key: string, delta: IncidentDelta): void
  /** Everything buffered, emptying the buffer. */
  take(): Map<string, PendingIncident>
  /** A batch that could not be written, merged back under what came since. */
  restore(batch: Map<string, PendingIncident>): void
  readonly size: number
  readonly dropped: number
}

export const MAX_BUFFERED_INCIDENTS = 10_000

function merge(older: PendingIncident, newer: PendingIncident): PendingIncident {
  const buckets = new Map(older.buckets)
  for (const [second, count] of newer.buckets) buckets.set(second, (buckets.get(second) ?? 0) + count)
  // A delta may carry no rule or title (a line counted before its notice names the incident).
  return {
    rule: newer.rule || older.rule,
    title: newer.title || older.title,
    count: older.count + newer.count,
    first: Math.min(older.first, newer.first),
    last: Math.max(older.last, newer.last),
    windowMs: newer.windowMs ?? older.windowMs,
    buckets,
  }
}

function pendingOf(delta: IncidentDelta): PendingIncident {
  const buckets = new Map<number, number>()
  if (delta.windowMs !== undefined && delta.count > 0) buckets.set(Math.floor(delta.last / 1000), delta.count)
  return {
    rule: delta.rule,
    title: delta.title,
    count: delta.count,
    first: delta.first,
    last: delta.last,
    windowMs: delta.windowMs,
    buckets,
  }
}

export function createIncidentBuffer(maxIncidents: number = MAX_BUFFERED_INCIDENTS): IncidentBuffer {
  let pending = new Map<string, PendingIncident>()
  let dropped = 0

  function put(key: string, value: PendingIncident): void {
    // Re-inserted so the map's order is least recently seen first.
    pending.delete(key)
    pending.set(key, value)
    while (pending.size > maxIncidents) {
      const oldest = pending.keys().next().value as string
      pending.delete(oldest)
      dropped++
    }
  }

  return {
    add(key, delta) {
      // A count of 0 still names the incident (its rule and title) for the fleet's table.
      if (!(delta.count >= 0)) return
      const existing = pending.get(key)
      const next = pendingOf(delta)
      put(key, existing === undefined ? next : merge(existing, next))
    },
    take() {
      const batch = pending
      pending = new Map()
      return batch
    },
    restore(batch) {
      const newer = pending
      pending = new Map()
      for (const [key, value] of batch) put(key, value)
      for (const [key, value] of newer) {
        const older = pending.get(key)
        put(key, older === undefined ? value : merge(older, value))
      }
    },
    get size() {
      return pending.size
    },
    get dropped() {
      return dropped
    },
  }
}
