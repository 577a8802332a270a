// What must outlive the process about incidents, in `<state_dir>/incidents.json`:
// - paged: incidents that already notified, so a restarted (or reloaded) engine, which starts with
//   no memory, does not page them again while they would still be firing;
// - pending: incidents waiting out group_wait (or a threshold) whose lines are already committed,
//   so a crash before they fire does not lose them: their first line is replayed at start.
// - each paged incident as the engine had it (status, step, acknowledgement, who was paged, its
//   last line censored), so a new engine (restart, reload) is given its incidents back
//   (`engine.restore`) instead of meeting them again line by line;
// - the ids of the missed calls already used to acknowledge, so a call acknowledges once.
// All is written before the tail offsets that depend on it are committed, as a journal
// (state-journal.ts): each change one appended line, so a page costs O(1) however many incidents are
// open; the file is compacted when it holds far more lines than the state (compaction.ts).
// Without a file (an in-app target whose outbox is in memory) the same state lives in memory only:
// nothing outlives the process there, so there is nothing to replay either.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { AbsenceEntry } from '../../alerts'
import { compactAtOpen, writeMode } from './compaction'
import { IncidentEntries, overBound } from './incident-entries'
import { pagesToResend } from './page-reconcile'
import { openStateJournal, type JournalOp, type StateJournal } from './state-journal'
import type { PagedIncident, PendingIncident, StoredIncident } from './types'

export type { PagedIncident, PendingIncident, StoredIncident } from './types'
export { MAX_CALLS, MAX_ENTRIES } from './incident-entries'

export interface IncidentState {
  paged(key: string): PagedIncident | undefined
  /**
   * A selected line of this incident arrived. A new incident is remembered as pending (saved now)
   * unless `firesNow`: its notice is decided in the same call, and notified() records it.
   */
  observe(key: string, entry: PendingIncident, now: number, firesNow?: boolean): void
  /** A firing or repeat notice of this incident is in the outbox (saved now). */
  notified(key: string, rule: string, now: number, incident?: StoredIncident): void
  /** What the engine has of a paged incident changed without a page (an acknowledgement): saved now. */
  changed(key: string, incident: StoredIncident): void
  /** The paged incidents the engine had, to give a new engine back. */
  stored(): StoredIncident[]
  /**
   * Refreshes the stored paged incidents that saw lines since the last call (counts, last lines);
   * no write by itself.
   */
  refresh(current: (key: string) => StoredIncident | undefined): void
  /** A missed call was used (kept with the next write). */
  useCall(id: string): void
  usedCall(id: string): boolean
  /** The keys absence rules watch, as last recorded. */
  absence(): AbsenceEntry[]
  /** Records them (kept with the next write). */
  setAbsence(entries: AbsenceEntry[]): void
  /** The incident resolved: the next firing of the key is a new incident. */
  resolved(key: string): void
  /**
   * At start, after a damaged outbox: the recorded pages it may have lost unsent (page-reconcile.ts)
   * become pending with their last line, so they fire again (saved now). Returns their keys.
   */
  repageUnsent(inOutbox: ReadonlySet<string>, outboxLostRecords: boolean, now: number): string[]
  pending(): PendingIncident[]
  /** Forgets what cannot matter any more; `keepMs(rule)` is how long a rule's entries matter. */
  expire(now: number, keep: (rule: string) => { pagedMs: number; pendingMs: number }): string[]
  /** Saves lazily-updated fields (lastSeen) when something changed. */
  save(): void
  readonly size: { paged: number; pending: number }
  /** Entries dropped (oldest first) to keep each list within MAX_ENTRIES. */
  readonly dropped: number
}

/**
 * What is not written yet of the paged incidents: those that saw lines since the last refresh (their
 * stored copy to redo), those whose last-seen time changed since the last write (written as a small
 * 's' op: a storm of lines costs a few bytes each, not the whole incident each), and those whose
 * stored copy changed since the last write. Plus changes kept for the next write (lazily updated
 * fields, expiries, used calls).
 */
class Unwritten {
  readonly touched = new Set<string>()
  readonly seen = new Set<string>()
  readonly stored = new Set<string>()
  queued: JournalOp[] = []

  /** The incident is written now, or gone: nothing of it is left to write. */
  settle(key: string): void {
    this.touched.delete(key)
    this.seen.delete(key)
    this.stored.delete(key)
  }

  /** What is left to write, in order, then `ops`; forgets it. */
  take(paged: ReadonlyMap<string, PagedIncident>, ops: readonly JournalOp[]): JournalOp[] {
    const all = this.queued
    this.queued = []
    for (const key of this.stored) {
      const p = paged.get(key)
      if (p !== undefined) all.push(['p', key, p])
      this.seen.delete(key)
    }
    this.stored.clear()
    for (const key of this.seen) {
      const p = paged.get(key)
      if (p !== undefined) all.push(['s', key, p.lastSeen])
    }
    this.seen.clear()
    all.push(...ops)
    return all
  }
}

class JournaledIncidentState implements IncidentState {
  private readonly entries = new IncidentEntries()
  private readonly unwritten = new Unwritten()
  private droppedCount = 0
  private journal: StateJournal | undefined

  /** `file`: where the state is kept; undefined: memory only. */
  open(file: string | undefined): this {
    if (file === undefined) return this
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    const opened = openStateJournal(file, 'incidents')
    for (const op of opened.ops) this.entries.apply(op)
    this.journal = opened.journal
    if (compactAtOpen(this.journal.lines, this.entries.count)) this.journal.rewrite(this.entries.snapshot())
    return this
  }

