// Cuts file bytes into lines. Pure and synchronous: the reader hands it chunks with their file
// offset and gets lines back with the offset just past each '\n', the only offsets that are safe
// to commit (a restart there starts on a line boundary). A line without its '\n' yet is held
// until the rest arrives, so it is emitted once, whole. A line longer than the cap keeps its first
// `maxLineBytes` bytes, the rest is skipped up to the '\n', and it is emitted with `truncated`.

export interface TailLine {
  /** The line's bytes without the '\n' ('\r' of CRLF files is kept). Not decoded: invalid UTF-8 and NUL bytes pass through. */
  readonly data: Buffer
  /** File offset just past this line's '\n': commit it to resume after this line. */
  readonly offset: number
  /** The line was longer than maxLineBytes and `data` holds only its first maxLineBytes bytes. */
  readonly truncated: boolean
}

/** out[from..to) are views of one buffer, back to back, each followed there by a single '\n'; they span buffer[start..end). */
export interface ContiguousRun {
  readonly from: number
  readonly to: number
  readonly start: number
  readonly end: number
}

// Most lines are never looked at (a prefilter skips them), so the Buffer view is made on first
// access: a million views cost about as much as reading the file.
class ChunkLine implements TailLine {
  private view: Buffer | undefined = undefined
  constructor(
    private readonly chunk: Buffer,
    private readonly start: number,
    private readonly end: number,
    readonly offset: number,
    readonly truncated: boolean,
  ) {}

  get data(): Buffer {
    if (this.view === undefined) this.view = this.chunk.subarray(this.start, this.end)
    return this.view
  }

  // Without it, logging a line would serialize the whole read buffer it points into.
  toJSON(): { data: Buffer; offset: number; truncated: boolean } {
    return { data: this.data, offset: this.offset, truncated: this.truncated }
  }
}

class HeldLine implements TailLine {
  constructor(
    readonly data: Buffer,
    readonly offset: number,
    readonly truncated: boolean,
  ) {}
}

export interface LineSplitter {
  /**
   * Splits `chunk`, which starts at file offset `chunkOffset`, appending complete lines to `out`.
   * Returns the run of lines it appended that are back-to-back, uncut views of `chunk`, so a
   * matcher can search the run in one call instead of line by line.
   */
  push(chunk: Buffer, chunkOffset: number, out: TailLine[]): ContiguousRun
  /** Emits a held partial line as if it ended at `endOffset` (the file will not grow any more). */
  finish(endOffset: number, out: TailLine[]): void
  /** Offset just past the last line emitted (or skipped): where a re-read would start. */
  readonly lineStart: number
  /** Bytes held for an incomplete line. */
  readonly heldBytes: number
  /** Lines cut at maxLineBytes so far. */
  readonly truncatedLines: number
}

const NEWLINE = 0x0a

export function createLineSplitter(startOffset: number, maxLineBytes: number): LineSplitter {
  let lineStart = startOffset
  let held: Buffer[] = []
  let heldBytes = 0
  // True once the held line has hit the cap: bytes up to its '\n' are dropped.
  let skipping = false
  let truncatedLines = 0

  function takeHeld(tail: Buffer): { data: Buffer; truncated: boolean } {
    let truncated = skipping
    let piece = tail
    if (!skipping && heldBytes + tail.length > maxLineBytes) {
      piece = tail.subarray(0, maxLineBytes - heldBytes)
      truncated = true
    }
    if (!skipping && piece.length > 0) held.push(piece)
    const data = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held)
    held = []
    heldBytes = 0
    skipping = false
    return { data, truncated }
  }

  function hold(rest: Buffer): void {
    if (skipping || rest.length === 0) return
    const room = maxLineBytes - heldBytes
    if (rest.length > room) {
      if (room > 0) held.push(Buffer.from(rest.subarray(0, room)))
      heldBytes = maxLineBytes
      skipping = true
      return
    }
    // Copied so a held fragment never pins the whole read buffer.
    held.push(Buffer.from(rest))
    heldBytes += rest.length
  }

  return {
    push(chunk, chunkOffset, out) {
      let position = 0
      const length = chunk.length
      let from = -1
      let to = -1
      let start = 0
      let end = 0
      while (position < length) {
        const newline = chunk.indexOf(NEWLINE, position)
        if (newline === -1) {
          hold(chunk.subarray(position))
          break
        }
        const offset = chunkOffset + newline + 1
        if (heldBytes === 0 && !skipping) {
          if (newline - position > maxLineBytes) {
            truncatedLines++
            if (from !== -1 && to === -1) to = out.length
            out.push(new ChunkLine(chunk, position, position + maxLineBytes, offset, true))
          } else {
            if (from === -1) {
              from = out.length
              start = position
            }
            if (to === -1) end = newline + 1
            out.push(new ChunkLine(chunk, position, newline, offset, false))
          }
        } else {
          const { data, truncated } = takeHeld(chunk.subarray(position, newline))
          if (truncated) truncatedLines++
          out.push(new HeldLine(data, offset, truncated))
        }
        lineStart = offset
        position = newline + 1
      }
      if (from === -1) return { from: out.length, to: out.length, start: 0, end: 0 }
      return { from, to: to === -1 ? out.length : to, start, end }
    },
    finish(endOffset, out) {
      if (heldBytes === 0 && !skipping) {
        lineStart = Math.max(lineStart, endOffset)
        return
      }
      const { data, truncated } = takeHeld(Buffer.alloc(0))
      if (truncated) truncatedLines++
      out.push(new HeldLine(data, endOffset, truncated))
      lineStart = endOffset
    },
    get lineStart() {
      return lineStart
    },
    get heldBytes() {
      return heldBytes
    },
    get truncatedLines() {
      return truncatedLines
    },
  }
}
