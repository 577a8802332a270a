// What the incident state holds, as maps, and the journal's changes applied to them: `p` (paged:
// key, entry), `q` (pending: key, entry), `s` (seen: key, last-seen time), `d` (gone: key), `c` (a
// missed call used: id), `a` (the keys absence rules watch). Both the replay at open and the
// compaction's snapshot go through here, so the two cannot disagree.
import type { AbsenceEntry } from '../../alerts'
import type { JournalOp } from './state-journal'
import type { PagedIncident, PendingIncident } from './types'

export const MAX_ENTRIES = 10_000
/** Missed-call ids remembered: far more than a poll interval can bring. */
export const MAX_CALLS = 2_000

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null

export class IncidentEntries {
  readonly paged = new Map<string, PagedIncident>()
  readonly pending = new Map<string, PendingIncident>()
  readonly calls = new Set<string>()
  absence: AbsenceEntry[] = []

  /** Entries the journal describes, as compaction counts them. */
  get count(): number {
    return this.paged.size + this.pending.size + this.calls.size
  }

  /** Applies one change; one of an unknown kind, or malformed, changes nothing. */
  apply(op: JournalOp): void {
    const [kind, key, value] = op
    if (kind === 'a' && Array.isArray(key)) this.absence = key as AbsenceEntry[]
    if (typeof key !== 'string') return
    if (kind === 'p' && isObject(value)) this.setPaged(key, value as PagedIncident)
    else if (kind === 'q' && isObject(value)) this.pending.set(key, value as PendingIncident)
    else if (kind === 's' && typeof value === 'number') this.see(key, value)
    else if (kind === 'd') this.forget(key)
    else if (kind === 'c') this.useCall(key)
  }

  /** A paged entry, moved to the end (the most recent): pending no more. */
  setPaged(key: string, entry: PagedIncident): void {
    this.pending.delete(key)
    this.paged.delete(key)
    this.paged.set(key, entry)
  }

  /** Whether there was anything to forget. */
  forget(key: string): boolean {
    const paged = this.paged.delete(key)
    return this.pending.delete(key) || paged
  }

  useCall(id: string): void {
    this.calls.add(id)
    // Forgetting the oldest needs no line of its own: replaying applies the same bound, a compaction drops them.
    for (const old of this.calls) {
      if (this.calls.size <= MAX_CALLS) break
      this.calls.delete(old)
    }
  }

  /** The whole state as changes: what a compacted journal holds. */
  snapshot(): JournalOp[] {
    return [
      ...[...this.paged].map(([key, p]): JournalOp => ['p', key, p]),
      ...[...this.pending].map(([key, p]): JournalOp => ['q', key, p]),
      ...[...this.calls].map((id): JournalOp => ['c', id]),
      ['a', this.absence],
    ]
  }

  private see(key: string, at: number): void {
    const p = this.paged.get(key)
    if (p !== undefined) p.lastSeen = at
  }
}

/** Drops the oldest entries past MAX_ENTRIES; returns their keys. */
export function overBound(map: Map<string, unknown>): string[] {
  const dropped: string[] = []
  while (map.size > MAX_ENTRIES) {
    const oldest = map.keys().next().value as string
    map.delete(oldest)
    dropped.push(oldest)
  }
  return dropped
}
