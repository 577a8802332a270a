// The tailer's rotation actions: what it does once a decision is taken (path-change.ts,
// turn-check.ts, new-file.ts, truncation.ts, parked-copy.ts). Detaching a file whose path went
// away, releasing a finished one, ending a truncated generation (and handing its unread rest to
// its copy), applying a new file's classification, reading a parked file as its own after all.

import { createLineBatch } from './batch'
import { batchOrigin, createFileGeneration, restartAt, type FileGeneration } from './file-generation'
import { classifyNewFile } from './new-file'
import type { TailContext } from './tail-context'
import { planTruncation } from './truncation'

export interface Rotation {
  /** Its path no longer names it: read to its end, then released (a parked copy at once). */
  detach(file: FileGeneration): void
  /** Done with a file: its last partial line (it will not be completed now) is emitted, its handle closed. */
  release(file: FileGeneration): Promise<void>
  /** The file was found truncated (`size` and `head` now): its generation ends, a new one begins at 0. */
  truncated(file: FileGeneration, size: number, head: Buffer): void
  /** Its probation is over: a copy, a parked copy, a file to look at again later, or a new file. */
  classify(file: FileGeneration): void
  /** A parked file is not a copy after all: read it as a file of its own. */
  unpark(file: FileGeneration): void
}

export function createRotation(ctx: TailContext): Rotation {
  const { files, counters, config } = ctx

  function detach(file: FileGeneration): void {
    if (files.detach(file)) void release(file)
  }

  async function release(file: FileGeneration): Promise<void> {
    if (file.phase === 'released') return
    const wasParked = file.phase === 'parked'
    file.phase = 'released'
    files.forget(file)
    const handle = file.handle
    file.handle = undefined
    await handle?.close().catch(() => undefined)
    counters.released++
    if (!wasParked) {
      const last = file.splitter.finish(file.readOffset)
      file.finalOffset = file.readOffset
      if (last !== undefined) await ctx.outlet.emit(file, createLineBatch(batchOrigin(file), last))
      if (file.committed < file.finalOffset) files.retained.add(file)
    }
    for (const copy of files.parkedCopiesOf(file)) await release(copy)
    files.wakeWaitersOf(file)
    ctx.checkpoints.inBackground()
  }

  function truncated(ended: FileGeneration, size: number, head: Buffer): void {
    counters.truncations++
    const next = createFileGeneration({
      stats: { dev: BigInt(ended.dev), ino: BigInt(ended.ino) },
      path: ended.path,
      handle: ended.handle as NonNullable<FileGeneration['handle']>,
      head,
      size,
      generation: ended.generation + 1,
      follows: ended,
      phase: 'active',
      startOffset: 0,
      committed: 0,
      maxLineBytes: config.maxLineBytes,
    })
    next.detached = ended.detached
    ended.handle = undefined
    ended.phase = 'released'
    files.forget(ended)
    const plan = planTruncation(ended.head, files.parkedCopiesOf(ended))
    if (plan.kind === 'continue-in-copy') {
      for (const other of plan.release) void release(other)
      // The copy first: it holds this file's older lines.
      continueInCopy(ctx, plan.copy, ended, ended.splitter.lineStart)
      next.waitsFor = plan.copy
    } else if (plan.kind === 'await-copy') {
      files.awaitCopy({ ended, lineStart: ended.splitter.lineStart, next, ticks: 0 })
      next.held = true
    }
    files.track(next)
    ctx.checkpoints.inBackground()
  }

  function classify(file: FileGeneration): void {
    const others = [...files.live].filter((other) => other !== file)
    const verdict = classifyNewFile(
      file.head,
      file.deferred,
      files.awaitingCopy.map((entry) => entry.ended.head),
      others,
    )
    if (verdict.kind === 'copy-of-truncated') {
      const [entry] = files.awaitingCopy.splice(verdict.index, 1)
      if (entry === undefined) return
      continueInCopy(ctx, file, entry.ended, entry.lineStart)
      // The file's new generation goes on only after its older lines, which this copy holds.
      entry.next.waitsFor = file
      entry.next.held = false
      files.dirty.add(entry.next)
    } else if (verdict.kind === 'parked') {
      file.phase = 'parked'
      file.copyOf = verdict.copyOf
    } else if (verdict.kind === 'deferred') {
      file.deferred = true
      for (const suspect of verdict.suspects) files.dirty.add(suspect)
      files.dirty.add(file)
    } else {
      file.phase = 'active'
    }
  }

  function unpark(file: FileGeneration): void {
    file.phase = 'active'
    file.copyOf = undefined
    files.dirty.add(file)
    ctx.checkpoints.inBackground()
  }

  return { detach, release, truncated, classify, unpark }
}

/** The copy takes over the ended generation's unread bytes and its commits. */
function continueInCopy(ctx: TailContext, copy: FileGeneration, ended: FileGeneration, lineStart: number): void {
  restartAt(copy, lineStart, ctx.config.maxLineBytes)
  copy.committed = ended.committed
  copy.phase = 'active'
  copy.copyOf = undefined
  ended.successor = copy
  ctx.counters.copiesFollowed++
  ctx.files.dirty.add(copy)
}
