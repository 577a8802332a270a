// Opening the files the tailer starts to follow: those found at startup (placed by the checkpoint,
// initial-placement.ts) and those that appear while it runs (from 0, after probation).

import type { BigIntStats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import type { CheckpointEntry } from './checkpoint-store'
import { TailErrorCodes } from './errors'
import { fileIdOf, readHead } from './file-identity'
import { createFileGeneration, type FileGeneration } from './file-generation'
import { initialStart, placeInitialFiles, type Placement } from './initial-placement'
import type { TailContext } from './tail-context'

interface OpenedFile {
  readonly handle: FileHandle
  readonly stats: Pick<BigIntStats, 'dev' | 'ino'>
  readonly size: number
  readonly head: Buffer
}

export interface FileAdoption {
  /** A file that appeared at `path` while running: read from 0 once probation says it is no rotation copy. */
  adoptNew(path: string): Promise<void>
  /** The files found at startup, placed by the checkpoint. */
  adoptInitial(paths: readonly string[], saved: readonly CheckpointEntry[]): Promise<void>
}

export function createFileAdoption(ctx: TailContext): FileAdoption {
  const { files, config, counters } = ctx
  // Paths warned about once until they open: an unreadable file that is written to would warn on every write.
  const unopenable = new Set<string>()

  async function openFile(path: string): Promise<OpenedFile | undefined> {
    let handle: FileHandle | undefined
    try {
      handle = await open(path, 'r')
      const stats = await handle.stat({ bigint: true })
      if (!stats.isFile() || !(await ctx.links.admitsOpened(path, stats))) {
        await handle.close()
        return undefined
      }
      const size = Number(stats.size)
      const head = await readHead(handle, size)
      unopenable.delete(path)
      return { handle, stats, size, head }
    } catch (error) {
      await handle?.close().catch(() => undefined)
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !unopenable.has(path)) {
        unopenable.add(path)
        ctx.warn(TailErrorCodes.FILE_READ, `cannot open ${path}: ${(error as Error).message}`, path, error)
      }
      return undefined
    }
  }

  async function adoptNew(path: string): Promise<void> {
    const opened = await openFile(path)
    if (opened === undefined) return
    if (files.byId.has(fileIdOf(opened.stats))) {
      await opened.handle.close()
      return
    }
    const before = files.takeVacated(path)
    if (before !== undefined) counters.rotations++
    const file = createFileGeneration({
      ...opened,
      path,
      generation: 0,
      phase: 'probation',
      startOffset: 0,
      committed: 0,
      maxLineBytes: config.maxLineBytes,
    })
    // Rename-and-create: the renamed file's rest comes before the new file's lines.
    if (before !== undefined && before.phase !== 'released') file.waitsFor = before
    files.track(file)
    ctx.checkpoints.inBackground()
  }

  async function adoptInitial(paths: readonly string[], saved: readonly CheckpointEntry[]): Promise<void> {
    const found: Array<OpenedFile & { readonly path: string }> = []
    const ids = new Set<string>()
    const unique = [...new Set(paths)]
    const openedAll = await Promise.all(unique.map(openFile))
    for (const [index, path] of unique.entries()) {
      const opened = openedAll[index]
      if (opened === undefined) continue
      const id = fileIdOf(opened.stats)
      if (ids.has(id)) {
        await opened.handle.close()
        continue
      }
      ids.add(id)
      found.push({ path, ...opened })
    }
    const placements = placeInitialFiles(
      found.map((file) => ({ fileId: fileIdOf(file.stats), size: file.size, head: file.head })),
      saved,
    )
    const adopted: FileGeneration[] = []
    for (const [index, file] of found.entries()) {
      const { phase, start } = initialStart(placements[index] as Placement, config.startAt)
      const offset = start === 'last-line-end' ? await lastLineEnd(file.handle, file.size) : start
      adopted.push(
        createFileGeneration({
          ...file,
          generation: 0,
          phase,
          startOffset: offset,
          committed: offset,
          maxLineBytes: config.maxLineBytes,
        }),
      )
    }
    for (const [index, file] of adopted.entries()) {
      const placement = placements[index]
      if (placement?.kind === 'parked') file.copyOf = adopted[placement.copyOf]
      files.track(file)
    }
    ctx.checkpoints.inBackground()
  }

  return { adoptNew, adoptInitial }
}

/**
 * Offset just past the last '\n' in the final 64 KiB, so starting "at the end" still gets a line being written whole.
 */
async function lastLineEnd(handle: FileHandle, size: number): Promise<number> {
  const span = Math.min(size, 64 * 1024)
  if (span === 0) return size
  const buffer = Buffer.alloc(span)
  const { bytesRead } = await handle.read(buffer, 0, span, size - span)
  const newline = buffer.subarray(0, bytesRead).lastIndexOf(0x0a)
  if (newline === -1) return span === size ? 0 : size
  return size - span + newline + 1
}
