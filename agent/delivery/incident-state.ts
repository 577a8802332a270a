// What must outlive the process about incidents, in `<state_dir>/incidents.json`:
// - paged: incidents that already notified, so a restarted (or reloaded) engine, which starts with
//   no memory, does not page them again while they would still be firing;
// - pending: incidents waiting out group_wait (or a threshold) whose lines are already committed,
//   so a crash before they fire does not lose them: their first line is replayed at start.
// - each paged incident as the engine had it (status, step, acknowledgement, who was paged, its
//   last line censored), so a new engine (restart, reload) is given its incidents back
//   (`engine.restore`) instead of meeting them again line by line;
// - the ids of the missed calls already used to acknowledge, so a call acknowledges once.
// All is written (temp file + rename) before the tail offsets that depend on it are committed.
// Without a file (an in-app target whose outbox is in memory) the same state lives in memory only:
// nothing outlives the process there, so there is nothing to replay either.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { AbsenceEntry, IncidentSnapshot } from '../../alerts'
import type { LineFormat } from '../config/types'
import { DeliveryError, DeliveryErrorCodes } from './errors'

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
  line: { raw: string; format: 'json' | 'text'; source: string | undefined }
}

export interface PendingIncident {
  rule: string
  raw: string
  source: string
  format: LineFormat
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

function load(file: string): StateFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StateFile>
    if (parsed.version === 1 && typeof parsed.paged === 'object' && typeof parsed.pending === 'object') {
      return {
        version: 1,
        paged: parsed.paged ?? {},
        pending: parsed.pending ?? {},
        calls: Array.isArray(parsed.calls) ? parsed.calls : [],
        absence: Array.isArray(parsed.absence) ? parsed.absence : [],
      }
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    // Missing is the first start; a torn file cannot happen (rename), a foreign one costs at most a re-page.
    if (code !== 'ENOENT' && !(err instanceof SyntaxError)) {
      throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot read ${file}: ${(err as Error).message}`, { cause: err })
    }
  }
  return { version: 1, paged: {}, pending: {} }
}

/** Drops the oldest entries past MAX_ENTRIES; returns how many. */
function bounded<T>(map: Map<string, T>): number {
  let dropped = 0
  for (; map.size > MAX_ENTRIES; dropped++) map.delete(map.keys().next().value as string)
  return dropped
}

/** `file`: where the state is kept (`<state_dir>/incidents.json` for the daemon); undefined: memory only. */
export function createIncidentState(file: string | undefined): IncidentState {
  if (file !== undefined) mkdirSync(dirname(file), { recursive: true })
  const initial: StateFile = file === undefined ? { version: 1, paged: {}, pending: {} } : load(file)
  const paged = new Map(Object.entries(initial.paged))
  const pending = new Map(Object.entries(initial.pending))
  const calls = new Set(initial.calls ?? [])
  let absence = initial.absence ?? []
  // Paged incidents that saw lines since the last refresh: only those need their stored copy redone.
  const touched = new Set<string>()
  let dirty = false
  let dropped = 0

  function save(): void {
    if (file === undefined) {
      dirty = false
      return
    }
    const body: StateFile = { version: 1, paged: Object.fromEntries(paged), pending: Object.fromEntries(pending), calls: [...calls], absence }
    const tmp = `${file}.tmp`
    try {
      writeFileSync(tmp, JSON.stringify(body))
      renameSync(tmp, file)
      dirty = false
    } catch (err) {
      throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, { cause: err })
    }
  }

  return {
    paged: (key) => paged.get(key),
    observe(key, entry, now, firesNow = false) {
      const p = paged.get(key)
      if (p !== undefined) {
        p.lastSeen = now
        touched.add(key)
        dirty = true
        return
      }
      if (firesNow || pending.has(key)) return
      pending.set(key, entry)
      dropped += bounded(pending)
      save()
    },
    notified(key, rule, now, incident) {
      pending.delete(key)
      paged.delete(key)
      paged.set(key, incident === undefined ? { rule, notifiedAt: now, lastSeen: now } : { rule, notifiedAt: now, lastSeen: now, incident })
      dropped += bounded(paged)
      save()
    },
    changed(key, incident) {
      const p = paged.get(key)
      if (p === undefined) {
        paged.set(key, { rule: incident.snapshot.rule, notifiedAt: incident.snapshot.notifiedAt, lastSeen: incident.snapshot.lastSeen, incident })
        dropped += bounded(paged)
      } else {
        p.incident = incident
      }
      save()
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
        if (p === undefined || incident === undefined) continue
        p.incident = incident
        dirty = true
      }
      touched.clear()
    },
    useCall(id) {
      calls.add(id)
      for (const old of calls) {
        if (calls.size <= MAX_CALLS) break
        calls.delete(old)
      }
      dirty = true
    },
    usedCall: (id) => calls.has(id),
    absence: () => absence,
    setAbsence(entries) {
      absence = entries
      dirty = true
    },
    resolved(key) {
      if (paged.delete(key) || pending.delete(key)) save()
    },
    pending: () => [...pending.values()],
    expire(now, keep) {
      const gone: string[] = []
      for (const [key, p] of paged) {
        if (now - p.lastSeen >= keep(p.rule).pagedMs) {
          paged.delete(key)
          gone.push(key)
        }
      }
      let dropped = 0
      for (const [key, p] of pending) {
        if (now - p.since >= keep(p.rule).pendingMs) {
          pending.delete(key)
          dropped++
        }
      }
      if (gone.length > 0 || dropped > 0) dirty = true
      return gone
    },
    save() {
      if (dirty) save()
    },
    get size() {
      return { paged: paged.size, pending: pending.size }
    },
    get dropped() {
      return dropped
    },
  }
}
