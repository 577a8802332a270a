// The scheduler tick: every followed path is stat'ed again (all at once on the libuv pool), held
// generations are let go when their copy is not coming (truncation.ts), and each file gets what
// tick-plan.ts decides. The I/O those decisions need (a stat of a file's open handle, the bytes a
// parked copy is compared on) happens here.

import type { FileHandle } from 'node:fs/promises'
import { HEAD_BYTES, readHead } from './file-identity'
import type { FileGeneration } from './file-generation'
import { parkedCopyVerdict, parkedCopyWindow } from './parked-copy'
import { statOrUndefined, type PathTracker } from './path-tracker'
import type { Rotation } from './rotation'
import type { TailContext } from './tail-context'
import { confirmStopped, planTick } from './tick-plan'
import { keepsWaitingForCopy } from './truncation'

export function createTick(ctx: TailContext, paths: PathTracker, rotation: Rotation): () => Promise<void> {
  const { files } = ctx

  function letGoOfHeldFiles(): void {
    const unclassified = [...files.live].filter((file) => file.phase === 'probation').map((file) => file.head)
    for (const file of files.live) {
      if (!file.held) continue
      const awaiting = files.awaitingCopy.find((entry) => entry.next === file)
      file.held = keepsWaitingForCopy(
        awaiting && { endedHead: awaiting.ended.head, ticks: awaiting.ticks },
        unclassified,
      )
      if (awaiting !== undefined) awaiting.ticks++
    }
  }

  async function tickFile(file: FileGeneration): Promise<void> {
    const plan = planTick(file)
    if (plan.kind === 'release-if-stopped') {
      const stopped = confirmStopped(
        await file.handle?.stat().then(
          (stats) => stats.size,
          () => undefined,
        ),
        file.readOffset,
      )
      if (stopped.kind === 'release') {
        await rotation.release(file)
        return
      }
      file.size = stopped.size
    }
    file.fresh = false
    file.tickSize = file.size
    if (plan.kind === 'check-copy') {
      if (await notACopy(file)) rotation.unpark(file)
      return
    }
    if (plan.kind === 'idle') return
    if (plan.kind === 'read' && plan.settled) file.settled = true
    files.dirty.add(file)
  }

  /** parked-copy.ts with its facts: the sizes of both files, then the bytes compared. */
  async function notACopy(parked: FileGeneration): Promise<boolean> {
    const original = parked.copyOf
    if (original === undefined || parked.handle === undefined || original.handle === undefined) return false
    try {
      const [parkedSize, originalSize] = await Promise.all([sizeOf(parked.handle), sizeOf(original.handle)])
      const window = parkedCopyWindow({
        originalBeingRead: original.phase === 'active',
        originalReadOffset: original.readOffset,
        originalSize,
        parkedSize,
      })
      if (window.kind === 'stay-parked' || original.handle === undefined || parked.handle === undefined) return false
      const [ours, theirs] = await Promise.all([readAt(parked.handle, window.at), readAt(original.handle, window.at)])
      // Read after the compared bytes: if the original still starts the same, those were its own content.
      const originalHeadNow = await readHead(original.handle, HEAD_BYTES)
      const verdict = parkedCopyVerdict({
        parkedSize,
        originalSize,
        parked: ours,
        original: theirs,
        originalHead: original.head,
        originalHeadNow,
      })
      return verdict.kind === 'own-file'
    } catch {
      // A file that went away meanwhile: the path events decide.
      return false
    }
  }

  return async () => {
    const watched = [...files.byPath.keys()]
    const found = await Promise.all(watched.map(statOrUndefined))
    for (const [index, path] of watched.entries()) await paths.applyPath(path, found[index], true)
    letGoOfHeldFiles()
    for (const file of [...files.live]) await tickFile(file)
    ctx.counters.ticks++
  }
}

const sizeOf = (handle: FileHandle): Promise<number> => handle.stat().then((stats) => stats.size)

const readAt = (handle: FileHandle, position: number): Promise<Buffer> =>
  handle
    .read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, position)
    .then(({ buffer, bytesRead }) => buffer.subarray(0, bytesRead))
