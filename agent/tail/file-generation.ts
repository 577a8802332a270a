// One generation of one followed file's content: what the tailer holds for it (the open handle,
// its head, where reading is, the line splitter, what the caller has committed, its phase). A
// copy-and-truncate rotation ends a generation (same inode, new content) and may hand its unread
// rest to the copy, which becomes the ended generation's `successor`.

import type { BigIntStats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import type { BatchOrigin } from './batch'
import { fileIdOf, nextFollowId } from './file-identity'
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
export type FileGenerationPhase = 'probation' | 'parked' | 'active' | 'released'

export interface FileGeneration {
  /** `dev:ino` */
  readonly fileId: string
  /** The following of this file: shared by its generations, never by another file (file-identity.ts). */
  readonly followId: number
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
  phase: FileGenerationPhase
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
  /** After copy-and-truncate: the copy that continues this generation's bytes (commits go on to it). */
  successor: FileGeneration | undefined
  /** For a parked copy: the file it copies. */
  copyOf: FileGeneration | undefined
  /** Where reading ended when released. */
  finalOffset: number
  /**
   * The file whose rest holds lines older than this one's: the renamed file (rename-and-create) or
   * the copy (copy-and-truncate). This file is read once that one has caught up.
   */
  waitsFor: FileGeneration | undefined
  /** After copy-and-truncate with no copy found yet: not read before the next tick, in case one turns up. */
  held: boolean
}

export interface NewFileGeneration {
  readonly stats: Pick<BigIntStats, 'dev' | 'ino'>
  readonly path: string | undefined
  readonly handle: FileHandle
  readonly head: Buffer
  readonly size: number
  readonly generation: number
  readonly phase: FileGenerationPhase
  readonly startOffset: number
  readonly committed: number
  readonly maxLineBytes: number
  /** The generation this one follows on the same file (truncated); undefined for a file just found. */
  readonly follows?: FileGeneration
}

export function createFileGeneration(init: NewFileGeneration): FileGeneration {
  return {
    fileId: fileIdOf(init.stats),
    followId: init.follows?.followId ?? nextFollowId(),
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
    waitsFor: undefined,
    held: false,
  }
}

/** Moves the read position (a new start never inherits a held partial line). */
export function restartAt(file: FileGeneration, offset: number, maxLineBytes: number): void {
  file.readOffset = offset
  file.splitter = createLineSplitter(offset, maxLineBytes)
}

/** What a batch of this generation says it came from. */
export function batchOrigin(file: FileGeneration): BatchOrigin {
  return { fileId: file.fileId, followId: file.followId, generation: file.generation, path: file.path }
}
