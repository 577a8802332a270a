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
// It is a SourceReader (agent/events/types.ts), as a file source is: the daemon hosts both alike.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AlertLine } from '../../alerts'
import type { JournaldSourceConfig, SourceConfig } from '../config/types'
import type { SourceReader } from '../events/types'
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
  pipeline: () => {
    ingest(line: AlertLine, now: number): void
    countLines(source: string | undefined, n: number, now: number): void
  }
  log: JournaldLog
  now?: () => number
  tap?: { write(source: string, batch: LineBatch): void } | undefined
  /** Makes what the pipeline queued durable; runs before a cursor is written. */
  beforeCheckpointWrite?: () => void
  /** The journalctl command; default `journalctl` on PATH. */
  journalctl?: string
}

/**
 * A journald source is read as the agent reads a file source (a SourceReader): its
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
    `sources ${source}: cannot run ${command} (${exit.spawnError.code ?? exit.spawnError.message}); ` +
      'a journald source reads the journal through journalctl: install systemd (Debian: apt-get install systemd)',
    { cause: exit.spawnError },
  )
}

/** A reader's state: where it is, what it counts, its journalctl child and why it stopped. */
interface JournalState {
  /** After the last entry handled; undefined until placed (start_at: end, no checkpoint). */
  position: JournalPosition | undefined
  written: JournalPosition | undefined
  checkpointAt: number
  checkpointTimer: NodeJS.Timeout | undefined
  child: JournalctlRun | undefined
  closing: boolean
  wake: (() => void) | undefined
  /** A line could not be handled: reading stopped for good (the offsets would claim it handled). */
  stopped: string | undefined
  /** journalctl keeps failing; cleared by a healthy run. */
  restarting: string | undefined
  parseErrors: number
  linesRead: number
  bytesRead: number
  truncatedLines: number
  checkpointWrites: number
  /** Entries handled by the journalctl run in progress. */
  runEntries: number
}

/** One reader: its options, what it was given, and its state. */
interface Journal {
  options: JournaldReaderOptions
  name: string
  filters: JournaldSourceConfig
  command: string
  cursorFile: string
  log: JournaldLog
  now: () => number
  state: JournalState
}

function writeCheckpoint(journal: Journal): void {
  const { state, log } = journal
  state.checkpointTimer = undefined
  const at = state.position
  if (at === undefined || (state.written !== undefined && JSON.stringify(state.written) === JSON.stringify(at))) return
  try {
    journal.options.beforeCheckpointWrite?.()
    writeCursor(journal.cursorFile, at)
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (!state.closing)
      log.error({ err, source: journal.name, code }, `cursor checkpoint not written: ${(err as Error).message}`)
    return
  }
  state.written = at
  state.checkpointAt = journal.now()
  state.checkpointWrites++
}

/** The lines of one batch of journalctl's output, each entry through the pipeline. */
function handle(journal: Journal, batch: LineBatch): void {
  const { state, log, name, options } = journal
  if (state.stopped !== undefined) return
  options.tap?.write(name, batch)
  const pipeline = options.pipeline()
  const at = journal.now()
  // Ratio rules divide by every entry read, skipped ones too.
  pipeline.countLines(name, batch.lineCount, at)
  let notEntries = 0
  for (const line of batch.lines) {
    state.linesRead++
    state.bytesRead += line.data.length + 1
    if (line.truncated) {
      state.truncatedLines++
      log.warn(
        { source: name, code: JournaldErrorCodes.ENTRY, keptBytes: line.data.length },
        'a journal entry too long to read was skipped',
      )
      continue
    }
    const entry = parseEntryLine(line.data.toString('utf8'))
    if (entry === undefined) {
      state.parseErrors++
      notEntries++
      continue
    }
    try {
      pipeline.ingest(entryToAlertLine(entry, name), at)
    } catch (err) {
      // A failing state write must stop the checkpoints: they would claim entries not handled.
      state.stopped = `could not handle an entry: ${(err as Error).message}`
      log.error({ err, source: name }, `${state.stopped}; this source stops reading (restart the agent once fixed)`)
      state.child?.kill()
      state.wake?.()
      return
    }
    state.runEntries++
    if (entry.cursor !== undefined) state.position = { kind: 'cursor', cursor: entry.cursor }
  }
  if (notEntries > 0)
    log.warn(
      { source: name, code: JournaldErrorCodes.ENTRY, lines: notEntries },
      `${notEntries} line(s) of journalctl's output are not journal entries: skipped`,
    )
  if (state.runEntries > 0) state.restarting = undefined
  state.checkpointTimer ??= setTimeout(() => writeCheckpoint(journal), CHECKPOINT_DELAY_MS)
}

