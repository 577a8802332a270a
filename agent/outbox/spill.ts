// The part of the queue that does not fit in memory: items appended, one JSON object per line, to
// numbered segment files next to the journal (`<journal>.spill.<n>`), and read back in order as the
// in-memory window drains. Where reading has got to (the cursor) is kept by the journal, not here:
// taking an item is journaled by the store as one `add` record carrying the cursor past it, so a
// crash at any point either leaves the item in the spill or in the journal, never in neither.
//
// Segments: the writer appends to the newest; a new run never appends to a file a crash may have
// torn. Once the reader has passed a segment and the journal says so, the file is deleted, so disk
// use follows what is still queued.
import { closeSync, fstatSync, openSync, readdirSync, readSync, unlinkSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { OutboxItem, SpillCursor } from './item'
import { openLineReader, type LineReader } from './line-reader'
import { writeAll } from './write-all'

export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024

export interface SpillOptions {
  /** The journal's path; segments are named after it. */
  path: string
  /** Where the journal says reading has got to. */
  cursor: SpillCursor
  /** Ids the journal already holds: skipped if met again in the spill. */
  skip: ReadonlySet<string>
  /** Called before a consumed segment is deleted: the store journals the new cursor. */
  onCursor(cursor: SpillCursor): void
  maxSegmentBytes?: number | undefined
}

export interface Spill {
  /** Items on disk only, not taken yet. */
  readonly count: number
  /** Just past the last item taken (or skipped). */
  readonly cursor: SpillCursor
  /** Appends the items with one write (a segment may then end past its size). */
  append(...items: OutboxItem[]): void
  /** The oldest item not taken yet, with the cursor just past it. */
  take(): { item: OutboxItem; cursor: SpillCursor } | undefined
  /**
   * Once the spill is empty, moves to a fresh segment and deletes the consumed ones. Called after
   * the store has journaled what take() returned: never before, or a crash in between loses it.
   */
  tidy(): void
  /**
   * What a sync must flush, and forgets it: the segments written since the last call (closed ones
   * too), and whether files were created or deleted.
   */
  takeUnsynced(): { files: string[]; dirChanged: boolean }
  close(): void
}

function segmentsOf(path: string): number[] {
  const prefix = `${basename(path)}.spill.`
  let names: string[]
  try {
    names = readdirSync(dirname(path))
  } catch {
    return []
  }
  return names
    .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map((n) => Number(n.slice(prefix.length)))
    .sort((a, b) => a - b)
}

/** Complete lines from `from` on, counted by their newlines, a chunk at a time. */
function countLines(file: string, from: number): number {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return 0
  }
  const chunk = Buffer.allocUnsafe(64 * 1024)
  let lines = 0
  try {
    for (let position = from; ;) {
      const read = readSync(fd, chunk, 0, chunk.length, position)
      if (read === 0) break
      position += read
      for (let i = chunk.indexOf(0x0a); i !== -1 && i < read; i = chunk.indexOf(0x0a, i + 1)) lines++
    }
  } finally {
    closeSync(fd)
  }
  return lines
}

export function openSpill(options: SpillOptions): Spill {
  const { path, onCursor } = options
  const maxSegmentBytes = options.maxSegmentBytes ?? DEFAULT_SEGMENT_BYTES
  const file = (seg: number): string => `${path}.spill.${seg}`
  let cursor: SpillCursor = { ...options.cursor }
  let skip: ReadonlySet<string> | undefined = options.skip.size > 0 ? options.skip : undefined
  let dirChanged = false

  // Segments behind the cursor were consumed by a run that died before deleting them.
  const found = segmentsOf(path)
  for (const seg of found) {
    if (seg < cursor.seg) {
      unlinkSync(file(seg))
      dirChanged = true
    }
  }
  const live = found.filter((seg) => seg >= cursor.seg)
  let count = 0
  for (const seg of live) count += countLines(file(seg), seg === cursor.seg ? cursor.offset : 0)
  // Never append to a segment a crash may have left with a torn last line.
  let writerSeg = Math.max(cursor.seg, ...live) + (live.length > 0 || cursor.offset > 0 ? 1 : 0)
  let writerFd: number | undefined
  let writerBytes = 0
  let reader: LineReader | undefined
  /** Segments appended to since the last takeUnsynced(). */
  const unsynced = new Set<number>()

  function moveCursor(seg: number): void {
    const from = cursor.seg
    cursor = { seg, offset: 0 }
    onCursor(cursor)
    reader?.close()
    reader = undefined
    for (const old of segmentsOf(path)) {
      if (old >= from && old < seg) {
        unlinkSync(file(old))
        dirChanged = true
      }
    }
  }

  function closeWriter(): void {
    if (writerFd !== undefined) closeSync(writerFd)
    writerFd = undefined
    writerBytes = 0
  }

  /** The next live segment after the reader's, if any. */
  function nextSegment(): number | undefined {
    const later = segmentsOf(path).find((seg) => seg > cursor.seg)
    if (later !== undefined) return later
    return writerSeg > cursor.seg ? writerSeg : undefined
  }

  return {
    get count() {
      return count
    },
    get cursor() {
      return cursor
    },
    append(...items) {
      if (writerFd === undefined) {
        writerFd = openSync(file(writerSeg), 'a')
        writerBytes = fstatSync(writerFd).size
        dirChanged = true
      }
      const lines = items.map((item) => `${JSON.stringify(item)}\n`).join('')
      unsynced.add(writerSeg)
      writeAll(writerFd, lines)
      writerBytes += Buffer.byteLength(lines)
      count += items.length
      if (writerBytes >= maxSegmentBytes) {
        closeWriter()
        writerSeg++
      }
    },
    take() {
      while (count > 0) {
        if (reader === undefined) {
          try {
            reader = openLineReader(file(cursor.seg), cursor.offset)
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
            const next = nextSegment()
            if (next === undefined) break
            moveCursor(next)
            continue
          }
        }
        const next = reader.next()
        if (next === undefined) {
          const later = nextSegment()
          if (later === undefined) break
          moveCursor(later)
          continue
        }
        cursor = { seg: cursor.seg, offset: next.end }
        count--
        let item: OutboxItem
        try {
          item = JSON.parse(next.line) as OutboxItem
        } catch {
          continue // a line torn by a crash of the machine, not of the process
        }
        if (typeof item !== 'object' || item === null || typeof item.id !== 'string') continue
        if (skip?.has(item.id) === true) continue
        return { item, cursor }
      }
      // Everything read (or the lines counted were not all there: a torn tail).
      count = 0
      return undefined
    },
    tidy() {
      if (count > 0) return
      skip = undefined
      // The spill is empty: the next one starts on a fresh segment and the consumed ones go.
      closeWriter()
      if (cursor.offset > 0 || segmentsOf(path).some((seg) => seg >= cursor.seg)) {
        writerSeg = Math.max(writerSeg, cursor.seg) + 1
        moveCursor(writerSeg)
      }
    },
    takeUnsynced() {
      const files = [...unsynced].map(file)
      unsynced.clear()
      const changed = dirChanged
      dirChanged = false
      return { files, dirChanged: changed }
    },
    close() {
      closeWriter()
      reader?.close()
      reader = undefined
    },
  }
}
