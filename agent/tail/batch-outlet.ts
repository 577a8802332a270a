// Where batches leave the tailer: each remembers the file generation it came from (commit() needs
// it) and, with reuseBuffers, the read buffer it points into, which goes back to the pool once
// the batch is committed whole (or released by a consumer that kept copies of what it still needs).
// Reading pauses while the queue to the consumer is full.

import type { LineBatch } from './batch'
import { createBatchQueue } from './batch-queue'
import type { FileGeneration } from './file-generation'
import type { NormalizedTailerOptions } from './options'

export interface BatchOutlet extends AsyncIterable<LineBatch> {
  /** Hands the batch to the consumer; resolves once the queue has room again. */
  emit(file: FileGeneration, batch: LineBatch, readBuffer?: Buffer): Promise<void>
  /** A read buffer of readChunkBytes, recycled when there is one. */
  takeBuffer(): Buffer
  /** A read buffer no batch points into (any more). */
  recycle(buffer: Buffer): void
  /** The generation a batch came from; undefined for a batch this tailer did not produce. */
  fileOf(batch: LineBatch): FileGeneration | undefined
  /** The batch is committed whole: its read buffer may be read into again. */
  committedWhole(batch: LineBatch): void
  /**
   * The stream of lines the batch belongs to: its generation's `followId:generation`, which the copy
   * that continues a generation after copy-and-truncate shares.
   */
  streamOf(batch: LineBatch): string | undefined
  /** Ends iteration, dropping the batches not taken yet. */
  close(): void
}

/** How many generations a copy's first batch looks through for the one it continues. */
const MAX_RECENT = 1024

export function createBatchOutlet(config: NormalizedTailerOptions, counters: { linesRead: number }): BatchOutlet {
  const queue = createBatchQueue<LineBatch>(config.maxBufferedBatches)
  const batchFiles = new WeakMap<LineBatch, FileGeneration>()
  const batchBuffers = new WeakMap<LineBatch, Buffer>()
  const pool: Buffer[] = []
  const streams = new WeakMap<FileGeneration, string>()
  // Generations that emitted, newest last: where a copy's first batch finds the generation it continues.
  const recent = new Set<FileGeneration>()

  function streamKey(file: FileGeneration): string {
    let key = streams.get(file)
    if (key !== undefined) return key
    for (const earlier of recent) {
      if (earlier.successor === file) key = streamKey(earlier)
    }
    key ??= `${file.followId}:${file.generation}`
    streams.set(file, key)
    recent.add(file)
    if (recent.size > MAX_RECENT) recent.delete(recent.values().next().value as FileGeneration)
    return key
  }

  function recycle(buffer: Buffer): void {
    if (config.reuseBuffers && pool.length <= config.maxBufferedBatches) pool.push(buffer)
  }

  return {
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    emit(file, batch, readBuffer) {
      batchFiles.set(batch, file)
      streamKey(file)
      if (config.reuseBuffers && readBuffer !== undefined) batchBuffers.set(batch, readBuffer)
      counters.linesRead += batch.lineCount
      return queue.push(batch)
    },
    takeBuffer: () => pool.pop() ?? Buffer.allocUnsafe(config.readChunkBytes),
    recycle,
    fileOf: (batch) => batchFiles.get(batch),
    committedWhole(batch) {
      const buffer = batchBuffers.get(batch)
      if (buffer === undefined) return
      batchBuffers.delete(batch)
      recycle(buffer)
    },
    streamOf(batch) {
      const file = batchFiles.get(batch)
      return file === undefined ? undefined : streamKey(file)
    },
    close: () => queue.close(true),
  }
}
