// A `type: journald` source: journalctl follows the journal, each entry becomes an alert line for
// the pipeline, and the cursor of the last one handled is checkpointed, batched, only after what
// the pipeline queued is durable (beforeCheckpointWrite), exactly like a file source's offsets: a
// crash reads again what came after the checkpoint (at-least-once), never skips an entry.
//
// Where reading starts: the saved cursor; else (start_at: beginning) every stored entry the
// filters match; else (start_at: end) after the last matching entry stored now, found by a
// one-shot journalctl and saved at once, so entries written while the agent is down later are
// still read. journalctl exiting is logged and it is started again from the last cursor handled
// (restart-policy.ts says when, and when the source counts as failing on /health).
//
// It has the shape of agent/daemon/source-reader.ts's SourceReader (which the daemon checks where
// it starts it); its types are restated here so nothing points back up into the daemon.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AlertLine } from '../../alerts'
import type { JournaldSourceConfig, SourceConfig } from '../config/types'
import type { SourceReader } from '../daemon/source-reader'
import type { LineBatch } from '../tail'
import { readCursor, writeCursor } from './cursor-store'
import { entryToAlertLine, parseEntryLine } from './entry'
import { JournaldError, JournaldErrorCodes } from './errors'
import { followArgs, lastEntryArgs, type JournalPosition } from './journalctl-args'
import { runJournalctl, type JournalctlExit, type JournalctlRun } from './journalctl-process'
import { FAILING_AFTER, nextRestart, STABLE_MS } from './restart-policy'

export interface JournaldLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export interface JournaldReaderOptions {
  /** A source of `type: journald` (its `journald` set). */
  source: SourceConfig
  stateDir: string
  pipeline: () => { ingest(line: AlertLine, now: number): void }
  log: JournaldLog
  now?: () => number
  tap?: { write(source: string, batch: LineBatch): void } | undefined
  /** Makes what the pipeline queued durable; runs before a cursor is written. */
  beforeCheckpointWrite?: () => void
  /** The journalctl command; default `journalctl` on PATH. */
  journalctl?: string
}

/**
 * A journald source is read as the agent reads a file source (the daemon's SourceReader): its
 * `files()` is [] (a journal is not tailed by offset), its `parseErrors` the lines of journalctl's
 * output that were not entries, and its `failure` set while journalctl keeps failing.
 */
export type JournaldReader = SourceReader

// Entries handled meanwhile share one checkpoint write (an fsync of the outbox and of the cursor).
const CHECKPOINT_DELAY_MS = 100

