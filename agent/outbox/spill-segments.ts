// Which segment files of the spill (spill.ts) are written, read and deleted. Pure: the spill lists
// the files and applies these. Segments are numbered; `cursor` is where reading has got to.
//
//   1. The writer's first segment at open: one past every segment found and past the cursor's when
//      any segment exists or the cursor is inside one (a crash may have torn that file's last line:
//      never append to it); otherwise the cursor's own.
//   2. The reader's next segment: the first existing one past the cursor's; otherwise the writer's
//      when it is past the cursor's (its file may not exist yet); otherwise none (it waits).
//   3. Deleted as the reader moves from segment `from` to `to`: those in [from, to). At open, with
//      from 0 and to the cursor's: those a run consumed and died before deleting.
//   4. Once the spill is empty, both move to a fresh segment past the writer's and the cursor's when
//      the cursor is inside a segment or any segment exists at or past it; otherwise nothing moves.
import type { SpillCursor } from './item'

/** Rule 1. */
export function firstWriterSegment(cursor: SpillCursor, live: readonly number[]): number {
  const fresh = live.length > 0 || cursor.offset > 0
  return Math.max(cursor.seg, ...live) + (fresh ? 1 : 0)
}

/** Rule 2. */
export function nextReadSegment(existing: readonly number[], cursorSeg: number, writerSeg: number): number | undefined {
  const later = existing.find((seg) => seg > cursorSeg)
  if (later !== undefined) return later
  return writerSeg > cursorSeg ? writerSeg : undefined
}

/** Rule 3. */
export function segmentsBetween(existing: readonly number[], from: number, to: number): number[] {
  return existing.filter((seg) => seg >= from && seg < to)
}

/** Rule 4: the segment both move to, or undefined. */
export function segmentAfterEmpty(
  existing: readonly number[],
  cursor: SpillCursor,
  writerSeg: number,
): number | undefined {
  if (cursor.offset === 0 && !existing.some((seg) => seg >= cursor.seg)) return undefined
  return Math.max(writerSeg, cursor.seg) + 1
}
