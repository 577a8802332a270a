// Written options -> normalized options, every problem reported at once as `path: message`.

import { TailError, TailErrorCodes } from './errors'
import { isAbsolute, resolve } from 'node:path'
import { globProblem } from './glob'
import type { FollowSymlinks } from './link-decision'

export type StartAt = 'end' | 'beginning'

export interface TailerOptions {
  /** Glob patterns (or plain paths) of the files to tail. Files that appear later are picked up. */
  paths: string | readonly string[]
  /**
   * Files never opened, even when `paths` match them (now or later, rotated names too): a glob
   * without '/' is matched against the file name (`*.gz`, `*.1`), one with '/' against the path
   * (relative ones resolved against `cwd`). Default none.
   */
  exclude?: string | readonly string[]
  /**
   * Where to start in a file found at startup that has no checkpoint. Default 'end'. Files that appear later always
   * start at 0.
   */
  startAt?: StartAt
  /**
   * Which matching paths that resolve elsewhere (symlinks) are read: 'inside' (default) those whose
   * target is inside the pattern's base directory; 'never' none; 'outside' all; or a list of
   * directories (relative ones resolved against `cwd`) a target may also be in. A refused one is
   * warned about once (LOGX_TAIL_ERR_SYMLINK_REFUSED) and counted (stats().refusedLinks).
   */
  followSymlinks?: FollowSymlinks
  /** Checkpoint file; without one, commits live in memory only and a restart falls back to startAt. */
  checkpointPath?: string
  /** Lines longer than this are cut to it (and counted). Default 256 KiB. */
  maxLineBytes?: number
  /** Bytes per read() call, and so the most one batch holds. Default 256 KiB. */
  readChunkBytes?: number
  /**
   * Read on the calling thread (fs.readSync) instead of libuv's thread pool. Faster from the page
   * cache (no thread hand-off, the chunk still in the CPU cache when it is split), but a read that
   * stalls (a hung network filesystem) stalls the whole event loop with it. Default false.
   */
  syncReads?: boolean
  /** Period of the one scheduler tick that re-checks every file (missed events, rotated files). Default 1000 ms. */
  pollIntervalMs?: number
  /** Batches buffered ahead of the consumer before reading pauses. Default 16. */
  maxBufferedBatches?: number
  /**
   * Reuse a read buffer for later reads once its batch is committed whole. Faster and leaner, but
   * the lines' `data` (views of that buffer) must not be used after commit(batch): copy what you keep.
   * Default false.
   */
  reuseBuffers?: boolean
  /**
   * Write the checkpoint at most this long after a commit rather than right away, so commits
   * made meanwhile share one write (a commit's promise still resolves once its offset is on
   * disk). Default 0: write at once (group commit only with a write already in flight).
   */
  checkpointDelayMs?: number
  /** Base for relative patterns. Default process.cwd(). */
  cwd?: string
  /** Non-fatal problems (a file that cannot be read, a watcher error, a failed background checkpoint write). */
  onWarning?: (error: TailError) => void
  /**
   * Called once a checkpoint write has taken its offsets, before it writes them: whatever the
   * consumer did with the lines committed so far must be durable when it returns, or when the
   * promise it returns resolves (the agent fsyncs its outbox here, off the event loop). A throw or
   * a rejection fails the write.
   */
  beforeCheckpointWrite?: () => void | Promise<void>
}

export interface NormalizedTailerOptions {
  readonly paths: readonly string[]
  readonly exclude: readonly string[]
  readonly startAt: StartAt
  /** A list holds absolute directories. */
  readonly followSymlinks: FollowSymlinks
  readonly checkpointPath: string | undefined
  readonly maxLineBytes: number
  readonly readChunkBytes: number
  readonly syncReads: boolean
  readonly pollIntervalMs: number
  readonly maxBufferedBatches: number
  readonly reuseBuffers: boolean
  readonly checkpointDelayMs: number
  readonly cwd: string
  readonly onWarning: (error: TailError) => void
  readonly beforeCheckpointWrite: (() => void | Promise<void>) | undefined
}

