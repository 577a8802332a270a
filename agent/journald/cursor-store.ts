// A journald source's checkpoint: `<state_dir>/checkpoints/<source>.cursor`, one JSON object
// `{"version":1,"cursor":"s=...;i=...;..."}`, or `"cursor":null` for "from the first entry the
// filters match" (start_at: end found none: every entry that comes is new). Replaced whole through
// storage (agent/storage/replace-file.ts: temp file, fsync, rename, directory fsync), so a crash
// leaves the old cursor or the new one.
import { replaceFile } from '../storage/replace-file'
import { readStateFile } from '../storage/state-file'
import { JournaldError, JournaldErrorCodes } from './errors'
import type { JournalPosition } from './journalctl-args'

export const CURSOR_VERSION = 1

/** The position a whole file holds; throws for a file of another version (no damage: kept as it is). */
function positionOf(file: string, saved: unknown): JournalPosition | undefined {
  const record = typeof saved === 'object' && saved !== null ? (saved as { version?: unknown; cursor?: unknown }) : {}
  if (record.version === undefined) return undefined
  if (record.version !== CURSOR_VERSION) {
    throw new JournaldError(
      JournaldErrorCodes.CURSOR_READ,
      `the cursor checkpoint ${file} has version ${JSON.stringify(record.version)}; ` +
        `this agent reads version ${CURSOR_VERSION}`,
      { path: file },
    )
  }
  if (record.cursor === null) return { kind: 'beginning' }
  if (typeof record.cursor !== 'string' || record.cursor === '' || record.cursor.includes('\n')) return undefined
  return { kind: 'cursor', cursor: record.cursor }
}

/**
 * The saved position, or undefined when there is no checkpoint yet. A damaged file is kept aside and
 * said by storage (state-file.ts), and the source starts as it would without one. Throws CURSOR_READ
 * on a file that cannot be read, or of another version.
 */
export function readCursor(file: string): JournalPosition | undefined {
  try {
    const accept = (saved: unknown): JournalPosition | undefined => positionOf(file, saved)
    return readStateFile(file, { name: 'journald-cursors', accept, count: () => 1, format: formatCursor })
  } catch (err) {
    if (err instanceof JournaldError) throw err
    throw new JournaldError(
      JournaldErrorCodes.CURSOR_READ,
      `cannot read the cursor checkpoint ${file}: ${(err as Error).message}`,
      { path: file, cause: err },
    )
  }
}

export function formatCursor(position: JournalPosition): string {
  return `${JSON.stringify({ version: CURSOR_VERSION, cursor: position.kind === 'cursor' ? position.cursor : null })}\n`
}

/** Throws CURSOR_WRITE; the previous checkpoint is then still whole. Synchronous: a few bytes. */
export function writeCursor(file: string, position: JournalPosition): void {
  try {
    replaceFile(file, formatCursor(position), { mode: 0o600 })
  } catch (err) {
    throw new JournaldError(
      JournaldErrorCodes.CURSOR_WRITE,
      `cannot write the cursor checkpoint ${file}: ${(err as Error).message}`,
      { path: file, cause: err },
    )
  }
}
