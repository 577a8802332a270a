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
// open; the file is compacted when it holds far more lines than the state.
// Without a file (an in-app target whose outbox is in memory) the same state lives in memory only:
// nothing outlives the process there, so there is nothing to replay either.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { AbsenceEntry, IncidentSnapshot } from '../../alerts'
import type { LineFormat } from '../config/types'
import type { KeptLine } from './kept-line'
import { openStateJournal, type JournalOp, type StateJournal } from './state-journal'

export interface PagedIncident {
  rule: string
  /** When the last notice (firing or repeat) went to the outbox. */
  notifiedAt: number
  lastSeen: number
  /** The incident as the engine had it (absent in files of earlier versions: those are only not re-paged). */
  incident?: StoredIncident
}

/** An open incident, JSON-safe: the engine's snapshot without its lines, and its last line as read (censored). */
export interface StoredIncident {
  snapshot: Omit<IncidentSnapshot, 'firstLine' | 'lastLine'>
  line: KeptLine
}

export interface PendingIncident {
  rule: string
  raw: string
  source: string
  format: LineFormat
  /** A container's fields of the line (kept-line.ts); absent in earlier files and for other lines. */
  fields?: Record<string, unknown>
  since: number
}

interface StateFile {
  version: 1
  paged: Record<string, PagedIncident>
  pending: Record<string, PendingIncident>
  /** Missed-call ids already used, oldest first (absent in earlier files). */
  calls?: string[]
  /** The group keys absence rules watch (absent in earlier files). */
  absence?: AbsenceEntry[]
}

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
  /** Refreshes the stored paged incidents that saw lines since the last call (counts, last lines); no write by itself. */
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
  pending(): PendingIncident[]
  /** Forgets what cannot matter any more; `keepMs(rule)` is how long a rule's entries matter. */
  expire(now: number, keep: (rule: string) => { pagedMs: number; pendingMs: number }): string[]
  /** Saves lazily-updated fields (lastSeen) when something changed. */
  save(): void
  readonly size: { paged: number; pending: number }
  /** Entries dropped (oldest first) to keep each list within MAX_ENTRIES. */
  readonly dropped: number
}

export const MAX_ENTRIES = 10_000
/** Missed-call ids remembered: far more than a poll interval can bring. */
export const MAX_CALLS = 2_000

/** The earlier format: the whole state as one JSON object (`{"version":1,...}`), rewritten on every change. */
function legacyOps(content: string): JournalOp[] | undefined {
  if (!content.startsWith('{')) return undefined
  let parsed: Partial<StateFile>
  try {
    parsed = JSON.parse(content) as Partial<StateFile>
  } catch {
    return undefined
  }
  if (parsed.version !== 1 || typeof parsed.paged !== 'object' || typeof parsed.pending !== 'object') return []
  return [
    ...Object.entries(parsed.paged ?? {}).map(([key, p]): JournalOp => ['p', key, p]),
    ...Object.entries(parsed.pending ?? {}).map(([key, p]): JournalOp => ['q', key, p]),
    ...(Array.isArray(parsed.calls) ? parsed.calls : []).map((id): JournalOp => ['c', id]),
    ...(Array.isArray(parsed.absence) ? [['a', parsed.absence] as JournalOp] : []),
  ]
}

/** Compacted when the file holds this many more lines than the state has entries. */
const SLACK_LINES = 1000

