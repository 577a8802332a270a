// What the parts of a running tailer share: the options, the files it follows, its counters, the
// outlet batches leave by, the checkpoint requests, and whether it is closed. One object, made
// once per tailer and handed to each part.

import { createBatchOutlet, type BatchOutlet } from './batch-outlet'
import { createCheckpointFeed, type CheckpointFeed } from './checkpoint-feed'
import { TailError, type TailErrorCode } from './errors'
import { createFollowedFiles, type FollowedFiles } from './followed-files'
import { compileGlob } from './glob'
import { createLinkGuard, type LinkGuard } from './link-guard'
import type { NormalizedTailerOptions } from './options'

export interface TailCounters {
  linesRead: number
  bytesRead: number
  truncatedLines: number
  rotations: number
  truncations: number
  copiesFollowed: number
  released: number
  ticks: number
  /** Matching paths not read because they resolve where followSymlinks does not allow (once per path and target). */
  refusedLinks: number
}

export interface TailContext {
  readonly config: NormalizedTailerOptions
  readonly files: FollowedFiles
  readonly counters: TailCounters
  readonly outlet: BatchOutlet
  readonly checkpoints: CheckpointFeed
  /** Which symlinks may be followed (discovery asks before reporting one, adoption once a file is open). */
  readonly links: LinkGuard
  /** Set by close(): every part stops at its next check. */
  closed: boolean
  warn(code: TailErrorCode, message: string, path: string | undefined, cause?: unknown): void
}

export function createTailContext(config: NormalizedTailerOptions): TailContext {
  const files = createFollowedFiles()
  const counters: TailCounters = {
    linesRead: 0,
    bytesRead: 0,
    truncatedLines: 0,
    rotations: 0,
    truncations: 0,
    copiesFollowed: 0,
    released: 0,
    ticks: 0,
    refusedLinks: 0,
  }
  const warn = (code: TailErrorCode, message: string, path: string | undefined, cause?: unknown): void =>
    config.onWarning(new TailError(code, message, { ...(path === undefined ? {} : { path }), cause }))
  return {
    config,
    files,
    counters,
    outlet: createBatchOutlet(config, counters),
    checkpoints: createCheckpointFeed(config, files),
    links: createLinkGuard({
      globs: config.paths.map((pattern) => compileGlob(pattern, config.cwd)),
      setting: config.followSymlinks,
      warn,
      onRefused: () => counters.refusedLinks++,
    }),
    closed: false,
    warn,
  }
}