export function normalizeTailerOptions(options: TailerOptions): NormalizedTailerOptions {
  const problems: string[] = []
  const paths = typeof options.paths === 'string' ? [options.paths] : options.paths
  if (!Array.isArray(paths) || paths.length === 0)
    problems.push('paths: must be a non-empty string or array of strings')
  else
    paths.forEach((pattern, index) => {
      if (typeof pattern !== 'string' || pattern.length === 0)
        problems.push(`paths[${index}]: must be a non-empty string`)
    })
  const exclude = typeof options.exclude === 'string' ? [options.exclude] : (options.exclude ?? [])
  if (!Array.isArray(exclude)) problems.push('exclude: must be a string or an array of strings')
  else
    exclude.forEach((pattern, index) => {
      const problem = typeof pattern === 'string' ? globProblem(pattern) : 'must be a string'
      if (problem !== undefined) problems.push(`exclude[${index}]: ${problem}`)
    })
  const followSymlinks = normalizeFollowSymlinks(options.followSymlinks, options.cwd ?? process.cwd(), problems)
  const startAt = options.startAt ?? 'end'
  if (startAt !== 'end' && startAt !== 'beginning')
    problems.push(`startAt: must be 'end' or 'beginning', got ${JSON.stringify(startAt)}`)
  if (
    options.checkpointPath !== undefined &&
    (typeof options.checkpointPath !== 'string' || options.checkpointPath === '')
  ) {
    problems.push('checkpointPath: must be a non-empty string')
  }
  const integer = (name: keyof TailerOptions, fallback: number, min: number): number => {
    const value = options[name] ?? fallback
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
      problems.push(`${name}: must be an integer >= ${min}`)
    return value as number
  }
  const normalized: NormalizedTailerOptions = {
    paths: paths ?? [],
    exclude: Array.isArray(exclude) ? exclude : [],
    startAt,
    followSymlinks,
    checkpointPath: options.checkpointPath,
    maxLineBytes: integer('maxLineBytes', 256 * 1024, 1),
    readChunkBytes: integer('readChunkBytes', 256 * 1024, 1),
    syncReads: options.syncReads ?? false,
    pollIntervalMs: integer('pollIntervalMs', 1000, 1),
    maxBufferedBatches: integer('maxBufferedBatches', 16, 1),
    reuseBuffers: options.reuseBuffers ?? false,
    checkpointDelayMs: integer('checkpointDelayMs', 0, 0),
    cwd: options.cwd ?? process.cwd(),
    onWarning: options.onWarning ?? (() => undefined),
    beforeCheckpointWrite: options.beforeCheckpointWrite,
  }
  if (typeof normalized.reuseBuffers !== 'boolean') problems.push('reuseBuffers: must be a boolean')
  if (typeof normalized.syncReads !== 'boolean') problems.push('syncReads: must be a boolean')
  if (typeof normalized.cwd !== 'string') problems.push('cwd: must be a string')
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function')
    problems.push('onWarning: must be a function')
  if (options.beforeCheckpointWrite !== undefined && typeof options.beforeCheckpointWrite !== 'function')
    problems.push('beforeCheckpointWrite: must be a function')
  if (problems.length > 0) {
    const path = problems[0]?.split(':')[0]
    throw new TailError(
      TailErrorCodes.INVALID_OPTION,
      `invalid tailer options:\n  ${problems.join('\n  ')}`,
      path === undefined ? {} : { path },
    )
  }
  return normalized
}

const LINK_MODES: readonly string[] = ['inside', 'outside', 'never']

function normalizeFollowSymlinks(value: unknown, cwd: string, problems: string[]): FollowSymlinks {
  if (value === undefined) return 'inside'
  if (typeof value === 'string' && LINK_MODES.includes(value)) return value as FollowSymlinks
  if (!Array.isArray(value)) {
    problems.push("followSymlinks: must be 'inside', 'outside', 'never' or a list of directories")
    return 'inside'
  }
  const roots: string[] = []
  value.forEach((root: unknown, index) => {
    if (typeof root !== 'string' || root === '' || root.includes('\0'))
      problems.push(`followSymlinks[${index}]: must be a directory path`)
    else roots.push(isAbsolute(root) ? resolve(root) : resolve(cwd, root))
  })
  return roots
}
