// The tailer: discovery events and one scheduler tick feed a single serial loop that owns all
// state, so rotation handling never races with reading. Lines leave as batches through a bounded
// queue; the caller commits a batch once it has handled its lines, and only committed offsets
// reach the checkpoint.

import { read, readSync, type BigIntStats } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { createChunkBatch, createLineBatch, lineEndOffset, type LineBatch } from './batch'
import { createBatchQueue } from './batch-queue'
import { createCheckpointWriter, loadCheckpoint, type CheckpointEntry, type CheckpointWriter } from './checkpoint-store'
import { createDiscovery, type Discovery, type PathEvent } from './discovery'
import { TailError, TailErrorCodes } from './errors'
import { fileKey, hashHead, headContinues, HEAD_BYTES, readHead, sameFullHead } from './fingerprint'
import { placeInitialFiles, type Placement } from './initial-placement'
import { normalizeTailerOptions, type NormalizedTailerOptions, type TailerOptions } from './options'
import { createSource, lastLineEnd, restartAt, type Source, type SourcePhase } from './source'

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
  readonly checkpointWrites: number
}

export interface TailFileStatus {
  readonly fileId: string
  readonly generation: number
  readonly path: string | undefined
  readonly phase: SourcePhase
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
  /** Writes the checkpoint now (committed offsets only). */
  flush(): Promise<void>
  stats(): TailStats
  files(): TailFileStatus[]
  /** Stops watching and reading, drops batches not yet taken, writes the checkpoint, closes files. Iteration ends. */
  close(): Promise<void>
}

type PathJob = { readonly kind: 'path'; readonly event: PathEvent; readonly path: string }
type Job = PathJob | { readonly kind: 'tick' }

interface PendingTruncation {
  readonly source: Source
  readonly lineStart: number
  /** The truncated file's new generation, waiting for the copy (`held`). */
  readonly next: Source
}

interface InitialFile {
  readonly path: string
  readonly handle: FileHandle
  readonly stats: { dev: bigint; ino: bigint }
  readonly size: number
  readonly head: Buffer
}

/** Bytes read from one file before the loop moves on to the next, so one busy file cannot starve the rest. */
const TURN_BYTES = 4 * 1024 * 1024
/**
 * A copy is matched to the file it copies by the file's first bytes; while that file is shorter than
 * HEAD_BYTES, by as many as it has, but never fewer than this (a first log line is longer).
 */
const MIN_COPY_MATCH_BYTES = 32
/** Truncations waiting for their copy to show up; older ones are forgotten. */
const MAX_PENDING_TRUNCATIONS = 64

/** Resolves once the checkpoint is loaded and every file present now is found. */
export async function createTailer(options: TailerOptions): Promise<Tailer> {
  const config = normalizeTailerOptions(options)
  const saved = config.checkpointPath === undefined ? [] : await loadCheckpoint(config.checkpointPath)
  return startTailer(config, saved)
}

