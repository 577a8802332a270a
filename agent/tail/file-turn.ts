// One file's turn in the loop: look at it (its size and first bytes, checked on every turn, not
// only when the size went down: a file truncated and quickly rewritten past our offset is only
// told apart by them), then truncate, wait, classify or read as turn-check.ts decides.

import { TailErrorCodes } from './errors'
import { fstatSync } from 'node:fs'
import { HEAD_BYTES, readHead, readHeadSync } from './file-identity'
import type { FileGeneration } from './file-generation'
import type { ReadTurn } from './chunk-reader'
import type { Rotation } from './rotation'
import type { TailContext } from './tail-context'
import { checkContent, startTurn } from './turn-check'

export type FileTurn = (file: FileGeneration) => Promise<void>

export function createFileTurn(ctx: TailContext, rotation: Rotation, readTurn: ReadTurn): FileTurn {
  const { files } = ctx
  return async (file) => {
    const handle = file.handle
    const older = file.waitsFor
    const start = startTurn({
      open: handle !== undefined,
      phase: file.phase,
      held: file.held,
      waitsFor:
        older === undefined
          ? undefined
          : { phase: older.phase, readOffset: older.readOffset, size: older.size, queued: files.dirty.has(older) },
    })
    if (start.kind !== 'look' || handle === undefined) return
    file.waitsFor = undefined
    try {
      // With syncReads, on this thread like the reads (each hop to the pool and back is a wait an
      // alert pays); otherwise both requests go to the pool together.
      const [stats, current] = ctx.config.syncReads
        ? [fstatSync(handle.fd), readHeadSync(handle, file.readOffset + HEAD_BYTES)]
        : await Promise.all([handle.stat(), readHead(handle, file.readOffset + HEAD_BYTES)])
      const size = stats.size
      const head = current.subarray(0, Math.min(current.length, size))
      const check = checkContent({
        phase: file.phase,
        readOffset: file.readOffset,
        knownHead: file.head,
        size,
        head,
        settled: file.settled,
        detached: file.detached,
      })
      if (check.kind === 'truncated') {
        rotation.truncated(file, size, head)
        return
      }
      file.head = head
      file.size = size
      file.fresh = true
      if (check.kind === 'wait-in-probation') return
      if (check.kind === 'classify') {
        rotation.classify(file)
        if (file.phase !== 'active') return
      }
      await readTurn(file, handle)
      // Caught up: what waited for this file's older lines goes on now, not at the next event or tick.
      if (!files.dirty.has(file)) files.wakeWaitersOf(file)
    } catch (error) {
      if (ctx.closed) return
      ctx.warn(
        TailErrorCodes.FILE_READ,
        `cannot read ${file.path ?? file.fileId}: ${(error as Error).message}`,
        file.path,
        error,
      )
    }
  }
}
