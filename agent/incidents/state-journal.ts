// A state file kept as a journal: one JSON line per change, appended (one write per step, O(1) in
// the size of the state), replayed at open, and rewritten whole (temp file + rename) when it holds
// far more lines than the state it describes. A line cut by a kill mid-append is skipped at the
// next open and finished with a newline, so what follows it is read again. The incident state uses
// it: rewriting the whole state on every page cost O(open incidents) per page.
import { appendFileSync, readFileSync } from 'node:fs'
import { replaceFile } from '../storage/replace-file'
import { DeliveryError, DeliveryErrorCodes } from '../delivery/errors'

/** One change: its kind first, then what it carries. */
export type JournalOp = readonly [string, ...unknown[]]

export interface StateJournal {
  append(ops: readonly JournalOp[]): void
  /** Replaces the file with `ops` (the whole state), then appends go on after them. */
  rewrite(ops: readonly JournalOp[]): void
  /** Lines in the file: the caller compacts when they far outnumber its state. */
  readonly lines: number
}

const text = (ops: readonly JournalOp[]): string => ops.map((op) => `${JSON.stringify(op)}\n`).join('')

function failure(file: string, what: string, err: unknown): DeliveryError {
  return new DeliveryError(DeliveryErrorCodes.STATE, `cannot ${what} ${file}: ${(err as Error).message}`, {
    cause: err,
  })
}

/**
 * Reads `file` (missing: empty). A file of an earlier format is handed to `legacy`, which turns it
 * into ops (the file is then rewritten in this format); undefined means it is not one.
 */
export function openStateJournal(
  file: string,
  legacy: (content: string) => JournalOp[] | undefined,
): { journal: StateJournal; ops: JournalOp[] } {
  let content = ''
  try {
    content = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw failure(file, 'read', err)
  }
  let lines = 0
  const journal: StateJournal = {
    append(ops) {
      if (ops.length === 0) return
      try {
        appendFileSync(file, text(ops))
      } catch (err) {
        throw failure(file, 'write', err)
      }
      lines += ops.length
    },
    rewrite(ops) {
      try {
        replaceFile(file, text(ops))
      } catch (err) {
        throw failure(file, 'write', err)
      }
      lines = ops.length
    },
    get lines() {
      return lines
    },
  }
  const earlier = content === '' ? undefined : legacy(content)
  if (earlier !== undefined) {
    journal.rewrite(earlier)
    return { journal, ops: earlier }
  }
  const ops: JournalOp[] = []
  for (const row of content.split('\n')) {
    if (row === '') continue
    lines++
    try {
      const op = JSON.parse(row) as unknown
      if (Array.isArray(op) && typeof op[0] === 'string') ops.push(op as unknown as JournalOp)
    } catch {}
  }
  // A cut last line stays a line of its own (skipped), not the start of the next one appended.
  if (content !== '' && !content.endsWith('\n')) appendFileSync(file, '\n')
  return { journal, ops }
}
