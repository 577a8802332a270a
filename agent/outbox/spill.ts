// The part of the queue that does not fit in memory: items appended, one JSON object per line, to
// numbered segment files next to the journal (`<journal>.spill.<n>`), and read back in order as the
// in-memory window drains. Where reading has got to (the cursor) is kept by the journal, not here:
// taking an item is journaled by the store as one `add` record carrying the cursor past it, so a
// crash at any point either leaves the item in the spill or in the journal, never in neither.
//
// Segments: the writer appends to the newest; a new run never appends to a file a crash may have
// torn. Once the reader has passed a segment and the journal says so, the file is deleted, so disk
// use follows what is still queued. Which segment is written, read and deleted: spill-segments.ts.
import { closeSync, fstatSync, openSync, readdirSync, readSync, unlinkSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { OutboxItem, SpillCursor } from './item'
import { openLineReader, type LineReader } from '../storage/line-reader'
import { keepAside, reportCorruptState } from '../storage/corrupt-state'
import { writeAll } from '../storage/write-all'
import { firstWriterSegment, nextReadSegment, segmentAfterEmpty, segmentsBetween } from './spill-segments'

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

/**
 * An item read back; undefined for a line torn by a crash of the machine (not of the process) or not
 * an item. Zero bytes before it (a power cut on a file system that lost the data) are not part of it.
 */
function itemOf(line: string): OutboxItem | undefined {
  let item: OutboxItem
  try {
    item = JSON.parse(line.replace(/^\0+/, '')) as OutboxItem
  } catch {
    return undefined
  }
  return typeof item === 'object' && item !== null && typeof item.id === 'string' ? item : undefined
}

class SegmentSpill implements Spill {
  private readonly path: string
  private readonly maxSegmentBytes: number
  private readonly onCursor: (cursor: SpillCursor) => void
  private at: SpillCursor
  private skip: ReadonlySet<string> | undefined
  private dirChanged = false
  private items = 0
  private writerSeg = 0
  private writerFd: number | undefined
  private writerBytes = 0
  private reader: LineReader | undefined
  /** Segments found damaged (and kept aside) while read. */
  private readonly damagedSegments = new Set<number>()
  /** Segments appended to since the last takeUnsynced(). */
  private readonly unsynced = new Set<number>()

  constructor(options: SpillOptions) {
    this.path = options.path
    this.onCursor = options.onCursor
    this.maxSegmentBytes = options.maxSegmentBytes ?? DEFAULT_SEGMENT_BYTES
    this.at = { ...options.cursor }
    this.skip = options.skip.size > 0 ? options.skip : undefined
  }

  /** Deletes what a run consumed and left, counts what is left, and places the writer. */
  open(): this {
    const found = segmentsOf(this.path)
    this.remove(segmentsBetween(found, 0, this.at.seg))
    const live = found.filter((seg) => seg >= this.at.seg)
    for (const seg of live) this.items += countLines(this.file(seg), seg === this.at.seg ? this.at.offset : 0)
    this.writerSeg = firstWriterSegment(this.at, live)
    return this
  }

  get count(): number {
    return this.items
  }

  get cursor(): SpillCursor {
    return this.at
  }

  append(...items: OutboxItem[]): void {
    if (this.writerFd === undefined) {
      this.writerFd = openSync(this.file(this.writerSeg), 'a', 0o600)
      this.writerBytes = fstatSync(this.writerFd).size
      this.dirChanged = true
    }
    const lines = items.map((item) => `${JSON.stringify(item)}\n`).join('')
    this.unsynced.add(this.writerSeg)
    writeAll(this.writerFd, lines)
    this.writerBytes += Buffer.byteLength(lines)
    this.items += items.length
    if (this.writerBytes >= this.maxSegmentBytes) {
      this.closeWriter()
      this.writerSeg++
    }
  }

  take(): { item: OutboxItem; cursor: SpillCursor } | undefined {
    while (this.items > 0) {
      const next = this.nextLine()
      if (next === undefined) break
      this.at = { seg: this.at.seg, offset: next.end }
      this.items--
      const item = itemOf(next.line)
      if (item === undefined) this.damaged(next.line)
      if (item === undefined || this.skip?.has(item.id) === true) continue
      return { item, cursor: this.at }
    }
    // Everything read (or the lines counted were not all there: a torn tail).
    this.items = 0
    return undefined
  }

  tidy(): void {
    if (this.items > 0) return
    this.skip = undefined
    // The spill is empty: the next one starts on a fresh segment and the consumed ones go.
    this.closeWriter()
    const fresh = segmentAfterEmpty(segmentsOf(this.path), this.at, this.writerSeg)
    if (fresh === undefined) return
    this.writerSeg = fresh
    this.moveCursor(fresh)
  }

  takeUnsynced(): { files: string[]; dirChanged: boolean } {
    const files = [...this.unsynced].map((seg) => this.file(seg))
    this.unsynced.clear()
    const dirChanged = this.dirChanged
    this.dirChanged = false
    return { files, dirChanged }
  }

  close(): void {
    this.closeWriter()
    this.reader?.close()
    this.reader = undefined
  }

  /** A line of a segment that is no item: the segment is kept aside and said, once (corrupt-state.ts). */
  private damaged(line: string): void {
    if (line === '' || this.damagedSegments.has(this.at.seg)) return
    this.damagedSegments.add(this.at.seg)
    const file = this.file(this.at.seg)
    const problem = line.includes('\0') ? 'zero-filled bytes' : 'a line that is no item'
    try {
      reportCorruptState({ file, name: 'outbox-spill', problem, keptAs: keepAside(file), kept: 0, dropped: 1 })
    } catch {
      // The copy could not be made: the items still go on being read.
    }
  }

  private file(seg: number): string {
    return `${this.path}.spill.${seg}`
  }

  /** The next complete line at or past the cursor, moving on through the segments; undefined: none yet. */
  private nextLine(): { line: string; end: number } | undefined {
    for (;;) {
      if (this.reader === undefined) {
        try {
          this.reader = openLineReader(this.file(this.at.seg), this.at.offset)
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
          if (!this.advance()) return undefined
          continue
        }
      }
      const next = this.reader.next()
      if (next !== undefined) return next
      if (!this.advance()) return undefined
    }
  }

  /** Moves the reader to the next segment (rule 2); false when there is none. */
  private advance(): boolean {
    const next = nextReadSegment(segmentsOf(this.path), this.at.seg, this.writerSeg)
    if (next === undefined) return false
    this.moveCursor(next)
    return true
  }

  private moveCursor(seg: number): void {
    const from = this.at.seg
    this.at = { seg, offset: 0 }
    this.onCursor(this.at)
    this.reader?.close()
    this.reader = undefined
    this.remove(segmentsBetween(segmentsOf(this.path), from, seg))
  }

  private remove(segments: readonly number[]): void {
    for (const seg of segments) {
      unlinkSync(this.file(seg))
      this.dirChanged = true
    }
  }

  private closeWriter(): void {
    if (this.writerFd !== undefined) closeSync(this.writerFd)
    this.writerFd = undefined
    this.writerBytes = 0
  }
}

export function openSpill(options: SpillOptions): Spill {
  return new SegmentSpill(options).open()
}
