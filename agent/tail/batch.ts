// The unit handed to the caller: the complete lines of one read of one file. The lines sit in the
// read buffer as positions (`chunk`); line objects are built only when asked for, one at a time
// (`batchLine`) or all at once (`lines`, built on first access), so a consumer that filters on bytes
// pays for the few lines it keeps, not for the million it drops. What the tailer needs to know about
// a batch later (which file generation it came from, its read buffer) is kept beside it in weak maps.

import type { SplitChunk, TailLine } from './line-splitter'

/** The batch's lines as spans of the buffer they were read into. */
export interface LineChunk {
  /**
   * The read buffer; its byte 0 is at file offset `bufferOffset`. With `reuseBuffers`, valid until the batch is
   * committed.
   */
  readonly buffer: Buffer
  readonly bufferOffset: number
  /** Index of the first line held in the buffer: 1 when line 0 began in an earlier read (it is a copy), else 0. */
  readonly first: number
  /** Where line `first` starts in the buffer. */
  readonly start: number
  /** ends[k]: position in the buffer of the '\n' ending line `first + k`; the next line starts just past it. */
  readonly ends: Int32Array
  /** A line longer than this is cut to it (its `data` is its first maxLineBytes bytes, `truncated`). */
  readonly maxLineBytes: number
}

export interface LineBatch {
  /** `dev:ino` of the file the lines were read from. */
  readonly fileId: string
  /** Which file, over time: unique in the process, shared by a file's generations (a reused inode gets another). */
  readonly followId: number
  /** 0, then +1 each time the file is found truncated in place (copy-and-truncate). */
  readonly generation: number
  /** Path at read time; undefined once the file was deleted or renamed outside the patterns. */
  readonly path: string | undefined
  /** Complete lines, in file order. Built on first access: with `reuseBuffers`, before commit(batch). */
  readonly lines: readonly TailLine[]
  /** How many lines (without building them). */
  readonly lineCount: number
  /** Offset just past the last line: what commit(batch) records. */
  readonly offset: number
  /**
   * The lines as positions in the read buffer; undefined for a batch that holds only a line kept from earlier reads.
   */
  readonly chunk: LineChunk | undefined
}

// A line that is a span of a read buffer: the Buffer view is made on first access.
class ChunkLine implements TailLine {
  private view: Buffer | undefined = undefined
  constructor(
    private readonly buffer: Buffer,
    private readonly start: number,
    private readonly end: number,
    readonly offset: number,
    readonly truncated: boolean,
  ) {}

  get data(): Buffer {
    if (this.view === undefined) this.view = this.buffer.subarray(this.start, this.end)
    return this.view
  }

  // Without it, logging a line would serialize the whole read buffer it points into.
  toJSON(): { data: Buffer; offset: number; truncated: boolean } {
    return { data: this.data, offset: this.offset, truncated: this.truncated }
  }
}

class Batch implements LineBatch {
  private built: TailLine[] | undefined = undefined
  constructor(
    readonly fileId: string,
    readonly followId: number,
    readonly generation: number,
    readonly path: string | undefined,
    readonly head: TailLine | undefined,
    readonly chunk: LineChunk | undefined,
    readonly lineCount: number,
    readonly offset: number,
  ) {}

  get lines(): readonly TailLine[] {
    if (this.built === undefined) {
      const lines: TailLine[] = []
      for (let i = 0; i < this.lineCount; i++) lines.push(makeLine(this, i))
      this.built = lines
    }
    return this.built
  }

  // The plain shape a batch had before it held positions: logging one must not serialize the read buffer.
  toJSON(): {
    fileId: string
    generation: number
    path: string | undefined
    lines: readonly TailLine[]
    offset: number
  } {
    return { fileId: this.fileId, generation: this.generation, path: this.path, lines: this.lines, offset: this.offset }
  }

  /** The line object if `lines` was built already (one object per line, whoever asks). */
  builtLine(index: number): TailLine | undefined {
    return this.built?.[index]
  }
}

export interface BatchOrigin {
  readonly fileId: string
  readonly followId: number
  readonly generation: number
  readonly path: string | undefined
}

/**
 * A batch of what one chunk completed (`buffer` the chunk, at file offset `bufferOffset`), or undefined when it
 * completed no line.
 */
export function createChunkBatch(
  from: BatchOrigin,
  split: SplitChunk,
  buffer: Buffer,
  bufferOffset: number,
  maxLineBytes: number,
): LineBatch | undefined {
  const first = split.head === undefined ? 0 : 1
  const count = split.ends.length
  if (first + count === 0) return undefined
  const chunk: LineChunk | undefined =
    count === 0 ? undefined : { buffer, bufferOffset, first, start: split.start, ends: split.ends, maxLineBytes }
  const offset = count === 0 ? (split.head as TailLine).offset : bufferOffset + (split.ends[count - 1] as number) + 1
  return new Batch(from.fileId, from.followId, from.generation, from.path, split.head, chunk, first + count, offset)
}

/** A batch of one line that is not in any read buffer (a file's unterminated last line, at release). */
export function createLineBatch(from: BatchOrigin, line: TailLine): LineBatch {
  return new Batch(from.fileId, from.followId, from.generation, from.path, line, undefined, 1, line.offset)
}

function makeLine(batch: Batch, index: number): TailLine {
  const chunk = batch.chunk
  if (chunk === undefined || index < chunk.first) return batch.head as TailLine
  const k = index - chunk.first
  const { ends, buffer, maxLineBytes } = chunk
  const start = k === 0 ? chunk.start : (ends[k - 1] as number) + 1
  const end = ends[k] as number
  const truncated = end - start > maxLineBytes
  return new ChunkLine(buffer, start, truncated ? start + maxLineBytes : end, chunk.bufferOffset + end + 1, truncated)
}

/** Line `index` of the batch (0 <= index < lineCount), built alone unless `lines` was built already. */
export function batchLine(batch: LineBatch, index: number): TailLine {
  if (batch instanceof Batch) return batch.builtLine(index) ?? makeLine(batch, index)
  return batch.lines[index] as TailLine
}

/** Offset just past line `index`'s '\n', without building the line. */
export function lineEndOffset(batch: LineBatch, index: number): number {
  const chunk = batch.chunk
  if (chunk === undefined || index < chunk.first) return batchLine(batch, index).offset
  return chunk.bufferOffset + (chunk.ends[index - chunk.first] as number) + 1
}
