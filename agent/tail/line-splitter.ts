// Cuts file bytes into lines. Pure and synchronous: the reader hands it chunks with their file
// offset and gets back where each line ends, the offset just past each '\n' being the only kind of
// offset safe to commit (a restart there starts on a line boundary). A line without its '\n' yet is
// held until the rest arrives, so it is emitted once, whole. A line longer than the cap keeps its
// first `maxLineBytes` bytes, the rest is skipped up to the '\n', and it is emitted `truncated`.
//
// A chunk's lines come back as positions in an Int32Array, not as objects: a million lines are a
// million `indexOf` calls and nothing else, and a consumer that filters on bytes builds objects
// only for the lines it keeps (see batch.ts).

export interface TailLine {
  /**
   * The line's bytes without the '\n' ('\r' of CRLF files is kept). Not decoded: invalid UTF-8 and NUL bytes pass
   * through.
   */
  readonly data: Buffer
  /** File offset just past this line's '\n': commit it to resume after this line. */
  readonly offset: number
  /** The line was longer than maxLineBytes and `data` holds only its first maxLineBytes bytes. */
  readonly truncated: boolean
}

/** The lines one chunk completed. */
export interface SplitChunk {
  /** The line that began in an earlier chunk and ends in this one (its bytes copied out), if any. */
  readonly head: TailLine | undefined
  /** Where the first line of `ends` starts in the chunk: 0, or just past the head's '\n'. */
  readonly start: number
  /**
   * Position in the chunk of the '\n' ending each further line, in order; each starts just past
   * the one before. A line longer than maxLineBytes (end - start) is cut to it.
   */
  readonly ends: Int32Array
}

export interface LineSplitter {
  /** Splits `chunk`, which starts at file offset `chunkOffset`; what it returns refers to `chunk`. */
  push(chunk: Buffer, chunkOffset: number): SplitChunk
  /** The held partial line as if it ended at `endOffset` (the file will not grow any more), if any. */
  finish(endOffset: number): TailLine | undefined
  /** Offset just past the last line emitted (or skipped): where a re-read would start. */
  readonly lineStart: number
  /** Bytes held for an incomplete line. */
  readonly heldBytes: number
  /** Lines cut at maxLineBytes so far. */
  readonly truncatedLines: number
}

/** A line assembled from several chunks: its bytes are a copy, it outlives the read buffers. */
export class HeldLine implements TailLine {
  constructor(
    readonly data: Buffer,
    readonly offset: number,
    readonly truncated: boolean,
  ) {}
}

const NEWLINE = 0x0a
const NO_ENDS = new Int32Array(0)
// Line ends are gathered here, then copied out at their exact count. One for all splitters (push
// is synchronous), not 16 KiB per file: a tailer may follow hundreds of files.
let scratch = new Int32Array(4096)

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
    push(chunk, chunkOffset) {
      const length = chunk.length
      let position = 0
      let head: TailLine | undefined
      if (heldBytes > 0 || skipping) {
        const newline = chunk.indexOf(NEWLINE)
        if (newline === -1) {
          hold(chunk)
          return { head: undefined, start: length, ends: NO_ENDS }
        }
        // takeHeld copies (a held line has at least one earlier piece), so the head is never a view
        // of a buffer the tailer may reuse.
        const { data, truncated } = takeHeld(chunk.subarray(0, newline))
        if (truncated) truncatedLines++
        lineStart = chunkOffset + newline + 1
        head = new HeldLine(data, lineStart, truncated)
        position = newline + 1
      }
      const start = position
      let count = 0
      while (position < length) {
        const newline = chunk.indexOf(NEWLINE, position)
        if (newline === -1) {
          hold(chunk.subarray(position))
          break
        }
        if (newline - position > maxLineBytes) truncatedLines++
        if (count === scratch.length) {
          const bigger = new Int32Array(scratch.length * 2)
          bigger.set(scratch)
          scratch = bigger
        }
        scratch[count++] = newline
        position = newline + 1
      }
      if (count === 0) return { head, start, ends: NO_ENDS }
      lineStart = chunkOffset + (scratch[count - 1] as number) + 1
      return { head, start, ends: scratch.slice(0, count) }
    },
    finish(endOffset) {
      if (heldBytes === 0 && !skipping) {
        lineStart = Math.max(lineStart, endOffset)
        return undefined
      }
      const { data, truncated } = takeHeld(Buffer.alloc(0))
      if (truncated) truncatedLines++
      lineStart = endOffset
      return new HeldLine(data, endOffset, truncated)
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