async function startTailer(config: NormalizedTailerOptions, saved: CheckpointEntry[]): Promise<Tailer> {
  const queue = createBatchQueue<LineBatch>(config.maxBufferedBatches)
  const batchSources = new WeakMap<LineBatch, Source>()
  // reuseBuffers: read buffers come back here when their batch is committed whole.
  const batchBuffers = new WeakMap<LineBatch, Buffer>()
  const bufferPool: Buffer[] = []
  const recycle = (buffer: Buffer): void => {
    if (config.reuseBuffers && bufferPool.length <= config.maxBufferedBatches) bufferPool.push(buffer)
  }
  const live = new Set<Source>()
  const byKey = new Map<string, Source>()
  const byPath = new Map<string, Source>()
  const retained = new Set<Source>()
  const pendingTruncations: PendingTruncation[] = []
  const dirty = new Set<Source>()
  const jobs: Job[] = []
  /** The last job queued for each path, until it runs. */
  const lastPathJob = new Map<string, PathJob>()
  const initialPaths: string[] = []
  const counters = { linesRead: 0, bytesRead: 0, truncatedLines: 0, rotations: 0, truncations: 0, copiesFollowed: 0, released: 0 }
  let starting = true
  let closed = false
  let running: Promise<void> | undefined
  let tickQueued = false

  const warn = (code: typeof TailErrorCodes[keyof typeof TailErrorCodes], message: string, path: string | undefined, cause?: unknown): void => {
    config.onWarning(new TailError(code, message, { ...(path === undefined ? {} : { path }), cause }))
  }

  const writer: CheckpointWriter | undefined =
    config.checkpointPath === undefined ? undefined : createCheckpointWriter(config.checkpointPath, durableSnapshot)

  function durableSnapshot(): CheckpointEntry[] {
    try {
      config.beforeCheckpointWrite?.()
    } catch (error) {
      throw new TailError(TailErrorCodes.CHECKPOINT_WRITE, `checkpoint not written: ${(error as Error).message}`, { ...(config.checkpointPath === undefined ? {} : { path: config.checkpointPath }), cause: error })
    }
    return snapshot()
  }

  function snapshot(): CheckpointEntry[] {
    const entries: CheckpointEntry[] = []
    for (const source of live) {
      if (source.phase === 'parked') continue
      entries.push(entryOf(source, source.phase === 'probation'))
    }
    for (const source of retained) if (!byKey.has(source.key)) entries.push(entryOf(source, false))
    return entries
  }

  // A head only changes by growing (a rewrite starts a new Source), so its hash is kept per length.
  const headHashes = new WeakMap<Source, { length: number; hash: string }>()
  function headHashOf(source: Source): string {
    const known = headHashes.get(source)
    if (known !== undefined && known.length === source.head.length) return known.hash
    const hash = hashHead(source.head)
    headHashes.set(source, { length: source.head.length, hash })
    return hash
  }

  function entryOf(source: Source, pending: boolean): CheckpointEntry {
    return {
      dev: source.dev,
      ino: source.ino,
      head: headHashOf(source),
      headLength: source.head.length,
      offset: source.committed,
      path: source.path,
      ...(pending ? { pending: true } : {}),
    }
  }

  /**
   * Asks for a checkpoint write. A failure goes to onWarning, and the returned promise is marked as
   * handled, so a caller that does not await it does not get an unhandled rejection; one that
   * awaits it still sees the error.
   */
  function requestCheckpoint(): Promise<void> {
    if (writer === undefined) return Promise.resolve()
    const durable = writer.request()
    durable.catch((error: unknown) => {
      if (error instanceof TailError) config.onWarning(error)
    })
    return durable
  }

  function checkpointInBackground(): void {
    void requestCheckpoint()
  }

  // checkpointDelayMs: commits within the delay share one write, requested when it ends.
  let delayedCheckpoint: Promise<void> | undefined
  function requestCheckpointSoon(): Promise<void> {
    if (config.checkpointDelayMs === 0 || writer === undefined) return requestCheckpoint()
    if (delayedCheckpoint === undefined) {
      const delayed = new Promise<void>((resolve) => setTimeout(resolve, config.checkpointDelayMs)).then(() => {
        delayedCheckpoint = undefined
        return requestCheckpoint()
      })
      delayed.catch(() => undefined)
      delayedCheckpoint = delayed
    }
    return delayedCheckpoint
  }

  function kick(): void {
    if (running || closed || starting) return
    running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(runLoop)
      .catch((error: unknown) => warn(TailErrorCodes.FILE_READ, `tailer loop: ${(error as Error).message}`, undefined, error))
      .finally(() => {
        running = undefined
        if (!closed && (jobs.length > 0 || dirty.size > 0)) kick()
      })
  }

  async function runLoop(): Promise<void> {
    while (!closed) {
      const job = jobs.shift()
      if (job !== undefined) {
        if (job.kind === 'tick') {
          tickQueued = false
          await tick()
        } else {
          if (lastPathJob.get(job.path) === job) lastPathJob.delete(job.path)
          await onPath(job.event, job.path)
        }
        continue
      }
      const next = dirty.values().next()
      if (next.done === true) return
      dirty.delete(next.value)
      await service(next.value)
    }
  }

  function track(source: Source): void {
    live.add(source)
    byKey.set(source.key, source)
    if (source.path !== undefined) byPath.set(source.path, source)
    if (source.phase !== 'parked') dirty.add(source)
  }

  // Paths whose file went away: a new file there later is a rotation (rename or delete, then create).
  // Each with the file that was there, read to its end before the new one (per-path order).
  const vacated = new Map<string, Source>()
  function detach(source: Source): void {
    if (source.path !== undefined && byPath.get(source.path) === source) {
      byPath.delete(source.path)
      vacated.set(source.path, source)
      if (vacated.size > 4096) vacated.delete(vacated.keys().next().value as string)
    }
    source.path = undefined
    source.detached = true
    if (source.phase === 'parked') {
      void release(source)
      return
    }
    dirty.add(source)
  }

  /** `fromTick`: a routine check; the tick itself decides which files to read. */
  async function onPath(event: PathEvent, path: string, fromTick = false): Promise<void> {
    if (event === 'unlink') {
      const known = byPath.get(path)
      if (known !== undefined) detach(known)
      return
    }
    await applyPath(path, await statOrUndefined(path), fromTick)
  }

  function statOrUndefined(path: string): Promise<BigIntStats | undefined> {
    return stat(path, { bigint: true }).catch(() => undefined)
  }

  /** What is at `path` now (undefined: nothing) decides between same file, renamed file, rotation, new file. */
  async function applyPath(path: string, stats: BigIntStats | undefined, fromTick: boolean): Promise<void> {
    if (stats === undefined) {
      const known = byPath.get(path)
      if (known !== undefined) detach(known)
      return
    }
    if (!stats.isFile()) return
    const existing = byKey.get(fileKey(stats))
    const atPath = byPath.get(path)
    if (atPath !== undefined && atPath !== existing) {
      // The path names another file now: rename-and-create. The old one is read to its end.
      detach(atPath)
    }
    if (existing !== undefined) {
      vacated.delete(path)
      if (existing.path !== path) {
        if (existing.path !== undefined && byPath.get(existing.path) === existing) byPath.delete(existing.path)
        existing.path = path
        existing.detached = false
        byPath.set(path, existing)
      }
      if (fromTick) existing.size = Number(stats.size)
      else if (existing.phase !== 'parked') dirty.add(existing)
      return
    }
    await adoptNew(path)
  }

  const unopenable = new Set<string>()
  async function openFile(path: string): Promise<{ handle: FileHandle; stats: { dev: bigint; ino: bigint }; size: number; head: Buffer } | undefined> {
    let handle: FileHandle | undefined
    try {
      handle = await open(path, 'r')
      const stats = await handle.stat({ bigint: true })
      if (!stats.isFile()) {
        await handle.close()
        return undefined
      }
      const size = Number(stats.size)
      const head = await readHead(handle, size)
      unopenable.delete(path)
      return { handle, stats, size, head }
    } catch (error) {
      await handle?.close().catch(() => undefined)
      // Once per path until it opens: an unreadable file that is written to would warn on every write.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !unopenable.has(path)) {
        unopenable.add(path)
        warn(TailErrorCodes.FILE_READ, `cannot open ${path}: ${(error as Error).message}`, path, error)
      }
      return undefined
    }
  }

  /** A file that appeared while running: from 0, after probation decides it is not a rotation copy. */
  async function adoptNew(path: string): Promise<void> {
    const opened = await openFile(path)
    if (opened === undefined) return
    if (byKey.has(fileKey(opened.stats))) {
      await opened.handle.close()
      return
    }
    const before = vacated.get(path)
    if (vacated.delete(path)) counters.rotations++
    const source = createSource({ ...opened, path, generation: 0, phase: 'probation', startOffset: 0, committed: 0, maxLineBytes: config.maxLineBytes })
    // Rename-and-create: the renamed file's rest comes before the new file's lines.
    if (before !== undefined && before.phase !== 'released') source.after = before
    track(source)
    checkpointInBackground()
  }

  async function adoptInitial(paths: readonly string[]): Promise<void> {
    const found: InitialFile[] = []
    const keys = new Set<string>()
    const unique = [...new Set(paths)]
    const openedAll = await Promise.all(unique.map(openFile))
    for (const [index, path] of unique.entries()) {
      const opened = openedAll[index]
      if (opened === undefined) continue
      const key = fileKey(opened.stats)
      if (keys.has(key)) {
        await opened.handle.close()
        continue
      }
      keys.add(key)
      found.push({ path, ...opened })
    }
    const placements = placeInitialFiles(found.map((file) => ({ key: fileKey(file.stats), size: file.size, head: file.head })), saved)
    const sources: Source[] = []
    for (const [index, file] of found.entries()) {
      const placement = placements[index] as Placement
      let phase: SourcePhase = 'active'
      let start = 0
      if (placement.kind === 'resume') {
        start = placement.offset
        if (placement.pending) phase = 'probation'
      } else if (placement.kind === 'parked') {
        // Where it starts if it turns out not to be a copy after all (notACopy): as a file without a checkpoint.
        phase = 'parked'
        if (config.startAt === 'end') start = await lastLineEnd(file.handle, file.size)
      } else if (config.startAt === 'end' && !placement.rewritten) {
        start = await lastLineEnd(file.handle, file.size)
      }
      sources.push(createSource({ ...file, generation: 0, phase, startOffset: start, committed: start, maxLineBytes: config.maxLineBytes }))
    }
    for (const [index, source] of sources.entries()) {
      const placement = placements[index] as Placement
      if (placement.kind === 'parked') source.copyOf = sources[placement.copyOf]
      track(source)
    }
    checkpointInBackground()
  }

  /** Probation is over: is this new file the copy of a truncated (or live) file, or just new? */
  function classify(source: Source): void {
    const index = pendingTruncations.findIndex((pending) => startsLike(pending.source.head, source.head))
    const pending = pendingTruncations[index]
    if (pending !== undefined) {
      pendingTruncations.splice(index, 1)
      continueFrom(source, pending.source, pending.lineStart)
      // The file's new generation goes on only after its older lines, which this copy holds.
      pending.next.after = source
      pending.next.held = false
      dirty.add(pending.next)
      return
    }
    if (source.head.length === HEAD_BYTES) {
      for (const other of live) {
        // Parking needs the full head: a new file wrongly parked would never be read.
        if (other !== source && other.phase === 'active' && sameFullHead(other.head, source.head)) {
          source.phase = 'parked'
          source.copyOf = other
          return
        }
      }
    }
    if (!source.deferred) {
      // A file being read whose head we last saw short and that this one starts like may have been
      // truncated since (and this be its copy): read that file first, then decide.
      const suspects = [...live].filter((other) => other !== source && other.phase === 'active' && other.head.length < HEAD_BYTES && startsLike(other.head, source.head))
      if (suspects.length > 0) {
        source.deferred = true
        for (const suspect of suspects) dirty.add(suspect)
        dirty.add(source)
        return
      }
    }
    source.phase = 'active'
  }

  function wakeAfter(source: Source): void {
    for (const other of live) if (other.after === source) dirty.add(other)
  }

  /** `candidate` begins with all of `original`'s known first bytes, and those are enough to tell. */
  function startsLike(original: Buffer, candidate: Buffer): boolean {
    return original.length >= MIN_COPY_MATCH_BYTES && headContinues(original, candidate)
  }

  /** The copy takes over the truncated generation's unread bytes and its commits. */
  function continueFrom(copy: Source, original: Source, lineStart: number): void {
    restartAt(copy, lineStart, config.maxLineBytes)
    copy.committed = original.committed
    copy.phase = 'active'
    copy.copyOf = undefined
    original.successor = copy
    counters.copiesFollowed++
    dirty.add(copy)
  }

  function onTruncated(old: Source, size: number, head: Buffer): void {
    counters.truncations++
    const handle = old.handle as FileHandle
    const next = createSource({ stats: { dev: BigInt(old.dev), ino: BigInt(old.ino) }, path: old.path, handle, head, size, generation: old.generation + 1, phase: 'active', startOffset: 0, committed: 0, maxLineBytes: config.maxLineBytes })
    next.detached = old.detached
    old.handle = undefined
    old.phase = 'released'
    live.delete(old)
    dirty.delete(old)
    let copy: Source | undefined
    for (const other of live) if (other.phase === 'parked' && other.copyOf === old) {
      if (copy === undefined) copy = other
      else void release(other)
    }
    // The copy first: it holds this file's older lines.
    if (copy !== undefined) {
      continueFrom(copy, old, old.splitter.lineStart)
      next.after = copy
    }
    else if (old.head.length >= MIN_COPY_MATCH_BYTES) {
      // The copy is usually made just before the truncation and found a moment after it: the new
      // generation waits (a tick at most) so that the older lines come first.
      pendingTruncations.push({ source: old, lineStart: old.splitter.lineStart, next })
      next.held = true
      if (pendingTruncations.length > MAX_PENDING_TRUNCATIONS) pendingTruncations.shift()
    }
    if (old.path !== undefined && byPath.get(old.path) === old) byPath.delete(old.path)
    track(next)
    checkpointInBackground()
  }

  async function emit(source: Source, batch: LineBatch, readBuffer?: Buffer): Promise<void> {
    batchSources.set(batch, source)
    if (config.reuseBuffers && readBuffer !== undefined) batchBuffers.set(batch, readBuffer)
    counters.linesRead += batch.lineCount
    await queue.push(batch)
  }

  const batchFrom = (source: Source) => ({ fileId: source.key, generation: source.generation, path: source.path })

  async function service(source: Source): Promise<void> {
    const handle = source.handle
    if (handle === undefined || source.phase === 'parked' || source.phase === 'released') return
    // Per-file order through copy-and-truncate: the copy's lines (older) before this generation's.
    if (source.held) return
    const before = source.after
    if (before !== undefined) {
      // Its size may be from before the copy was complete: it has caught up once a read found its end.
      if (before.phase === 'active' && (dirty.has(before) || before.readOffset < before.size)) return
      source.after = undefined
    }
    try {
      // The first bytes are checked on every read, not only when the size went down: a file
      // truncated and quickly rewritten past our offset (copy-and-truncate under load) is only told
      // apart by them. Both requests go to the pool together.
      const [stats, current] = await Promise.all([handle.stat(), readHead(handle, source.readOffset + HEAD_BYTES)])
      const size = stats.size
      const head = current.subarray(0, Math.min(current.length, size))
      if (size < source.readOffset || !headContinues(source.head, head)) {
        onTruncated(source, size, head)
        return
      }
      source.head = head
      source.size = size
      source.fresh = true
      if (source.phase === 'probation') {
        if (head.length < HEAD_BYTES && !source.settled && !source.detached) return
        classify(source)
        if ((source.phase as SourcePhase) !== 'active') return
      }
      await readTurn(source, handle)
      // Caught up: what waited for this file's older lines goes on now, not at the next event or tick.
      if (!dirty.has(source)) wakeAfter(source)
    } catch (error) {
      if (closed) return
      warn(TailErrorCodes.FILE_READ, `cannot read ${source.path ?? source.key}: ${(error as Error).message}`, source.path, error)
    }
  }

  /** Reads up to TURN_BYTES, then puts the file back at the end of the line if there is more. */
  function readTurn(source: Source, handle: FileHandle): Promise<void> {
    return config.syncReads ? readTurnSync(source, handle) : readTurnPooled(source, handle)
  }

  // A copy-and-truncate between the last check and a read would hand over the new content at the
  // old offsets (the file can be rewritten past our offset before we look, when we are behind). So
  // both read paths check the first bytes again after each read and before any of its lines is
  // emitted: a chunk read after a truncation is dropped, and the copy supplies those lines.

  /**
   * syncReads: each chunk is read on this thread when the one before has been handed on, so one
   * buffer, still in the CPU cache, is read into and split again and again. The loop only awaits
   * the hand-off; the work is in readChunkSync, which V8 optimizes on its own.
   */
  async function readTurnSync(source: Source, handle: FileHandle): Promise<void> {
    let budget = TURN_BYTES
    while (budget > 0 && !closed) {
      const buffer = bufferPool.pop() ?? Buffer.allocUnsafe(config.readChunkBytes)
      const read = readChunkSync(source, handle.fd, buffer)
      if ('truncatedHead' in read) {
        recycle(buffer)
        const size = (await handle.stat()).size
        if (!closed) onTruncated(source, size, read.truncatedHead.subarray(0, Math.min(read.truncatedHead.length, size)))
        return
      }
      if (read.batch !== undefined) await emit(source, read.batch, buffer)
      else recycle(buffer)
      // A short read means the end of what is there now; the next event or tick brings more.
      if (read.bytesRead < buffer.length) return
      budget -= read.bytesRead
    }
    if (budget <= 0) dirty.add(source)
  }

  // readChunkSync's head check reads here; a truncation hands out a copy.
  const headScratch = Buffer.allocUnsafe(HEAD_BYTES)

  /** One chunk at the read offset and the check of the file's first bytes; the head it found when they changed. */
  function readChunkSync(source: Source, fd: number, buffer: Buffer): { truncatedHead: Buffer } | { bytesRead: number; batch: LineBatch | undefined } {
    let bytesRead: number
    let head: Buffer
    try {
      bytesRead = readSync(fd, buffer, 0, buffer.length, source.readOffset)
      if (bytesRead === 0) return { bytesRead, batch: undefined }
      head = headScratch.subarray(0, readSync(fd, headScratch, 0, HEAD_BYTES, 0))
    } catch (error) {
      recycle(buffer)
      throw error
    }
    if (!headContinues(source.head, head)) return { truncatedHead: Buffer.from(head) }
    return { bytesRead, batch: splitChunk(source, buffer, bytesRead) }
  }

  /**
   * Reads on the libuv pool, with fs.read callbacks on the handle's fd (FileHandle#read's promise
   * bookkeeping costs more than the read itself at these rates). The next chunk is requested as
   * soon as the current one is in, so the disk read overlaps the head check and the splitting.
   */
  async function readTurnPooled(source: Source, handle: FileHandle): Promise<void> {
    const chunkBytes = config.readChunkBytes
    const fd = handle.fd
    const readAt = (position: number) =>
      new Promise<{ bytesRead: number; buffer: Buffer }>((resolve, reject) => {
        const buffer = bufferPool.pop() ?? Buffer.allocUnsafe(chunkBytes)
        read(fd, buffer, 0, chunkBytes, position, (error, bytesRead) => (error === null ? resolve({ bytesRead, buffer }) : reject(error)))
      })
    const headBuffer = Buffer.allocUnsafe(HEAD_BYTES)
    const headNow = () =>
      new Promise<Buffer>((resolve, reject) => {
        read(fd, headBuffer, 0, HEAD_BYTES, 0, (error, bytesRead) => (error === null ? resolve(headBuffer.subarray(0, bytesRead)) : reject(error)))
      })
    const drop = async (inFlight: ReturnType<typeof readAt> | undefined): Promise<void> => {
      const dropped = await inFlight?.catch(() => undefined)
      if (dropped !== undefined) recycle(dropped.buffer)
    }
    let budget = TURN_BYTES
    let nextPosition = source.readOffset
    let pending: ReturnType<typeof readAt> | undefined = readAt(nextPosition)
    while (pending !== undefined) {
      const { bytesRead, buffer } = await pending
      pending = undefined
      if (bytesRead === 0 || closed) {
        recycle(buffer)
        return
      }
      nextPosition += bytesRead
      budget -= bytesRead
      // A short read means the end of what is there now; the next event or tick brings more.
      if (budget > 0 && bytesRead === chunkBytes) pending = readAt(nextPosition)
      // The check of the first bytes (see above); a chunk in flight after a failed one is dropped too.
      let current: Buffer
      try {
        current = await headNow()
      } catch (error) {
        // The read in flight must not reject with no one waiting for it.
        await drop(pending)
        throw error
      }
      if (!headContinues(source.head, current)) {
        recycle(buffer)
        await drop(pending)
        const size = (await handle.stat()).size
        if (!closed) onTruncated(source, size, Buffer.from(current.subarray(0, Math.min(current.length, size))))
        return
      }
      const batch = splitChunk(source, buffer, bytesRead)
      if (batch !== undefined) await emit(source, batch, buffer)
      else recycle(buffer)
      if (closed) {
        await drop(pending)
        return
      }
    }
    if (budget <= 0) dirty.add(source)
  }

  /**
   * A chunk just read into `buffer` -> the batch of the lines it completes (undefined if none), the
   * file's read position past it. Synchronous and apart from readTurn, so that V8 optimizes this,
   * not the whole async loop (whose compilation on a fresh process costs more than it saves).
   */
  function splitChunk(source: Source, buffer: Buffer, bytesRead: number): LineBatch | undefined {
    const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead)
    const cutBefore = source.splitter.truncatedLines
    const split = source.splitter.push(chunk, source.readOffset)
    counters.truncatedLines += source.splitter.truncatedLines - cutBefore
    const batch = createChunkBatch(batchFrom(source), split, chunk, source.readOffset, config.maxLineBytes)
    source.readOffset += bytesRead
    if (source.readOffset > source.size) source.size = source.readOffset
    counters.bytesRead += bytesRead
    return batch
  }

  async function tick(): Promise<void> {
    // Events can be missed (watch limits, a rename inside chokidar's throttle): each tick checks
    // that every path still names the file being read, and reads the files that grew.
    const paths = [...byPath.keys()]
    // stat() runs on the libuv pool: all at once, then applied in order.
    const found = await Promise.all(paths.map(statOrUndefined))
    for (const [index, path] of paths.entries()) await applyPath(path, found[index], true)
    // A generation held for its copy waits on while a file being classified may be that copy (under
    // a backlog, classification can take longer than a tick).
    const unclassified = [...live].filter((source) => source.phase === 'probation')
    for (const pending of pendingTruncations) {
      if (pending.next.held && !unclassified.some((source) => startsLike(pending.source.head, source.head))) pending.next.held = false
    }
    for (const source of [...live]) {
      // Its pending truncation was dropped (too many at once): nothing to wait for.
      if (source.held && !pendingTruncations.some((pending) => pending.next === source)) source.held = false
      if (source.phase === 'probation' && source.size === source.tickSize) source.settled = true
      // `fresh`: read (and checked for truncation) since the last tick. A file renamed away and then
      // truncated must reach service(), which hands its unread rest to the copy, before it is released.
      if (source.phase === 'active' && source.detached && source.fresh && source.readOffset >= source.size && source.size === source.tickSize) {
        // `size` is the last read's, and a file renamed out of `paths` sends no more events: the app
        // may have written through its still-open handle since. Only a file that really stopped is released.
        const current = await source.handle?.stat().then((stats) => stats.size, () => undefined)
        if (current === undefined || current === source.readOffset) {
          await release(source)
          continue
        }
        source.size = current
      }
      source.fresh = false
      source.tickSize = source.size
      if (source.phase === 'parked') {
        if (await notACopy(source)) unpark(source)
        continue
      }
      // Hundreds of quiet files cost one stat each per tick, not a read.
      if (source.phase === 'active' && !source.detached && source.size === source.readOffset) continue
      dirty.add(source)
    }
  }

  /**
   * A parked file was taken for a copy on its first HEAD_BYTES alone. A real copy (made by
   * copy-and-truncate, or a backup of the file) also holds the original's bytes further on, and is
   * never longer than the original; a file that differs from it there, or has grown past it, only
   * starts the same way (a fixed banner or header line) and must be read, or its lines would never
   * be. The window compared is the last HEAD_BYTES both files have. While the original may have
   * been truncated (shorter than what was read of it, or other first bytes), nothing is decided:
   * service() hands the original's unread rest to its copy.
   */
  async function notACopy(parked: Source): Promise<boolean> {
    const original = parked.copyOf
    if (original === undefined || original.phase !== 'active' || original.handle === undefined || parked.handle === undefined) return false
    try {
      const [parkedSize, originalSize] = await Promise.all([parked.handle.stat().then((s) => s.size), original.handle.stat().then((s) => s.size)])
      if (originalSize < original.readOffset) return false
      const end = Math.min(parkedSize, originalSize)
      if (end <= HEAD_BYTES || original.handle === undefined || parked.handle === undefined) return false
      const window = (handle: FileHandle) => handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, end - HEAD_BYTES).then(({ buffer, bytesRead }) => buffer.subarray(0, bytesRead))
      const [ours, theirs] = await Promise.all([window(parked.handle), window(original.handle)])
      // Read after the windows: if the original still starts the same, its window was its own content.
      if (!headContinues(original.head, await readHead(original.handle, HEAD_BYTES))) return false
      return parkedSize > originalSize || !ours.equals(theirs)
    } catch {
      // A file that went away meanwhile: the path events decide.
      return false
    }
  }

  function unpark(source: Source): void {
    source.phase = 'active'
    source.copyOf = undefined
    dirty.add(source)
    checkpointInBackground()
  }

  /** Done with a file: its last partial line (it will not be completed now) is emitted, its handle closed. */
  async function release(source: Source): Promise<void> {
    if (source.phase === 'released') return
    const wasParked = source.phase === 'parked'
    source.phase = 'released'
    live.delete(source)
    dirty.delete(source)
    if (byKey.get(source.key) === source) byKey.delete(source.key)
    if (source.path !== undefined && byPath.get(source.path) === source) byPath.delete(source.path)
    const handle = source.handle
    source.handle = undefined
    await handle?.close().catch(() => undefined)
    counters.released++
    if (!wasParked) {
      const last = source.splitter.finish(source.readOffset)
      source.finalOffset = source.readOffset
      if (last !== undefined) await emit(source, createLineBatch(batchFrom(source), last))
      if (source.committed < source.finalOffset) retained.add(source)
    }
    for (const other of [...live]) if (other.phase === 'parked' && other.copyOf === source) await release(other)
    wakeAfter(source)
    checkpointInBackground()
  }

  const discovery: Discovery = await createDiscovery({
    patterns: config.paths,
    cwd: config.cwd,
    onEvent: (event, path) => {
      if (closed) return
      if (starting) {
        if (event === 'add') initialPaths.push(path)
        return
      }
      if (event === 'change') {
        // The common case, a write to a file being read, costs no path lookup: just read it.
        const known = byPath.get(path)
        if (known !== undefined) {
          if (known.phase !== 'parked') dirty.add(known)
          kick()
          return
        }
      }
      // A path job stats the path when it runs, so one queued job stands for every later event of
      // that path but an unlink. Without this, a file written at full speed before it is adopted
      // queues a job per write, and reading waits until they have all run (minutes, under load).
      const queued = lastPathJob.get(path)
      if (event !== 'unlink' && queued !== undefined && queued.event !== 'unlink') return
      const job: PathJob = { kind: 'path', event: event === 'rename' ? 'change' : event, path }
      lastPathJob.set(path, job)
      jobs.push(job)
      kick()
    },
    onError: (error) => warn(TailErrorCodes.WATCH, `watcher error: ${error.message}`, undefined, error),
    onModeChange: (mode, reason) => {
      if (mode === 'poll') warn(TailErrorCodes.EVENT_FLOOD, `file events came faster than they can be handled (${reason})`, undefined)
    },
  })
  await adoptInitial(initialPaths)
  starting = false
  kick()
  const timer = setInterval(() => {
    if (tickQueued || closed) return
    tickQueued = true
    jobs.push({ kind: 'tick' })
    kick()
  }, config.pollIntervalMs)
  timer.unref()

  return {
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    commit(batch, lineCount) {
      if (closed) return Promise.reject(new TailError(TailErrorCodes.CLOSED, 'commit() after close()'))
      let source = batchSources.get(batch)
      if (source === undefined) return Promise.reject(new TailError(TailErrorCodes.FOREIGN_BATCH, 'commit() was given a batch this tailer did not produce'))
      if (lineCount !== undefined && !(lineCount >= 1)) return Promise.resolve()
      const whole = lineCount === undefined || lineCount >= batch.lineCount
      const offset = whole ? batch.offset : lineEndOffset(batch, Math.floor(lineCount) - 1)
      const readBuffer = whole ? batchBuffers.get(batch) : undefined
      if (readBuffer !== undefined) {
        batchBuffers.delete(batch)
        recycle(readBuffer)
      }
      while (source.successor !== undefined) source = source.successor
      if (offset > source.committed) source.committed = offset
      if (retained.has(source) && source.committed >= source.finalOffset) retained.delete(source)
      return requestCheckpointSoon()
    },
    flush() {
      return writer === undefined ? Promise.resolve() : writer.request()
    },
    stats() {
      return { files: live.size, ...counters, checkpointWrites: writer?.writes ?? 0 }
    },
    files() {
      return [...live].map((source) => ({
        fileId: source.key,
        generation: source.generation,
        path: source.path,
        phase: source.phase,
        detached: source.detached,
        readOffset: source.readOffset,
        committed: source.committed,
        size: source.size,
      }))
    },
    async close() {
      if (closed) return
      closed = true
      clearInterval(timer)
      queue.close(true)
      await discovery.close()
      await running
      if (writer !== undefined) await writer.request()
      for (const source of live) await source.handle?.close().catch(() => undefined)
      live.clear()
    },
  }
}
