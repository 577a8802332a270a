// What one intake source counts for /metrics: requests, events accepted, requests refused by status.
import type { IntakeCounters } from './types'

export interface IntakeCounts {
  requests: number
  accepted: number
  /** By HTTP status (400, 401, 403, 404, 405, 413, 415, 429, 500, 503). */
  refused: Record<number, number>
}

export interface CountingIntake extends IntakeCounters {
  counts(): IntakeCounts
}

export function createIntakeCounters(): CountingIntake {
  const counts: IntakeCounts = { requests: 0, accepted: 0, refused: {} }
  return {
    request() {
      counts.requests++
    },
    accepted(events) {
      counts.accepted += events
    },
    refused(status) {
      counts.refused[status] = (counts.refused[status] ?? 0) + 1
    },
    counts: () => ({ ...counts, refused: { ...counts.refused } }),
  }
}
