// The day a digest test tells, and the kinds it tells of: 09:00 on 1 December 2026 to 09:00 the
// next day in Asia/Kolkata (03:30 UTC), as seen from host web-1. A kind is an error of source `app`
// first seen an hour into the day and last seen an hour later, unless a test says otherwise.
import type { KindEntry } from '../../alerts/kinds/types'

export const HOUR_MS = 3_600_000
const from = Date.UTC(2026, 11, 1, 3, 30)

/** The period a digest covers, and the zone and host it is told for. */
export const DIGEST_DAY = { from, to: from + 24 * HOUR_MS, view: { timeZone: 'Asia/Kolkata', host: 'web-1' } }

/** A kind entry as the store keeps it; `extra` sets what the test is about (count, hourly, incident). */
export function kindEntry(id: string, template: string, extra: Partial<KindEntry> = {}): KindEntry {
  return {
    id,
    source: 'app',
    template,
    aliases: [],
    level: 50,
    firstSeen: from + HOUR_MS,
    lastSeen: from + 2 * HOUR_MS,
    lastResolved: undefined,
    count: 1,
    hourly: [],
    hosts: ['web-1'],
    sample: '',
    incident: undefined,
    learned: false,
    ...extra,
  }
}
