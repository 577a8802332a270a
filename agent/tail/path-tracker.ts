// Applies what a path names now (path-change.ts) to the files followed: on a watcher event, and
// for every followed path at each tick (events can be missed).

import type { BigIntStats } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { PathEvent } from './discovery'
import type { FileAdoption } from './file-adoption'
import { fileIdOf } from './file-identity'
import { decidePathChange, type PathContent } from './path-change'
import type { Rotation } from './rotation'
import type { TailContext } from './tail-context'
import type { FileGeneration } from './file-generation'

export interface PathTracker {
  onPathEvent(event: PathEvent, path: string): Promise<void>
  /**
   * `stats`: what stat() found at the path (undefined: nothing). `fromTick`: a routine check, which
   * only records a followed file's size (the tick itself decides which files to read); an event
   * queues the file for a read.
   */
  applyPath(path: string, stats: BigIntStats | undefined, fromTick: boolean): Promise<void>
}

export function statOrUndefined(path: string): Promise<BigIntStats | undefined> {
  return stat(path, { bigint: true }).catch(() => undefined)
}

export function createPathTracker(ctx: TailContext, rotation: Rotation, adoption: FileAdoption): PathTracker {
  const { files } = ctx

  async function applyPath(path: string, stats: BigIntStats | undefined, fromTick: boolean): Promise<void> {
    const content: PathContent<FileGeneration> =
      stats === undefined
        ? { kind: 'nothing' }
        : !stats.isFile()
          ? { kind: 'not-a-file' }
          : { kind: 'file', followed: files.byId.get(fileIdOf(stats)) }
    const change = decidePathChange(path, files.byPath.get(path), content)
    if (change.kind === 'ignored') return
    if (change.detach !== undefined) rotation.detach(change.detach)
    if (change.kind === 'gone') return
    if (change.kind === 'new') {
      await adoption.adoptNew(path)
      return
    }
    const file = change.file
    files.forgetVacated(path)
    if (change.kind === 'moved') files.moveTo(file, path)
    if (fromTick) file.size = Number((stats as BigIntStats).size)
    else files.markDirty(file)
  }

  return {
    // Every event, an unlink too, is checked against what the path names when its job runs: an
    // event can be older than the state (a scan's listing read before a rename-and-create), and an
    // unlink taken on trust would detach the new file the later events had already adopted.
    async onPathEvent(_event, path) {
      await applyPath(path, await statOrUndefined(path), false)
    },
    applyPath,
  }
}
