// The tailer: it follows files by identity through rotations and hands their lines out as batches;
// the caller commits a batch once it has handled its lines, and only committed offsets reach the
// checkpoint. This file assembles the parts and is the public surface:
//   discovery (watcher events) and the tick -> scheduler (one serial loop)
//   -> path-tracker (path-change.ts), file-turn (turn-check.ts, new-file.ts), tick (tick-plan.ts,
//      parked-copy.ts, truncation.ts), each gathering facts and applying a pure decision
//   -> rotation (the actions), chunk-reader (the two read paths) -> batch-outlet -> the consumer.

import { lineEndOffset, type LineBatch } from './batch'
import { loadCheckpoint, type CheckpointEntry } from './checkpoint-store'
import { createChunkReader } from './chunk-reader'
import { createDiscovery } from './discovery'
import { TailError, TailErrorCodes } from './errors'
import { createFileAdoption } from './file-adoption'
import type { FileGenerationPhase } from './file-generation'
import { createFileTurn } from './file-turn'
import { normalizeTailerOptions, type NormalizedTailerOptions, type TailerOptions } from './options'
import { createPathTracker } from './path-tracker'
import { createRotation } from './rotation'
import { createScheduler } from './scheduler'
import { createTailContext, type TailContext } from './tail-context'
import { createTick } from './tick'

export interface TailStats {
  /** Files being read or waiting (not released). */
  readonly files: number
  readonly linesRead: number
  readonly bytesRead: number
  readonly truncatedLines: number
  /** A path whose file was renamed away or deleted began to name a new file (rename-and-create). */
  readonly rotations: number
  /** A file was found shorter than what was read, or with other first bytes (copy-and-truncate). */
  readonly truncations: number
  /** A truncated file's unread rest was taken from its copy. */
  readonly copiesFollowed: number
  readonly released: number
  /** Matching paths not read because they resolve where followSymlinks does not allow (once per path and target). */
  readonly refusedLinks: number
  /** Scheduler ticks run (each one stats every followed path: pollIntervalMs apart). */
  readonly ticks: number
  readonly checkpointWrites: number
}

export interface TailFileStatus {
  readonly fileId: string
  readonly generation: number
  readonly path: string | undefined
  readonly phase: FileGenerationPhase
  readonly detached: boolean
  /** Next byte to read. */
  readonly readOffset: number
  readonly committed: number
  /** Size at the last read: size - readOffset is how far behind the tailer is. */
  readonly size: number
}

export interface Tailer extends AsyncIterable<LineBatch> {
  /**
   * Records that the caller has handled the batch's lines (the first `lineCount` of them when
   * given) and resolves once a checkpoint holding that offset is on disk. Commits may come in any
   * order; the highest offset per file wins. Awaiting is optional: the checkpoint never holds more
   * than was committed either way, and a failed write is also reported to onWarning.
   */
  commit(batch: LineBatch, lineCount?: number): Promise<void>
  /**
   * With reuseBuffers: the caller reads nothing more of the batch's buffer (it copied what it still
   * needs), which may be read into again even though the batch is not committed whole.
   */
  release(batch: LineBatch): void
  /**
   * Which stream of lines the batch continues: the same key for every batch of one generation of a
   * file and of the copy that continues it after copy-and-truncate; undefined for a foreign batch.
   */
  streamOf(batch: LineBatch): string | undefined
  /** Writes the checkpoint now (committed offsets only). */
  flush(): Promise<void>
  stats(): TailStats
  files(): TailFileStatus[]
  /** Stops watching and reading, drops batches not yet taken, writes the checkpoint, closes files. Iteration ends. */
  close(): Promise<void>
}

/** Resolves once the checkpoint is loaded and every file present now is found. */
export async function createTailer(options: TailerOptions): Promise<Tailer> {
  const config = normalizeTailerOptions(options)
  const saved = config.checkpointPath === undefined ? [] : await loadCheckpoint(config.checkpointPath)
  return startTailer(config, saved)
}

async function startTailer(config: NormalizedTailerOptions, saved: CheckpointEntry[]): Promise<Tailer> {
  const ctx = createTailContext(config)
  const rotation = createRotation(ctx)
  const adoption = createFileAdoption(ctx)
  const paths = createPathTracker(ctx, rotation, adoption)
  const takeTurn = createFileTurn(ctx, rotation, createChunkReader(ctx, rotation.truncated))
  const scheduler = createScheduler(ctx, {
    onPathEvent: paths.onPathEvent,
    tick: createTick(ctx, paths, rotation),
    takeTurn,
  })
  const discovery = await createDiscovery({
    patterns: config.paths,
    exclude: config.exclude,
    cwd: config.cwd,
    admitsLink: ctx.links.admits,
    onEvent: scheduler.onPathEvent,
    onError: (error) => ctx.warn(TailErrorCodes.WATCH, `watcher error: ${error.message}`, undefined, error),
    onModeChange: (mode, reason) => {
      if (mode === 'poll')
        ctx.warn(TailErrorCodes.EVENT_FLOOD, `file events came faster than they can be handled (${reason})`, undefined)
    },
  })
  await adoption.adoptInitial(scheduler.initialPaths, saved)
  scheduler.start()

  return {
    [Symbol.asyncIterator]: () => ctx.outlet[Symbol.asyncIterator](),
    commit: (batch, lineCount) => commit(ctx, batch, lineCount),
    release: (batch) => ctx.outlet.committedWhole(batch),
    streamOf: (batch) => ctx.outlet.streamOf(batch),
    flush: () => ctx.checkpoints.flush(),
    stats: () => ({ files: ctx.files.live.size, ...ctx.counters, checkpointWrites: ctx.checkpoints.writes }),
    files: () => fileStatuses(ctx),
    async close() {
      if (ctx.closed) return
      ctx.closed = true
      const loopDone = scheduler.stop()
      ctx.outlet.close()
      await discovery.close()
      await loopDone
      await ctx.checkpoints.close()
      for (const file of ctx.files.live) await file.handle?.close().catch(() => undefined)
      ctx.files.live.clear()
    },
  }
}

function commit(ctx: TailContext, batch: LineBatch, lineCount: number | undefined): Promise<void> {
  if (ctx.closed) return Promise.reject(new TailError(TailErrorCodes.CLOSED, 'commit() after close()'))
  let file = ctx.outlet.fileOf(batch)
  if (file === undefined)
    return Promise.reject(
      new TailError(TailErrorCodes.FOREIGN_BATCH, 'commit() was given a batch this tailer did not produce'),
    )
  if (lineCount !== undefined && !(lineCount >= 1)) return Promise.resolve()
  const whole = lineCount === undefined || lineCount >= batch.lineCount
  const offset = whole ? batch.offset : lineEndOffset(batch, Math.floor(lineCount) - 1)
  if (whole) ctx.outlet.committedWhole(batch)
  // A generation ended by copy-and-truncate goes on in its copy: the commit counts there.
  while (file.successor !== undefined) file = file.successor
  if (offset > file.committed) file.committed = offset
  if (ctx.files.retained.has(file) && file.committed >= file.finalOffset) ctx.files.retained.delete(file)
  return ctx.checkpoints.requestAfterCommit()
}

function fileStatuses(ctx: TailContext): TailFileStatus[] {
  return [...ctx.files.live].map((file) => ({
    fileId: file.fileId,
    generation: file.generation,
    path: file.path,
    phase: file.phase,
    detached: file.detached,
    readOffset: file.readOffset,
    committed: file.committed,
    size: file.size,
  }))
}
