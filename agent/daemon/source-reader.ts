// One source of the config: a tailer over its globs, the byte pre-filter, the alert pipeline, and
// the commit. A batch is committed only after every line of it has been through the pipeline, whose
// notifications (and pending incidents) are journaled synchronously: a crash re-reads uncommitted
// lines (at-least-once), never skips one. With `multiline` or a container format, lines are events
// first (agent/events/): a batch is committed only up to what is still held (an event a later line
// may continue, a part of a split line), so a crash inside an event re-reads it whole. A batch of
// single lines with more candidates than a slice goes over a slice at a time, each committed
// through its last line, the event loop turning between them (batch-slices.ts); a batch of events
// goes the same way, each slice committed through what its events let go (events/event-slices.ts).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AlertLine } from '../../alerts'
import type { SourceConfig } from '../config/types'
import { createLineBatch, createTailer, type LineBatch, type Tailer, type TailLine } from '../tail'
import { lineEndOffset } from '../tail/batch'
import { compileGlob } from '../tail/glob'
import { toAlertLine } from '../events/alert-line'
import { eventAlertLine } from '../events/event-line'
import type { PendingEvent } from '../events/event-stream'
import { createSourceEvents, isContainerFormat, type EventsRest, type SourceEvents } from '../events/source-events'
import { createCandidateFilter, type CandidateFilter } from '../prefilter/candidate-filter'
import type { AlertPipeline } from '../delivery/types'
import type { SourceReader } from '../events/types'
import { linesThrough, SLICE_LINES, sliceEnd, turnOfTheLoop } from './batch-slices'
import { DaemonError, DaemonErrorCodes } from './errors'
import type { AgentLogger } from './logger'
import type { Tap } from './tap'

export interface SourceReaderOptions {
  source: SourceConfig
  stateDir: string
  pipeline: () => AlertPipeline
  log: AgentLogger
  now?: () => number
  /** Pass-everything mode: every line read, before the filter and before the commit. */
  tap?: Tap | undefined
  /** Makes what the pipeline queued durable; runs before a checkpoint write takes its offsets. */
  beforeCheckpointWrite?: () => void | Promise<void>
  /**
   * Reading starts at once, and lines are handled once this resolves: the agent starts its readers
   * first and builds the alert path (sandbox, outbox, incident state) while the first reads come in.
   */
  ready?: Promise<void>
}

const OPEN_BRACE = 0x7b
// Every batch is committed as soon as its lines are handled, so its read buffer goes back to the
// tailer (reuseBuffers) at once. Each checkpoint write is a temp file, two fsyncs and a rename:
// the tailer writes at most this long after a commit, and commits made meanwhile share the write,
// which only widens the window of lines read again after a crash.
const CHECKPOINT_DELAY_MS = 100

/** An event as the tap writes it: one record, its lines joined by '\n', at its first line's offset. */
function tapBatch(from: LineBatch, event: PendingEvent, text: string): LineBatch {
  const line = {
    data: Buffer.from(text),
    offset: event.line?.offset ?? from.offset,
    truncated: event.line?.truncated ?? false,
  }
  return createLineBatch(from, line)
}

/** What a reader counts and says of itself; the batch handler and the read loop write it. */
interface ReaderState {
  parseErrors: number
  checkpointAt: number
  closing: boolean
  failure: string | undefined
}

/** The tailer over the source's globs, their base directories made first, checkpoints under the state dir. */
async function openTailer(options: SourceReaderOptions): Promise<Tailer> {
  const { source, log } = options
  // The tailer watches each glob's base directory, which must exist: a fresh clone has no ./logs yet.
  for (const pattern of source.paths) {
    const { base } = compileGlob(pattern)
    try {
      mkdirSync(base, { recursive: true })
    } catch (err) {
      throw new DaemonError(
        DaemonErrorCodes.SOURCE,
        `sources ${source.name}: cannot create ${base}: ${(err as Error).message}`,
        { cause: err },
      )
    }
  }
  const checkpoints = join(options.stateDir, 'checkpoints')
  mkdirSync(checkpoints, { recursive: true })
  try {
    return await createTailer({
      paths: source.paths,
      exclude: source.exclude,
      followSymlinks: source.followSymlinks,
      startAt: source.startAt,
      maxLineBytes: source.maxLineBytes,
      syncReads: source.syncReads,
      reuseBuffers: true,
      checkpointDelayMs: CHECKPOINT_DELAY_MS,
      checkpointPath: join(checkpoints, `${source.name}.json`),
      onWarning: (err) => log.warn({ source: source.name, code: err.code }, err.message),
      beforeCheckpointWrite: options.beforeCheckpointWrite,
    })
  } catch (err) {
    throw new DaemonError(DaemonErrorCodes.SOURCE, `sources ${source.name}: ${(err as Error).message}`, { cause: err })
  }
}