  paged(key: string): PagedIncident | undefined {
    return this.entries.paged.get(key)
  }

  observe(key: string, entry: PendingIncident, now: number, firesNow = false): void {
    const p = this.entries.paged.get(key)
    if (p !== undefined) {
      p.lastSeen = now
      this.unwritten.touched.add(key)
      this.unwritten.seen.add(key)
      return
    }
    if (firesNow || this.entries.pending.has(key)) return
    this.entries.pending.set(key, entry)
    this.bound(this.entries.pending)
    this.write([['q', key, entry]])
  }

  notified(key: string, rule: string, now: number, incident?: StoredIncident): void {
    const entry: PagedIncident =
      incident === undefined
        ? { rule, notifiedAt: now, lastSeen: now }
        : { rule, notifiedAt: now, lastSeen: now, incident }
    this.entries.setPaged(key, entry)
    this.unwritten.settle(key)
    this.bound(this.entries.paged)
    this.write([['p', key, entry]])
  }

  changed(key: string, incident: StoredIncident): void {
    let p = this.entries.paged.get(key)
    if (p === undefined) {
      const { rule, notifiedAt, lastSeen } = incident.snapshot
      p = { rule, notifiedAt, lastSeen, incident }
      this.entries.paged.set(key, p)
      this.bound(this.entries.paged)
    } else {
      p.incident = incident
    }
    this.unwritten.settle(key)
    this.write([['p', key, p]])
  }

  stored(): StoredIncident[] {
    const out: StoredIncident[] = []
    for (const p of this.entries.paged.values()) if (p.incident !== undefined) out.push(p.incident)
    return out
  }

  refresh(current: (key: string) => StoredIncident | undefined): void {
    for (const key of this.unwritten.touched) {
      const p = this.entries.paged.get(key)
      const incident = p === undefined ? undefined : current(key)
      if (p !== undefined && incident !== undefined) p.incident = incident
      this.unwritten.stored.add(key)
    }
    this.unwritten.touched.clear()
  }

  useCall(id: string): void {
    this.entries.useCall(id)
    this.unwritten.queued.push(['c', id])
  }

  usedCall(id: string): boolean {
    return this.entries.calls.has(id)
  }

  absence(): AbsenceEntry[] {
    return this.entries.absence
  }

  setAbsence(entries: AbsenceEntry[]): void {
    this.entries.absence = entries
    this.unwritten.queued.push(['a', entries])
  }

  resolved(key: string): void {
    this.unwritten.settle(key)
    if (this.entries.forget(key)) this.write([['d', key]])
  }

  pending(): PendingIncident[] {
    return [...this.entries.pending.values()]
  }

  repageUnsent(inOutbox: ReadonlySet<string>, outboxLostRecords: boolean, now: number): string[] {
    const keys = pagesToResend(this.entries.paged, inOutbox, outboxLostRecords)
    const ops: JournalOp[] = []
    for (const key of keys) {
      const line = this.entries.paged.get(key)?.incident?.line
      const rule = this.entries.paged.get(key)?.rule
      if (line === undefined || rule === undefined) continue
      const entry: PendingIncident = { rule, raw: line.raw, source: line.source ?? '', format: line.format, since: now }
      if (line.fields !== undefined) entry.fields = line.fields
      this.entries.forget(key)
      this.unwritten.settle(key)
      this.entries.pending.set(key, entry)
      ops.push(['d', key], ['q', key, entry])
    }
    if (ops.length > 0) this.write(ops)
    return keys
  }

  expire(now: number, keep: (rule: string) => { pagedMs: number; pendingMs: number }): string[] {
    const gone: string[] = []
    for (const [key, p] of this.entries.paged) {
      if (now - p.lastSeen < keep(p.rule).pagedMs) continue
      this.entries.paged.delete(key)
      this.unwritten.settle(key)
      this.unwritten.queued.push(['d', key])
      gone.push(key)
    }
    for (const [key, p] of this.entries.pending) {
      if (now - p.since < keep(p.rule).pendingMs) continue
      this.entries.pending.delete(key)
      this.unwritten.queued.push(['d', key])
    }
    return gone
  }

  save(): void {
    this.write([])
  }

  get size(): { paged: number; pending: number } {
    return { paged: this.entries.paged.size, pending: this.entries.pending.size }
  }

  get dropped(): number {
    return this.droppedCount
  }

  /** Drops past the bound, oldest first, as deletions in the journal. */
  private bound(map: Map<string, unknown>): void {
    for (const oldest of overBound(map)) {
      this.droppedCount++
      this.unwritten.queued.push(['d', oldest])
    }
  }

  /** Writes what is left to write and `ops`, in order, with one append; or compacts (compaction.ts). */
  private write(ops: readonly JournalOp[]): void {
    const all = this.unwritten.take(this.entries.paged, ops)
    if (this.journal === undefined || all.length === 0) return
    if (writeMode(this.journal.lines, all.length, this.entries.count) === 'compact')
      this.journal.rewrite(this.entries.snapshot())
    else this.journal.append(all)
  }
}

/** `file`: where the state is kept (`<state_dir>/incidents.json` for the daemon); undefined: memory only. */
export function createIncidentState(file: string | undefined): IncidentState {
  return new JournaledIncidentState().open(file)
}
