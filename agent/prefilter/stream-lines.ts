// A log stream's bytes (the chunks a logx worker receives) as batches of whole lines, in the shape
// the tailer hands a file's: the one line splitter and the one pre-filter then serve streams and
// files alike. A line longer than `maxLineBytes` keeps its head and is marked cut, as in a file.
import { createChunkBatch, createLineBatch, createLineSplitter, type BatchOrigin, type LineBatch } from '../tail'

export interface StreamLines {
  push(chunk: Buffer | string, onBatch: (batch: LineBatch) => void): void
  /** The unterminated last line, at the end of the stream. */
  end(onBatch: (batch: LineBatch) => void): void
}

const STREAM: BatchOrigin = { fileId: 'stream', followId: 0, generation: 0, path: undefined }
export const STREAM_MAX_LINE_BYTES = 1024 * 1024

export function createStreamLines(maxLineBytes = STREAM_MAX_LINE_BYTES): StreamLines {
  const splitter = createLineSplitter(0, maxLineBytes)
  let offset = 0
  return {
    push(chunk, onBatch) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      const split = splitter.push(buffer, offset)
      const batch = createChunkBatch(STREAM, split, buffer, offset, maxLineBytes)
      offset += buffer.length
      if (batch !== undefined) onBatch(batch)
    },
    end(onBatch) {
      const last = splitter.finish(offset)
      if (last !== undefined && last.data.length > 0) onBatch(createLineBatch(STREAM, last))
    },
  }
}

/** The index in `batch` of the line that ends just before `offset` (a line's commit offset). */
export function lineIndexOf(batch: LineBatch, offset: number): number {
  const chunk = batch.chunk
  if (chunk === undefined || offset - chunk.bufferOffset - 1 < chunk.start) return 0
  const end = offset - chunk.bufferOffset - 1
  let lo = 0
  let hi = chunk.ends.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((chunk.ends[mid] as number) < end) lo = mid + 1
    else hi = mid
  }
  return chunk.first + lo
}