/** A line through the pipeline; false when it could not be handled (the source then stops reading). */
function ingestInto(options: SourceReaderOptions, state: ReaderState, line: AlertLine, at: number): boolean {
  try {
    options.pipeline().ingest(line, at)
    return true
  } catch (err) {
    // A failing state write must stop the commit: the offsets would claim lines not handled.
    state.failure = `could not handle a line: ${(err as Error).message}`
    options.log.error(
      { err, source: options.source.name },
      `${state.failure}; this source stops reading (restart the agent once fixed)`,
    )
    return false
  }
}

/**
 * Multi-line events and container logs: events held across batches, commits that stop before them;
 * undefined for a source of single lines.
 */
function sourceEventsOf(
  options: SourceReaderOptions,
  state: ReaderState,
  tailer: Tailer,
  commit: (batch: LineBatch, lineCount?: number) => void,
  now: () => number,
): SourceEvents | undefined {
  const { source, log } = options
  if (source.multiline === undefined && !isContainerFormat(source.format)) return undefined
  /** One multi-line event or container line through the pipeline; false when it could not be handled. */
  function ingestEvent(event: PendingEvent, batch: LineBatch | undefined, at: number): boolean {
    const parsed = eventAlertLine(event, source.format, source.name)
    const first = event.line
    if (options.tap !== undefined && batch !== undefined)
      options.tap.write(source.name, tapBatch(batch, event, parsed.line.raw))
    if (first?.truncated === true)
      log.warn(
        { source: source.name, path: batch?.path, endOffset: first.offset, keptBytes: Buffer.byteLength(event.first) },
        `line longer than max_line_bytes (${source.maxLineBytes}) cut: its first bytes are read, the rest skipped`,
      )
    if (parsed.parseError && event.first.charCodeAt(0) === OPEN_BRACE) state.parseErrors++
    return ingestInto(options, state, parsed.line, at)
  }
  return createSourceEvents({
    format: source.format,
    multiline: source.multiline,
    maxLineBytes: source.maxLineBytes,
    tailer: { commit, release: (batch) => tailer.release(batch), streamOf: (batch) => tailer.streamOf(batch) },
    now,
    ingest: ingestEvent,
    sliceLines: SLICE_LINES,
    onMalformed: (count, batch) =>
      log.warn(
        { source: source.name, path: batch.path, lines: count },
        `${count} line(s) not in the ${source.format} format: read as plain text`,
      ),
  })
}

/** A batch of single lines handed over in slices (batch-slices.ts): its candidates and where the next slice starts. */
interface LinesRest {
  readonly kind: 'lines'
  readonly candidates: readonly TailLine[]
  readonly next: number
}

/** A batch handed over in slices: of single lines, or of events (which commit their slices themselves). */
type SliceRest = LinesRest | EventsRest

/** True: the batch went through; false: a line could not be handled (the source stops); else, more slices. */
type Handled = boolean | SliceRest

interface BatchHandler {
  (batch: LineBatch): Handled
  /** The next slice of a batch the handler gave back a SliceRest for. */
  rest(batch: LineBatch, rest: SliceRest): Handled
}

/**
 * The candidates of one batch from `from` through the end of their slice, into the pipeline. What was
 * skipped is said where it is (file, and the offset just past the line): one line per cut line, one
 * per slice for lines that are not the JSON they look like.
 */
function ingestSlice(
  options: SourceReaderOptions,
  state: ReaderState,
  batch: LineBatch,
  candidates: readonly TailLine[],
  from: number,
): Handled {
  const { source, log } = options
  const debug = log.isLevelEnabled('debug')
  const at = (options.now ?? Date.now)()
  const end = sliceEnd(from, candidates.length)
  let notParsed = 0
  let firstNotParsed = 0
  for (let i = from; i < end; i++) {
    const tailLine = candidates[i] as TailLine
    const data = tailLine.data
    const parsed = toAlertLine(data.toString('utf8'), source.format, source.name)
    if (debug)
      log.debug(
        { source: source.name, path: batch.path, offset: tailLine.offset, generation: batch.generation },
        'candidate line',
      )
    if (tailLine.truncated)
      log.warn(
        { source: source.name, path: batch.path, endOffset: tailLine.offset, keptBytes: data.length },
        `line longer than max_line_bytes (${source.maxLineBytes}) cut: ` +
          `its first ${data.length} bytes are read, the rest skipped`,
      )
    if (parsed.parseError && data[0] === OPEN_BRACE) {
      state.parseErrors++
      if (notParsed++ === 0) firstNotParsed = tailLine.offset
    }
    if (!ingestInto(options, state, parsed.line, at)) return false
  }
  if (notParsed > 0)
    log.warn(
      { source: source.name, path: batch.path, lines: notParsed, firstEndOffset: firstNotParsed },
      `${notParsed} line(s) starting with "{" are not valid JSON: read as plain text`,
    )
  return end < candidates.length ? { kind: 'lines', candidates, next: end } : true
}