function describeExit(exit: JournalctlExit): string {
  const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`
  return exit.stderr === '' ? how : `${how}: ${exit.stderr.split('\n').slice(-3).join(' / ')}`
}

/** Runs `journalctl --version`; throws JOURNALCTL_MISSING naming the source when it cannot start. */
async function probe(command: string, source: string): Promise<void> {
  const exit = await runJournalctl(command, ['--version'], () => {}).exited
  if (exit.spawnError === undefined) return
  throw new JournaldError(
    JournaldErrorCodes.JOURNALCTL_MISSING,
    `sources ${source}: cannot run ${command} (${exit.spawnError.code ?? exit.spawnError.message}); a journald source reads the journal through journalctl: install systemd (Debian: apt-get install systemd)`,
    { cause: exit.spawnError },
  )
}

export async function startJournaldReader(options: JournaldReaderOptions): Promise<JournaldReader> {
  const { source, log } = options
  if (source.journald === undefined) throw new Error(`sources ${source.name}: not a journald source`)
  const filters: JournaldSourceConfig = source.journald
  const now = options.now ?? Date.now
  const command = options.journalctl ?? 'journalctl'
  const checkpoints = join(options.stateDir, 'checkpoints')
  mkdirSync(checkpoints, { recursive: true })
  const cursorFile = join(checkpoints, `${source.name}.cursor`)
  // A bad checkpoint or a missing journalctl stops the start, said with the source's name.
  let saved: JournalPosition | undefined
  try {
    saved = readCursor(cursorFile)
  } catch (err) {
    if (err instanceof JournaldError) err.message = `sources ${source.name}: ${err.message}`
    throw err
  }
  await probe(command, source.name)

  /** After the last entry handled; undefined until placed (start_at: end, no checkpoint). */
  let position: JournalPosition | undefined =
    saved ?? (source.startAt === 'beginning' ? { kind: 'beginning' } : undefined)
  let written: JournalPosition | undefined = saved
  let checkpointAt = now()
  let checkpointTimer: NodeJS.Timeout | undefined
  let child: JournalctlRun | undefined
  let closing = false
  let wake: (() => void) | undefined
  /** A line could not be handled: reading stopped for good (the offsets would claim it handled). */
  let stopped: string | undefined
  /** journalctl keeps failing; cleared by a healthy run. */
  let restarting: string | undefined
  let parseErrors = 0
  let linesRead = 0
  let bytesRead = 0
  let truncatedLines = 0
  let checkpointWrites = 0
  let runEntries = 0

  function writeCheckpoint(): void {
    checkpointTimer = undefined
    if (position === undefined || (written !== undefined && JSON.stringify(written) === JSON.stringify(position)))
      return
    const at = position
    try {
      options.beforeCheckpointWrite?.()
      writeCursor(cursorFile, at)
    } catch (err) {
      const code = (err as { code?: unknown }).code
      if (!closing)
        log.error({ err, source: source.name, code }, `cursor checkpoint not written: ${(err as Error).message}`)
      return
    }
    written = at
    checkpointAt = now()
    checkpointWrites++
  }

  function scheduleCheckpoint(): void {
    checkpointTimer ??= setTimeout(writeCheckpoint, CHECKPOINT_DELAY_MS)
  }

  function handle(batch: LineBatch): void {
    if (stopped !== undefined) return
    options.tap?.write(source.name, batch)
    const pipeline = options.pipeline()
    const at = now()
    let notEntries = 0
    for (const line of batch.lines) {
      linesRead++
      bytesRead += line.data.length + 1
      if (line.truncated) {
        truncatedLines++
        log.warn(
          { source: source.name, code: JournaldErrorCodes.ENTRY, keptBytes: line.data.length },
          'a journal entry too long to read was skipped',
        )
        continue
      }
      const entry = parseEntryLine(line.data.toString('utf8'))
      if (entry === undefined) {
        parseErrors++
        notEntries++
        continue
      }
      try {
        pipeline.ingest(entryToAlertLine(entry, source.name), at)
      } catch (err) {
        // A failing state write must stop the checkpoints: they would claim entries not handled.
        stopped = `could not handle an entry: ${(err as Error).message}`
        log.error({ err, source: source.name }, `${stopped}; this source stops reading (restart the agent once fixed)`)
        child?.kill()
        wake?.()
        return
      }
      runEntries++
      if (entry.cursor !== undefined) position = { kind: 'cursor', cursor: entry.cursor }
    }
    if (notEntries > 0)
      log.warn(
        { source: source.name, code: JournaldErrorCodes.ENTRY, lines: notEntries },
        `${notEntries} line(s) of journalctl's output are not journal entries: skipped`,
      )
    if (runEntries > 0) restarting = undefined
    scheduleCheckpoint()
  }

  /** start_at: end without a checkpoint: after the last matching entry stored now, or from the first one to come. */
  async function place(): Promise<JournalctlExit | undefined> {
    let last: JournalPosition = { kind: 'beginning' }
    child = runJournalctl(command, lastEntryArgs(filters), (batch) => {
      for (const line of batch.lines) {
        const cursor = parseEntryLine(line.data.toString('utf8'))?.cursor
        if (cursor !== undefined) last = { kind: 'cursor', cursor }
      }
    })
    const exit = await child.exited
    child = undefined
    if (closing || exit.code !== 0) return exit
    position = last
    // Nothing was ingested: the cursor needs no outbox sync, and it is saved at once.
    try {
      writeCursor(cursorFile, last)
      written = last
      checkpointWrites++
    } catch (err) {
      log.error(
        { err, source: source.name, code: (err as { code?: unknown }).code },
        `cursor checkpoint not written: ${(err as Error).message}`,
      )
    }
    return undefined
  }

  async function follow(from: JournalPosition): Promise<JournalctlExit> {
    runEntries = 0
    child = runJournalctl(command, followArgs(filters, from), handle)
    // A run that lasts is healthy even when no entry matches for hours.
    const steady = setTimeout(() => (restarting = undefined), STABLE_MS)
    const exit = await child.exited
    clearTimeout(steady)
    child = undefined
    return exit
  }

  // Placed before the start resolves: an entry written once the agent said it started is new.
  let firstExit: JournalctlExit | undefined = position === undefined ? await place() : undefined
  const loop = (async () => {
    let failures = 0
    while (!closing && stopped === undefined) {
      const startedAt = now()
      let exit = firstExit
      firstExit = undefined
      if (exit === undefined) exit = position === undefined ? await place() : await follow(position)
      if (exit === undefined) continue
      if (closing || stopped !== undefined) break
      const decision = nextRestart(failures, { entries: runEntries, ranMs: now() - startedAt })
      failures = decision.failures
      const what = position === undefined ? 'finding the end of the journal' : 'following the journal'
      const message = `journalctl exited (${describeExit(exit)}) while ${what}: started again in ${decision.delayMs / 1000}s from the last entry read`
      log.warn({ source: source.name, code: JournaldErrorCodes.JOURNALCTL_EXIT, failures }, message)
      if (decision.failing)
        restarting = `journalctl failed ${failures} times in a row (at least ${FAILING_AFTER}); last: ${describeExit(exit)}`
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, decision.delayMs)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = undefined
    }
  })().catch((err: unknown) => {
    stopped = `reading failed: ${(err as Error).message}`
    log.error({ err, source: source.name }, stopped)
  })

  return {
    name: source.name,
    stats: () => ({
      files: child === undefined ? 0 : 1,
      linesRead,
      bytesRead,
      truncatedLines,
      rotations: 0,
      truncations: 0,
      copiesFollowed: 0,
      released: 0,
      ticks: 0,
      checkpointWrites,
    }),
    files: () => [],
    get parseErrors() {
      return parseErrors
    },
    get checkpointAt() {
      return checkpointAt
    },
    get failure() {
      return stopped ?? restarting
    },
    async close() {
      closing = true
      child?.kill()
      wake?.()
      await loop
      if (checkpointTimer !== undefined) clearTimeout(checkpointTimer)
      // What was handled is committed: the last cursor, after the outbox.
      writeCheckpoint()
    },
  }
}
