// Kind table entries for the console's kinds tests: a KindEntry with its fields defaulted, and a
// reader over a list a test can change between requests.
import type { KindEntry, KindsReader } from '../../../../agent/daemon/console/kinds-types'

export const HOUR = 3_600_000
/** A moment 30 minutes into an hour, so the current hour's bucket is plain to see. */
export const NOW = Date.UTC(2026, 11, 2, 9, 30)
export const THIS_HOUR = Math.floor(NOW / HOUR) * HOUR

export function kindEntry(id: string, fields: Partial<KindEntry> = {}): KindEntry {
  return {
    id,
    source: 'app',
    template: `query failed on <*> (${id})`,
    aliases: [],
    level: 50,
    firstSeen: NOW - 3 * 86_400_000,
    lastSeen: NOW - 60_000,
    lastResolved: undefined,
    count: 10,
    hourly: [[THIS_HOUR, 10]],
    hosts: ['web-1'],
    sample: `2026-12-02T09:29:00Z ERROR query failed on db-1 (${id})`,
    incident: undefined,
    learned: false,
    ...fields,
  }
}

export function kindsReader(entries: KindEntry[]): KindsReader & { entries: () => KindEntry[]; list: KindEntry[] } {
  const reader = { list: entries, entries: () => reader.list }
  return reader
}