/**
 * The batch handler: the lines of one batch through the filter and the pipeline, a big batch a
 * slice at a time (batch-slices.ts). Synchronous and apart from the read loop: V8 optimizes this
 * small function, not a much larger async one, whose compilation on a fresh agent costs more than
 * it saves.
 */
function batchHandler(
  options: SourceReaderOptions,
  state: ReaderState,
  events: SourceEvents | undefined,
  now: () => number,
): BatchHandler {
  const { source } = options
  let filter: CandidateFilter | undefined
  let filterLevel = NaN
  function handle(batch: LineBatch): Handled {
    const pipeline = options.pipeline()
    const lowest = pipeline.lowestLevel(source.name)
    if (lowest !== filterLevel) {
      filter = createCandidateFilter(lowest)
      filterLevel = lowest
    }
    const at = now()
    // Ratio rules divide by every line read, so the count is taken before the filter drops any.
    pipeline.countLines(source.name, batch.lineCount, at)
    if (events !== undefined) {
      // The tap gets events, as they end (ingestEvent), and with it on, every line may start one.
      if (isContainerFormat(source.format)) return events.container(batch, at)
      if (options.tap !== undefined) return events.lines(batch, batch.lines, at)
    }
    options.tap?.write(source.name, batch)
    // Most lines are below every rule: the filter drops them on a search of the read buffer,
    // never looking at them one by one.
    const { candidates, notJson } = (filter as CandidateFilter)(batch)
    if (source.format === 'json') state.parseErrors += notJson
    if (events !== undefined) return events.lines(batch, candidates, at)
    return ingestSlice(options, state, batch, candidates, 0)
  }
  handle.rest = (batch: LineBatch, rest: SliceRest): Handled =>
    rest.kind === 'lines'
      ? ingestSlice(options, state, batch, rest.candidates, rest.next)
      : (events as SourceEvents).rest(rest, now())
  return handle
}

/**
 * Rule 3 of batch-slices.ts: the batch's lines through the last candidate handed over; undefined for
 * events, whose slices are committed as they are read (event-slices.ts rule 4).
 */
function linesHandled(batch: LineBatch, rest: SliceRest): number | undefined {
  if (rest.kind === 'events') return undefined
  const last = rest.candidates[rest.next - 1] as TailLine
  return linesThrough(batch.lineCount, (index) => lineEndOffset(batch, index), last.offset)
}

export async function startSourceReader(options: SourceReaderOptions): Promise<SourceReader> {
  const { source, log } = options
  const now = options.now ?? Date.now
  const tailer = await openTailer(options)
  const state: ReaderState = { parseErrors: 0, checkpointAt: now(), closing: false, failure: undefined }
  function commit(batch: LineBatch, lineCount?: number): void {
    tailer.commit(batch, lineCount).then(
      () => {
        state.checkpointAt = now()
      },
      (err: unknown) => {
        if (!state.closing) log.error({ err, source: source.name }, 'checkpoint write failed')
      },
    )
  }
  const events = sourceEventsOf(options, state, tailer, commit, now)
  const handle = batchHandler(options, state, events, now)
  const loop = (async () => {
    try {
      await options.ready
    } catch {
      // The agent did not start: it says why (a bad Redis password...), not this source.
      return
    }
    for await (const batch of tailer) {
      let handled = handle(batch)
      while (typeof handled === 'object') {
        const lines = linesHandled(batch, handled)
        if (lines !== undefined) commit(batch, lines)
        await turnOfTheLoop()
        if (state.closing) return
        handled = handle.rest(batch, handled)
      }
      if (!handled) return
      // With events, handle() commits each batch as far as its events are ended.
      if (events === undefined) commit(batch)
    }
  })().catch((err: unknown) => {
    state.failure = `reading failed: ${(err as Error).message}`
    log.error({ err, source: source.name }, state.failure)
  })

  return {
    name: source.name,
    stats: () => tailer.stats(),
    files: () => tailer.files(),
    get parseErrors() {
      return state.parseErrors
    },
    get checkpointAt() {
      return state.checkpointAt
    },
    get failure() {
      return state.failure
    },
    async close() {
      // Every handled batch is committed already; close() writes the last checkpoint.
      state.closing = true
      events?.close()
      await tailer.close()
      await loop
    },
  }
}
