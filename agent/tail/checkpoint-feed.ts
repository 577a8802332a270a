// What the tailer asks of the checkpoint file: the committed offset of every file it follows
// (parked copies excepted: they resume by their original) and of released files whose last lines
// are not all committed yet, written now, soon (checkpointDelayMs), or in the background.

import { createCheckpointWriter, type CheckpointEntry, type CheckpointWriter } from './checkpoint-store'
import { TailError, TailErrorCodes } from './errors'
import { hashHead } from './file-identity'
import type { FileGeneration } from './file-generation'
import type { FollowedFiles } from './followed-files'
import type { NormalizedTailerOptions } from './options'

export interface CheckpointFeed {
  /**
   * A write now (or sharing the one in flight). A failure goes to onWarning too, and the promise is
   * marked as handled: a caller that does not await it gets no unhandled rejection.
   */
  request(): Promise<void>
  /** After a commit: a write within checkpointDelayMs, shared by the commits made meanwhile. */
  requestAfterCommit(): Promise<void>
  /** A write nobody waits for (a file came or went), within checkpointDelayMs. */
  inBackground(): void
  /** A write now whose failure only the caller sees. */
  flush(): Promise<void>
  /**
   * The last write (as flush), and no other after it: a delayed write that came due once the
   * tailer had closed its files wrote a checkpoint without them, and the next start read them again.
   */
  close(): Promise<void>
  readonly writes: number
}

export function createCheckpointFeed(config: NormalizedTailerOptions, files: FollowedFiles): CheckpointFeed {
  const path = config.checkpointPath
  const writer: CheckpointWriter | undefined =
    path === undefined ? undefined : createCheckpointWriter(path, durableSnapshot)
  // A head only changes by growing (a rewrite starts a new generation), so its hash is kept per length.
  const headHashes = new WeakMap<FileGeneration, { length: number; hash: string }>()

  /**
   * The offsets first, then what the consumer made of those lines made durable: lines committed
   * while the hook's fsync runs are in the next write, not this one.
   */
  async function durableSnapshot(): Promise<CheckpointEntry[]> {
    const entries: CheckpointEntry[] = []
    for (const file of files.live) if (file.phase !== 'parked') entries.push(entryOf(file, file.phase === 'probation'))
    for (const file of files.retained) if (!files.byId.has(file.fileId)) entries.push(entryOf(file, false))
    try {
      await config.beforeCheckpointWrite?.()
    } catch (error) {
      throw new TailError(TailErrorCodes.CHECKPOINT_WRITE, `checkpoint not written: ${(error as Error).message}`, {
        ...(path === undefined ? {} : { path }),
        cause: error,
      })
    }
    return entries
  }

  function headHashOf(file: FileGeneration): string {
    const known = headHashes.get(file)
    if (known !== undefined && known.length === file.head.length) return known.hash
    const hash = hashHead(file.head)
    headHashes.set(file, { length: file.head.length, hash })
    return hash
  }

  function entryOf(file: FileGeneration, pending: boolean): CheckpointEntry {
    return {
      dev: file.dev,
      ino: file.ino,
      head: headHashOf(file),
      headLength: file.head.length,
      offset: file.committed,
      path: file.path,
      ...(pending ? { pending: true } : {}),
    }
  }

  let closed = false
  function request(): Promise<void> {
    if (writer === undefined || closed) return Promise.resolve()
    const durable = writer.request()
    durable.catch((error: unknown) => {
      if (error instanceof TailError) config.onWarning(error)
    })
    return durable
  }

  let delayed: Promise<void> | undefined
  function requestAfterCommit(): Promise<void> {
    if (config.checkpointDelayMs === 0 || writer === undefined) return request()
    if (delayed === undefined) {
      const next = new Promise<void>((resolve) => setTimeout(resolve, config.checkpointDelayMs)).then(() => {
        delayed = undefined
        return request()
      })
      next.catch(() => undefined)
      delayed = next
    }
    return delayed
  }

  return {
    request,
    requestAfterCommit,
    // With the commits' delay: the write a file's arrival asks for is never urgent, and at start it
    // would come before the first read.
    inBackground: () => void requestAfterCommit(),
    flush: () => (writer === undefined ? Promise.resolve() : writer.request()),
    close() {
      closed = true
      return writer === undefined ? Promise.resolve() : writer.request()
    },
    get writes() {
      return writer?.writes ?? 0
    },
  }
}
