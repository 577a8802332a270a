// What must outlive the process about incidents, in `<state_dir>/incidents.json`:
// - paged: incidents that already notified, so a restarted (or reloaded) engine, which starts with
//   no memory, does not page them again while they would still be firing;
// - pending: incidents waiting out group_wait (or a threshold) whose lines are already committed,
//   so a crash before they fire does not lose them: their first line is replayed at start.
// Both are written (temp file + rename) before the tail offsets that depend on them are committed.
// Without a file (an in-app target whose outbox is in memory) the same state lives in memory only:
// nothing outlives the process there, so there is nothing to replay either.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { LineFormat } from '../config/types'
import { DeliveryError, DeliveryErrorCodes } from './errors'

export interface PagedIncident {
  rule: string
  /** When the last notice (firing or repeat) went to the outbox. */
  notifiedAt: number
  lastSeen: number
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
}

export interface IncidentState {
  paged(key: string): PagedIncident | undefined
  /**
   * A selected line of this incident arrived. A new incident is remembered as pending (saved now)
   * unless `firesNow`: its notice is decided in the same call, and notified() records it.
   */
  observe(key: string, entry: PendingIncident, now: number, firesNow?: boolean): void
  /** A firing or repeat notice of this incident is in the outbox (saved now). */
  notified(key: string, rule: string, now: number): void
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

function load(file: string): StateFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StateFile>
    if (parsed.version === 1 && typeof parsed.paged === 'object' && typeof parsed.pending === 'object') {
      return { version: 1, paged: parsed.paged ?? {}, pending: parsed.pending ?? {} }
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
  let dirty = false
  let dropped = 0

  function save(): void {
    if (file === undefined) {
      dirty = false
      return
    }
    const body: StateFile = { version: 1, paged: Object.fromEntries(paged), pending: Object.fromEntries(pending) }
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
        dirty = true
        return
      }
      if (firesNow || pending.has(key)) return
      pending.set(key, entry)
      dropped += bounded(pending)
      save()
    },
    notified(key, rule, now) {
      pending.delete(key)
      paged.delete(key)
      paged.set(key, { rule, notifiedAt: now, lastSeen: now })
      dropped += bounded(paged)
      save()
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
