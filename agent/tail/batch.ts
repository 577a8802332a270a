// The unit handed to the caller: the complete lines of one read of one file. What the tailer
// needs to know about a batch later (which file generation it came from, where its lines sit in
// the read buffer) is kept beside it in weak maps, so the public object stays plain data.

import type { TailLine } from './line-splitter'

export interface LineBatch {
  /** `dev:ino` of the file the lines were read from. */
  readonly fileId: string
  /** 0, then +1 each time the file is found truncated in place (copy-and-truncate). */
  readonly generation: number
  /** Path at read time; undefined once the file was deleted or renamed outside the patterns. */
  readonly path: string | undefined
  /** Complete lines, in file order. */
  readonly lines: readonly TailLine[]
  /** Offset just past the last line: what commit(batch) records. */
  readonly offset: number
}

/** lines[from..to) are back-to-back views of buffer[start..end); buffer's byte 0 is at file offset `bufferOffset`. */
export interface BatchRun {
  readonly buffer: Buffer
  readonly bufferOffset: number
  readonly from: number
  readonly to: number
  readonly start: number
  readonly end: number
}

const runs = new WeakMap<LineBatch, BatchRun>()

export function setBatchRun(batch: LineBatch, run: BatchRun): void {
  if (run.to > run.from) runs.set(batch, run)
}

export function getBatchRun(batch: LineBatch): BatchRun | undefined {
  return runs.get(batch)
}
