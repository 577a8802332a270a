// The incident files' journal (incidents.json, timeline.jsonl) on storage's (agent/storage/journal.ts):
// one change a line, `[kind, ...what it carries]`, appended once per step and compacted when the file
// far outgrows the state. What this adds: only arrays with a kind are changes, and a failure names
// the file as an incident state error (errors.ts).
import { openJournal, type Journal } from '../storage/journal'
import { IncidentErrorCodes, IncidentStateError } from './errors'

/** One change: its kind first, then what it carries. */
export type JournalOp = readonly [string, ...unknown[]]

export interface StateJournal {
  append(ops: readonly JournalOp[]): void
  /** Replaces the file with `ops` (the whole state), then appends go on after them. */
  rewrite(ops: readonly JournalOp[]): void
  /** Lines in the file: the caller compacts when they far outnumber its state. */
  readonly lines: number
}

function failure(file: string, what: string, err: unknown): IncidentStateError {
  return new IncidentStateError(IncidentErrorCodes.STATE, `cannot ${what} ${file}: ${(err as Error).message}`, {
    cause: err,
  })
}

const isOp = (record: unknown): record is JournalOp => Array.isArray(record) && typeof record[0] === 'string'

function stateJournalOf(file: string, journal: Journal): StateJournal {
  return {
    append(ops) {
      try {
        journal.append(ops)
      } catch (err) {
        throw failure(file, 'write', err)
      }
    },
    rewrite(ops) {
      try {
        journal.compact(ops)
      } catch (err) {
        throw failure(file, 'write', err)
      }
    },
    get lines() {
      return journal.lines
    },
  }
}

/**
 * Reads `file` (missing: empty): the changes it holds, in order, and the journal to append to. A line
 * that is not a change is damage (storage's journal keeps the file aside and says so, as `name`).
 */
export function openStateJournal(file: string, name: string): { journal: StateJournal; ops: JournalOp[] } {
  const ops: JournalOp[] = []
  let journal: Journal
  try {
    journal = openJournal(
      file,
      (record) => {
        if (!isOp(record)) return false
        ops.push(record)
        return true
      },
      { name },
    )
  } catch (err) {
    throw failure(file, 'read', err)
  }
  return { journal: stateJournalOf(file, journal), ops }
}