/** `file`: where the state is kept (`<state_dir>/incidents.json` for the daemon); undefined: memory only. */
export function createIncidentState(file: string | undefined): IncidentState {
  const paged = new Map<string, PagedIncident>()
  const pending = new Map<string, PendingIncident>()
  const calls = new Set<string>()
  let absence: AbsenceEntry[] = []
  let journal: StateJournal | undefined
  if (file !== undefined) {
    mkdirSync(dirname(file), { recursive: true })
    const opened = openStateJournal(file, legacyOps)
    journal = opened.journal
    for (const op of opened.ops) apply(op)
    if (journal.lines > 2 * (paged.size + pending.size + calls.size) + SLACK_LINES) journal.rewrite(snapshot())
  }
  // Paged incidents that saw lines since the last refresh (their stored copy to redo), those whose
  // last-seen time changed since the last write (written as a small 's' op: a storm of lines costs
  // a few bytes each, not the whole incident each), and those whose stored copy changed since the
  // last write.
  const touched = new Set<string>()
  const seen = new Set<string>()
  const unwritten = new Set<string>()
  // Changes kept for the next write (lazily updated fields, expiries, used calls).
  let queued: JournalOp[] = []
  let dropped = 0

  function apply(op: JournalOp): void {
    const [kind, key, value] = op
    if (kind === 'p' && typeof key === 'string' && typeof value === 'object' && value !== null) {
      pending.delete(key)
      paged.delete(key)
      paged.set(key, value as PagedIncident)
    } else if (kind === 'q' && typeof key === 'string' && typeof value === 'object' && value !== null) {
      pending.set(key, value as PendingIncident)
    } else if (kind === 's' && typeof key === 'string' && typeof value === 'number') {
      const p = paged.get(key)
      if (p !== undefined) p.lastSeen = value
    } else if (kind === 'd' && typeof key === 'string') {
      paged.delete(key)
      pending.delete(key)
    } else if (kind === 'c' && typeof key === 'string') {
      calls.add(key)
      forgetOldCalls()
    } else if (kind === 'a' && Array.isArray(key)) {
      absence = key as AbsenceEntry[]
    }
  }

  // Forgetting the oldest needs no line of its own: replaying applies the same bound, a compaction drops them.
  function forgetOldCalls(): void {
    for (const old of calls) {
      if (calls.size <= MAX_CALLS) break
      calls.delete(old)
    }
  }

  function snapshot(): JournalOp[] {
    return [
      ...[...paged].map(([key, p]): JournalOp => ['p', key, p]),
      ...[...pending].map(([key, p]): JournalOp => ['q', key, p]),
      ...[...calls].map((id): JournalOp => ['c', id]),
      ['a', absence],
    ]
  }

  /** Drops past the bound, oldest first, as deletions in the journal. */
  function bound<T>(map: Map<string, T>): void {
    for (; map.size > MAX_ENTRIES; dropped++) {
      const oldest = map.keys().next().value as string
      map.delete(oldest)
      queued.push(['d', oldest])
    }
  }

  /** Writes what is queued and `ops`, in order, with one append; compacts a file grown far past the state. */
  function write(ops: readonly JournalOp[] = []): void {
    for (const key of unwritten) {
      const p = paged.get(key)
      if (p !== undefined) queued.push(['p', key, p])
      seen.delete(key)
    }
    unwritten.clear()
    for (const key of seen) {
      const p = paged.get(key)
      if (p !== undefined) queued.push(['s', key, p.lastSeen])
    }
    seen.clear()
    const all = queued.length === 0 ? ops : [...queued, ...ops]
    queued = []
    if (journal === undefined || all.length === 0) return
    if (journal.lines + all.length > 4 * (paged.size + pending.size + calls.size) + SLACK_LINES)
      journal.rewrite(snapshot())
    else journal.append(all)
  }

  return {
    paged: (key) => paged.get(key),
    observe(key, entry, now, firesNow = false) {
      const p = paged.get(key)
      if (p !== undefined) {
        p.lastSeen = now
        touched.add(key)
        seen.add(key)
        return
      }
      if (firesNow || pending.has(key)) return
      pending.set(key, entry)
      bound(pending)
      write([['q', key, entry]])
    },
    notified(key, rule, now, incident) {
      pending.delete(key)
      paged.delete(key)
      const entry: PagedIncident =
        incident === undefined
          ? { rule, notifiedAt: now, lastSeen: now }
          : { rule, notifiedAt: now, lastSeen: now, incident }
      paged.set(key, entry)
      touched.delete(key)
      seen.delete(key)
      unwritten.delete(key)
      bound(paged)
      write([['p', key, entry]])
    },
    changed(key, incident) {
      let p = paged.get(key)
      if (p === undefined) {
        p = {
          rule: incident.snapshot.rule,
          notifiedAt: incident.snapshot.notifiedAt,
          lastSeen: incident.snapshot.lastSeen,
          incident,
        }
        paged.set(key, p)
        bound(paged)
      } else {
        p.incident = incident
      }
      touched.delete(key)
      seen.delete(key)
      unwritten.delete(key)
      write([['p', key, p]])
    },
    stored() {
      const out: StoredIncident[] = []
      for (const p of paged.values()) if (p.incident !== undefined) out.push(p.incident)
      return out
    },
    refresh(current) {
      for (const key of touched) {
        const p = paged.get(key)
        const incident = p === undefined ? undefined : current(key)
        if (p !== undefined && incident !== undefined) p.incident = incident
        unwritten.add(key)
      }
      touched.clear()
    },
    useCall(id) {
      calls.add(id)
      queued.push(['c', id])
      forgetOldCalls()
    },
    usedCall: (id) => calls.has(id),
    absence: () => absence,
    setAbsence(entries) {
      absence = entries
      queued.push(['a', entries])
    },
    resolved(key) {
      touched.delete(key)
      seen.delete(key)
      unwritten.delete(key)
      if (paged.delete(key) || pending.delete(key)) write([['d', key]])
    },
    pending: () => [...pending.values()],
    expire(now, keep) {
      const gone: string[] = []
      for (const [key, p] of paged) {
        if (now - p.lastSeen >= keep(p.rule).pagedMs) {
          paged.delete(key)
          touched.delete(key)
          seen.delete(key)
          unwritten.delete(key)
          queued.push(['d', key])
          gone.push(key)
        }
      }
      for (const [key, p] of pending) {
        if (now - p.since >= keep(p.rule).pendingMs) {
          pending.delete(key)
          queued.push(['d', key])
        }
      }
      return gone
    },
    save() {
      write()
    },
    get size() {
      return { paged: paged.size, pending: pending.size }
    },
    get dropped() {
      return dropped
    },
  }
}