/** start_at: end without a checkpoint: after the last matching entry stored now, or from the first one to come. */
async function place(journal: Journal): Promise<JournalctlExit | undefined> {
  const { state } = journal
  let last: JournalPosition = { kind: 'beginning' }
  state.child = runJournalctl(journal.command, lastEntryArgs(journal.filters), (batch) => {
    for (const line of batch.lines) {
      const cursor = parseEntryLine(line.data.toString('utf8'))?.cursor
      if (cursor !== undefined) last = { kind: 'cursor', cursor }
    }
  })
  const exit = await state.child.exited
  state.child = undefined
  if (state.closing || exit.code !== 0) return exit
  state.position = last
  // Nothing was ingested: the cursor needs no outbox sync, and it is saved at once.
  try {
    writeCursor(journal.cursorFile, last)
    state.written = last
    state.checkpointWrites++
  } catch (err) {
    journal.log.error(
      { err, source: journal.name, code: (err as { code?: unknown }).code },
      `cursor checkpoint not written: ${(err as Error).message}`,
    )
  }
  return undefined
}

async function follow(journal: Journal, from: JournalPosition): Promise<JournalctlExit> {
  const { state } = journal
  state.runEntries = 0
  state.child = runJournalctl(journal.command, followArgs(journal.filters, from), (batch) => handle(journal, batch))
  // A run that lasts is healthy even when no entry matches for hours.
  const steady = setTimeout(() => (state.restarting = undefined), STABLE_MS)
  const exit = await state.child.exited
  clearTimeout(steady)
  state.child = undefined
  return exit
}

/** Waits `ms`, or until close() or a stopped source wakes it. */
function pause(state: JournalState, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    state.wake = () => {
      clearTimeout(timer)
      resolve()
    }
  })
}

/** journalctl run again and again from the last entry handled, until close() or a stop. */
async function readLoop(journal: Journal, firstExit: JournalctlExit | undefined): Promise<void> {
  const { state, log, now } = journal
  let failures = 0
  let pending = firstExit
  while (!state.closing && state.stopped === undefined) {
    const startedAt = now()
    let exit = pending
    pending = undefined
    if (exit === undefined)
      exit = state.position === undefined ? await place(journal) : await follow(journal, state.position)
    if (exit === undefined) continue
    if (state.closing || state.stopped !== undefined) break
    const decision = nextRestart(failures, { entries: state.runEntries, ranMs: now() - startedAt })
    failures = decision.failures
    const last = describeExit(exit)
    const what = state.position === undefined ? 'finding the end of the journal' : 'following the journal'
    const message =
      `journalctl exited (${last}) while ${what}: ` +
      `started again in ${decision.delayMs / 1000}s from the last entry read`
    log.warn({ source: journal.name, code: JournaldErrorCodes.JOURNALCTL_EXIT, failures }, message)
    if (decision.failing)
      state.restarting = `journalctl failed ${failures} times in a row (at least ${FAILING_AFTER}); last: ${last}`
    await pause(state, decision.delayMs)
    state.wake = undefined
  }
}

function readerOf(journal: Journal, loop: Promise<void>): JournaldReader {
  const { state } = journal
  return {
    name: journal.name,
    stats: () => ({
      files: state.child === undefined ? 0 : 1,
      linesRead: state.linesRead,
      bytesRead: state.bytesRead,
      truncatedLines: state.truncatedLines,
      rotations: 0,
      truncations: 0,
      copiesFollowed: 0,
      released: 0,
      ticks: 0,
      refusedLinks: 0,
      checkpointWrites: state.checkpointWrites,
    }),
    files: () => [],
    get parseErrors() {
      return state.parseErrors
    },
    get checkpointAt() {
      return state.checkpointAt
    },
    get failure() {
      return state.stopped ?? state.restarting
    },
    async close() {
      state.closing = true
      state.child?.kill()
      state.wake?.()
      await loop
      if (state.checkpointTimer !== undefined) clearTimeout(state.checkpointTimer)
      // What was handled is committed: the last cursor, after the outbox.
      writeCheckpoint(journal)
    },
  }
}

export async function startJournaldReader(options: JournaldReaderOptions): Promise<JournaldReader> {
  const { source, log } = options
  if (source.journald === undefined) throw new Error(`sources ${source.name}: not a journald source`)
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
  const state: JournalState = {
    position: saved ?? (source.startAt === 'beginning' ? { kind: 'beginning' } : undefined),
    written: saved,
    checkpointAt: now(),
    checkpointTimer: undefined,
    child: undefined,
    closing: false,
    wake: undefined,
    stopped: undefined,
    restarting: undefined,
    parseErrors: 0,
    linesRead: 0,
    bytesRead: 0,
    truncatedLines: 0,
    checkpointWrites: 0,
    runEntries: 0,
  }
  const journal: Journal = {
    options,
    name: source.name,
    filters: source.journald,
    command,
    cursorFile,
    log,
    now,
    state,
  }
  // Placed before the start resolves: an entry written once the agent said it started is new.
  const firstExit = state.position === undefined ? await place(journal) : undefined
  const loop = readLoop(journal, firstExit).catch((err: unknown) => {
    state.stopped = `reading failed: ${(err as Error).message}`
    log.error({ err, source: source.name }, state.stopped)
  })
  return readerOf(journal, loop)
}
