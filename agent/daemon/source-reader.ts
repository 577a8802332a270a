// One source of the config: a tailer over its globs, the byte pre-filter, the alert pipeline, and
// the commit. A batch is committed only after every line of it has been through the pipeline, whose
// notifications (and pending incidents) are journaled synchronously: a crash re-reads uncommitted
// lines (at-least-once), never skips one.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { SourceConfig } from '../config/types'
import { createTailer, type LineBatch, type Tailer, type TailFileStatus, type TailStats } from '../tail'
import { compileGlob } from '../tail/glob'
import { mayBeCandidate } from '../transports/shared/prefilter'
import { toAlertLine } from './alert-line'
import type { AlertPipeline } from './alert-pipeline'
import { DaemonError, DaemonErrorCodes } from './errors'
import type { AgentLogger } from './logger'

export interface SourceReader {
  readonly name: string
  stats(): TailStats
  files(): TailFileStatus[]
  readonly parseErrors: number
  /** When the last commit reached disk (epoch ms), or when reading started. */
  readonly checkpointAt: number
  /** Why this source stopped reading (the agent is then unhealthy), or undefined while it reads. */
  readonly failure: string | undefined
  /** Stops reading; committed offsets are written. */
  close(): Promise<void>
}

export interface SourceReaderOptions {
  source: SourceConfig
  stateDir: string
  pipeline: () => AlertPipeline
  log: AgentLogger
  now?: () => number
}

const OPEN_BRACE = 0x7b
// Each checkpoint write is a temp file, an fsync and a rename: once per batch it would halve the
// read rate. Commits are gathered for this long (the newest batch per file generation stands for
// the ones before it), which only widens the window of lines read again after a crash.
const COMMIT_EVERY_MS = 100

export async function startSourceReader(options: SourceReaderOptions): Promise<SourceReader> {
  const { source, log } = options
  const now = options.now ?? Date.now
  // The tailer watches each glob's base directory, which must exist: a fresh clone has no ./logs yet.
  for (const pattern of source.paths) {
    const { base } = compileGlob(pattern)
    try {
      mkdirSync(base, { recursive: true })
    } catch (err) {
      throw new DaemonError(DaemonErrorCodes.SOURCE, `sources ${source.name}: cannot create ${base}: ${(err as Error).message}`, { cause: err })
    }
  }
  const checkpoints = join(options.stateDir, 'checkpoints')
  mkdirSync(checkpoints, { recursive: true })
  let tailer: Tailer
  try {
    tailer = await createTailer({
      paths: source.paths,
      startAt: source.startAt,
      maxLineBytes: source.maxLineBytes,
      checkpointPath: join(checkpoints, `${source.name}.json`),
      onWarning: (err) => log.warn({ source: source.name, code: err.code }, err.message),
    })
  } catch (err) {
    throw new DaemonError(DaemonErrorCodes.SOURCE, `sources ${source.name}: ${(err as Error).message}`, { cause: err })
  }
  let parseErrors = 0
  let checkpointAt = now()
  let closing = false
  let failure: string | undefined
  const debug = log.isLevelEnabled('debug')

  const uncommitted = new Map<string, LineBatch>()
  let commitTimer: NodeJS.Timeout | undefined
  function commitNow(): void {
    if (commitTimer !== undefined) clearTimeout(commitTimer)
    commitTimer = undefined
    for (const batch of uncommitted.values()) {
      tailer.commit(batch).then(
        () => {
          checkpointAt = now()
        },
        (err: unknown) => {
          if (!closing) log.error({ err, source: source.name }, 'checkpoint write failed')
        },
      )
    }
    uncommitted.clear()
  }
  function commitSoon(batch: LineBatch): void {
    uncommitted.set(`${batch.fileId}/${batch.generation}`, batch)
    commitTimer ??= setTimeout(commitNow, COMMIT_EVERY_MS)
  }

  const loop = (async () => {
    for await (const batch of tailer) {
      const pipeline = options.pipeline()
      const lowest = pipeline.lowestLevel()
      const at = now()
      for (const tailLine of batch.lines) {
        const data = tailLine.data
        if (source.format === 'json' && data[0] !== OPEN_BRACE) parseErrors++
        // Most lines are below every rule: dropped on a few bytes, never decoded.
        if (!mayBeCandidate(data, 0, data.length, lowest)) continue
        const parsed = toAlertLine(data.toString('utf8'), source.format, source.name)
        if (debug) log.debug({ source: source.name, path: batch.path, offset: tailLine.offset, generation: batch.generation }, 'candidate line')
        if (parsed.parseError && data[0] === OPEN_BRACE) parseErrors++
        try {
          pipeline.ingest(parsed.line, at)
        } catch (err) {
          // A failing state write must stop the commit: the offsets would claim lines not handled.
          failure = `could not handle a line: ${(err as Error).message}`
          log.error({ err, source: source.name }, `${failure}; this source stops reading (restart the agent once fixed)`)
          return
        }
      }
      commitSoon(batch)
    }
  })().catch((err: unknown) => {
    failure = `reading failed: ${(err as Error).message}`
    log.error({ err, source: source.name }, failure)
  })

  return {
    name: source.name,
    stats: () => tailer.stats(),
    files: () => tailer.files(),
    get parseErrors() {
      return parseErrors
    },
    get checkpointAt() {
      return checkpointAt
    },
    get failure() {
      return failure
    },
    async close() {
      // What was handled is committed before close() writes the last checkpoint.
      commitNow()
      closing = true
      await tailer.close()
      await loop
    },
  }
}
