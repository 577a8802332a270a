// One generation of one file's content: the open handle, where reading is, what the caller has
// committed. A copy-and-truncate rotation ends a generation (same inode, new content) and may hand
// its unread rest to the copy, which becomes the generation's `successor`.

import type { BigIntStats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { fileKey } from './fingerprint'
import { createLineSplitter, type LineSplitter } from './line-splitter'

/**
 * probation: found while running with fewer than HEAD_BYTES bytes; not read until its head is
 *            complete (is it a rotation copy?) or it stops growing for a tick.
 * parked:    a copy of a file being read (same full head, another inode): read only if the original
 *            turns out truncated, from where the original stood; or, if it turns out to differ from
 *            the original further on (it only starts the same), as a file of its own.
 * active:    being read. `detached` too when its path is gone (renamed away or deleted): read to its
 *            end, then released once it stops growing.
 * released:  handle closed; kept only until its last lines are committed.
 */
export type SourcePhase = 'probation' | 'parked' | 'active' | 'released'

export interface Source {
  readonly key: string
  readonly dev: string
  readonly ino: string
  readonly generation: number
  path: string | undefined
  handle: FileHandle | undefined
  /** First min(size, HEAD_BYTES) bytes as last seen. */
  head: Buffer
  /** Next byte to read. */
  readOffset: number
  splitter: LineSplitter
  /** Highest offset the caller has committed. */
  committed: number
  phase: SourcePhase
  detached: boolean
  /** Probation ended by a quiet tick: classify even with a short head. */
  settled: boolean
  /** Classification already waited once for a file this one might copy. */
  deferred: boolean
  /** Read (and checked for truncation) since the last scheduler tick. */
  fresh: boolean
  /** Size at the last read and at the previous scheduler tick, to see a file stop growing. */
  size: number
  tickSize: number
  /** After copy-and-truncate: the copy that continues this generation's bytes. */
  successor: Source | undefined
  /** For a parked copy: the file it copies. */
  copyOf: Source | undefined
  /** Where reading ended when released. */
  finalOffset: number
  /** After copy-and-truncate: the copy holding the older lines; this generation is read once it has caught up. */
  after: Source | undefined
  /** After copy-and-truncate with no copy found yet: not read before the next tick, in case one turns up. */
  held: boolean
}

export interface NewSource {
  readonly stats: Pick<BigIntStats, 'dev' | 'ino'>
  readonly path: string | undefined
  readonly handle: FileHandle
  readonly head: Buffer
  readonly size: number
  readonly generation: number
  readonly phase: SourcePhase
  readonly startOffset: number
  readonly committed: number
  readonly maxLineBytes: number
}

export function createSource(init: NewSource): Source {
  return {
    key: fileKey(init.stats),
    dev: String(init.stats.dev),
    ino: String(init.stats.ino),
    generation: init.generation,
    path: init.path,
    handle: init.handle,
    head: init.head,
    readOffset: init.startOffset,
    splitter: createLineSplitter(init.startOffset, init.maxLineBytes),
    committed: init.committed,
    phase: init.phase,
    detached: false,
    settled: false,
    deferred: false,
    fresh: false,
    size: init.size,
    tickSize: init.size,
    successor: undefined,
    copyOf: undefined,
    finalOffset: 0,
    after: undefined,
    held: false,
  }
}

/** Moves the read position (a new start never inherits a held partial line). */
export function restartAt(source: Source, offset: number, maxLineBytes: number): void {
  source.readOffset = offset
  source.splitter = createLineSplitter(offset, maxLineBytes)
}

/** Offset just past the last '\n' in the final 64 KiB, so starting "at the end" still gets a line being written whole. */
export async function lastLineEnd(handle: FileHandle, size: number): Promise<number> {
  const span = Math.min(size, 64 * 1024)
  if (span === 0) return size
  const buffer = Buffer.alloc(span)
  const { bytesRead } = await handle.read(buffer, 0, span, size - span)
  const newline = buffer.subarray(0, bytesRead).lastIndexOf(0x0a)
  if (newline === -1) return span === size ? 0 : size
  return size - span + newline + 1
}
