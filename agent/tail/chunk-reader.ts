// A file's turn of reading: up to TURN_BYTES from its read offset, chunk by chunk, each chunk split
// into a batch and handed on. Two read paths: on libuv's pool (the default) or on the calling
// thread (syncReads).
//
// A copy-and-truncate between the turn's check (turn-check.ts) and a read would hand over the new
// content at the old offsets (the file can be rewritten past our offset before we look, when we are
// behind). So both paths check the file's first bytes again after each read and before any of its
// lines is emitted: a chunk read after a truncation is dropped, and the copy supplies those lines.

import { read, readSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { createChunkBatch, type LineBatch } from './batch'
import { HEAD_BYTES, headContinues } from './file-identity'
import { batchOrigin, type FileGeneration } from './file-generation'
import type { TailContext } from './tail-context'

/** Bytes read from one file before the loop moves on to the next, so one busy file cannot starve the rest. */
const TURN_BYTES = 4 * 1024 * 1024

/** Reads up to TURN_BYTES, then puts the file back at the end of the line if there is more. */
export type ReadTurn = (file: FileGeneration, handle: FileHandle) => Promise<void>

type OnTruncated = (file: FileGeneration, size: number, head: Buffer) => void

/** `onTruncated`: the first bytes changed under a read (size and head found then). */
export function createChunkReader(ctx: TailContext, onTruncated: OnTruncated): ReadTurn {
  // The sync path's head check reads here; a truncation hands out a copy.
  const headScratch = Buffer.allocUnsafe(HEAD_BYTES)
  if (ctx.config.syncReads) return (file, handle) => readTurnSync(ctx, onTruncated, headScratch, file, handle)
  return (file, handle) => readTurnPooled(ctx, onTruncated, file, handle)
}

/**
 * syncReads: each chunk is read on this thread when the one before has been handed on, so one
 * buffer, still in the CPU cache, is read into and split again and again. The loop only awaits
 * the hand-off; the work is in readChunkSync, which V8 optimizes on its own.
 */
async function readTurnSync(
  ctx: TailContext,
  onTruncated: OnTruncated,
  headScratch: Buffer,
  file: FileGeneration,
  handle: FileHandle,
): Promise<void> {
  const { outlet } = ctx
  let budget = TURN_BYTES
  while (budget > 0 && !ctx.closed) {
    const buffer = outlet.takeBuffer()
    const chunk = readChunkSync(ctx, headScratch, file, handle.fd, buffer)
    if ('truncatedHead' in chunk) {
      outlet.recycle(buffer)
      const size = (await handle.stat()).size
      if (!ctx.closed)
        onTruncated(file, size, chunk.truncatedHead.subarray(0, Math.min(chunk.truncatedHead.length, size)))
      return
    }
    if (chunk.batch !== undefined) await outlet.emit(file, chunk.batch, buffer)
    else outlet.recycle(buffer)
    // A short read means the end of what is there now; the next event or tick brings more.
    if (chunk.bytesRead < buffer.length) return
    budget -= chunk.bytesRead
  }
  if (budget <= 0) ctx.files.dirty.add(file)
}

/** One chunk at the read offset and the check of the file's first bytes; the head it found when they changed. */
function readChunkSync(
  ctx: TailContext,
  headScratch: Buffer,
  file: FileGeneration,
  fd: number,
  buffer: Buffer,
): { truncatedHead: Buffer } | { bytesRead: number; batch: LineBatch | undefined } {
  let bytesRead: number
  let head: Buffer
  try {
    bytesRead = readSync(fd, buffer, 0, buffer.length, file.readOffset)
    if (bytesRead === 0) return { bytesRead, batch: undefined }
    head = headScratch.subarray(0, readSync(fd, headScratch, 0, HEAD_BYTES, 0))
  } catch (error) {
    ctx.outlet.recycle(buffer)
    throw error
  }
  if (!headContinues(file.head, head)) return { truncatedHead: Buffer.from(head) }
  return { bytesRead, batch: splitChunk(ctx, file, buffer, bytesRead) }
}

/**
 * Reads on the libuv pool, with fs.read callbacks on the handle's fd (FileHandle#read's promise
 * bookkeeping costs more than the read itself at these rates). The next chunk is requested as
 * soon as the current one is in, so the disk read overlaps the head check and the splitting.
 */
async function readTurnPooled(
  ctx: TailContext,
  onTruncated: OnTruncated,
  file: FileGeneration,
  handle: FileHandle,
): Promise<void> {
  const { outlet } = ctx
  const chunkBytes = ctx.config.readChunkBytes
  const fd = handle.fd
  const readAt = (position: number) =>
    new Promise<{ bytesRead: number; buffer: Buffer }>((resolve, reject) => {
      const buffer = outlet.takeBuffer()
      read(fd, buffer, 0, chunkBytes, position, (error, bytesRead) =>
        error === null ? resolve({ bytesRead, buffer }) : reject(error),
      )
    })
  const headBuffer = Buffer.allocUnsafe(HEAD_BYTES)
  const headNow = () =>
    new Promise<Buffer>((resolve, reject) => {
      read(fd, headBuffer, 0, HEAD_BYTES, 0, (error, bytesRead) =>
        error === null ? resolve(headBuffer.subarray(0, bytesRead)) : reject(error),
      )
    })
  const drop = async (inFlight: ReturnType<typeof readAt> | undefined): Promise<void> => {
    const dropped = await inFlight?.catch(() => undefined)
    if (dropped !== undefined) outlet.recycle(dropped.buffer)
  }
  let budget = TURN_BYTES
  let nextPosition = file.readOffset
  let pending: ReturnType<typeof readAt> | undefined = readAt(nextPosition)
  while (pending !== undefined) {
    const { bytesRead, buffer } = await pending
    pending = undefined
    if (bytesRead === 0 || ctx.closed) {
      outlet.recycle(buffer)
      return
    }
    nextPosition += bytesRead
    budget -= bytesRead
    // A short read means the end of what is there now; the next event or tick brings more.
    if (budget > 0 && bytesRead === chunkBytes) pending = readAt(nextPosition)
    // The check of the first bytes; a chunk in flight after a failed one is dropped too.
    let current: Buffer
    try {
      current = await headNow()
    } catch (error) {
      // The read in flight must not reject with no one waiting for it.
      await drop(pending)
      throw error
    }
    if (!headContinues(file.head, current)) {
      outlet.recycle(buffer)
      await drop(pending)
      const size = (await handle.stat()).size
      if (!ctx.closed) onTruncated(file, size, Buffer.from(current.subarray(0, Math.min(current.length, size))))
      return
    }
    const batch = splitChunk(ctx, file, buffer, bytesRead)
    if (batch !== undefined) await outlet.emit(file, batch, buffer)
    else outlet.recycle(buffer)
    if (ctx.closed) {
      await drop(pending)
      return
    }
  }
  if (budget <= 0) ctx.files.dirty.add(file)
}

/**
 * A chunk just read into `buffer` -> the batch of the lines it completes (undefined if none), the
 * file's read position past it. Synchronous and apart from the read loops, so that V8 optimizes
 * this, not a whole async loop (whose compilation on a fresh process costs more than it saves).
 */
function splitChunk(ctx: TailContext, file: FileGeneration, buffer: Buffer, bytesRead: number): LineBatch | undefined {
  const { counters } = ctx
  const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead)
  const cutBefore = file.splitter.truncatedLines
  const split = file.splitter.push(chunk, file.readOffset)
  counters.truncatedLines += file.splitter.truncatedLines - cutBefore
  const batch = createChunkBatch(batchOrigin(file), split, chunk, file.readOffset, ctx.config.maxLineBytes)
  file.readOffset += bytesRead
  if (file.readOffset > file.size) file.size = file.readOffset
  counters.bytesRead += bytesRead
  return batch
}
