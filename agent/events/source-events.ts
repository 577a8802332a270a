// A file source's events, for the source reader: multi-line events (batch-events.ts) and container
// logs (container-events.ts) over the tailer's batches, the streams they hold open, the commits
// that stop before what is held, and the one timer (per source, unref'd) that ends what a quiet
// file holds. Each ended event goes to `ingest`; a batch is committed as far as its events are. A
// big batch is read a slice at a time (event-slices.ts): `lines` and `container` then give back a
// rest, whose next slice `rest` reads once the event loop has turned.
import { DEFAULT_MULTILINE_TIMEOUT_MS } from '../config/normalize/multiline'
import type { LineFormat, MultilineConfig } from '../config/types'
import type { LineBatch, TailLine } from '../tail'
import { assembleLines, linesCommit, linesCursor } from './batch-events'
import { assembleContainerLines, containerCommit, containerCursor } from './container-events'
import { createContainerDecoder } from './container-lines'
import { eventSliceEnd } from './event-slices'
import { endStream, type EventStream, type PendingEvent } from './event-stream'
import { createEventStreams } from './event-streams'
import { compileLineRule } from './line-rule'
import type { LineRule } from './line-step'

/** What the source events need of the tailer. */
export interface EventTailer {
  commit(batch: LineBatch, lineCount?: number): void
  release(batch: LineBatch): void
  streamOf(batch: LineBatch): string | undefined
}

export interface SourceEventsOptions {
  format: LineFormat
  multiline: MultilineConfig | undefined
  maxLineBytes: number
  tailer: EventTailer
  now: () => number
  /**
   * One ended event, read `at` (from `batch`, the last batch of its stream); false when it could not be handled
   * (nothing more is done).
   */
  ingest(event: PendingEvent, batch: LineBatch | undefined, at: number): boolean
  /** Raw lines of a container log in neither format (once a batch, at its end). */
  onMalformed(count: number, batch: LineBatch): void
  /** Candidates (a container log: raw lines) a slice holds (event-slices.ts rules 1 and 2); default: a whole batch. */
  sliceLines?: number
}

/** A batch read in part: `rest` reads its next slice. */
export interface EventsRest {
  readonly kind: 'events'
  readonly batch: LineBatch
}

/** True: the batch went through; false: an event could not be handled (nothing more is done); else, more slices. */
export type EventsHandled = boolean | EventsRest

export interface SourceEvents {
  /** A batch of a plain file with its candidates (multi-line). */
  lines(batch: LineBatch, candidates: readonly TailLine[], at: number): EventsHandled
  /** A batch of a container log: every line decoded. */
  container(batch: LineBatch, at: number): EventsHandled
  /** The next slice of a batch that `lines`, `container` or `rest` gave back `rest` for, read `at`. */
  rest(rest: EventsRest, at: number): EventsHandled
  /** Stops the timer; what is held is not committed, so it is read again after a restart. */
  close(): void
}

export function isContainerFormat(format: LineFormat): format is 'docker' | 'cri' {
  return format === 'docker' || format === 'cri'
}

/** A batch being read, slice after slice. */
interface Assembly extends EventsRest {
  readonly stream: EventStream
  /** Reads the next slice (event-slices.ts rules 1 to 3); true once the batch is read to its end. */
  slice(emit: (event: PendingEvent) => void): boolean
  /** Event-slices.ts rule 4: how many of the batch's lines may be committed now. */
  commit(): number
  /** Raw lines read in neither container format. */
  malformed(): number
}

/** Where events and slices end: an event's most lines, a slice's most candidates (or raw lines). */
interface Cut {
  maxLines: number
  sliceLines: number
}

function linesAssembly(
  stream: EventStream,
  batch: LineBatch,
  candidates: readonly TailLine[],
  rule: LineRule,
  cut: Cut,
): Assembly {
  const cursor = linesCursor()
  return {
    kind: 'events',
    batch,
    stream,
    slice(emit) {
      const stop = eventSliceEnd(cursor.next, candidates.length, cut.sliceLines)
      assembleLines(stream, batch, candidates, rule, cut.maxLines, emit, cursor, stop)
      return cursor.line >= batch.lineCount
    },
    commit: () => linesCommit(stream, cursor),
    malformed: () => 0,
  }
}

function containerAssembly(stream: EventStream, batch: LineBatch, rule: LineRule | undefined, cut: Cut): Assembly {
  const cursor = containerCursor(stream)
  return {
    kind: 'events',
    batch,
    stream,
    slice(emit) {
      const stop = eventSliceEnd(cursor.line, batch.lineCount, cut.sliceLines)
      assembleContainerLines(stream, batch, rule, cut.maxLines, emit, cursor, stop)
      return cursor.line >= batch.lineCount
    },
    commit: () => containerCommit(stream, cursor),
    malformed: () => cursor.malformed,
  }
}

export function createSourceEvents(options: SourceEventsOptions): SourceEvents {
  const { tailer, multiline, format } = options
  const rule: LineRule | undefined = multiline === undefined ? undefined : compileLineRule(multiline)
  const maxLines = multiline?.maxLines ?? Number.POSITIVE_INFINITY
  const cut: Cut = { maxLines, sliceLines: options.sliceLines ?? Number.POSITIVE_INFINITY }
  const timeoutMs = multiline?.timeoutMs ?? DEFAULT_MULTILINE_TIMEOUT_MS
  const streams = createEventStreams(timeoutMs)
  let timer: NodeJS.Timeout | undefined
  let failed = false
  let closed = false
  // The stream whose batch is handed over in slices: the timer leaves it alone (event-slices.ts rule 5).
  let busy: EventStream | undefined

  /** Ends what a stream holds and commits every line read from it. */
  function end(stream: EventStream, at: number): void {
    for (const event of endStream(stream)) {
      if (!failed && !options.ingest(event, stream.lastBatch, at)) failed = true
    }
    if (!failed && stream.lastBatch !== undefined) tailer.commit(stream.lastBatch)
  }

  function streamOf(batch: LineBatch, at: number): EventStream {
    const key = options.tailer.streamOf(batch) ?? `${batch.followId}:${batch.generation}`
    const stream = streams.streamOf(key, batch.followId, batch.generation, batch.path, (ended) => end(ended, at))
    if (stream.decoder === undefined && isContainerFormat(format))
      stream.decoder = createContainerDecoder(format, batch.path, options.maxLineBytes)
    stream.lastAt = at
    return stream
  }

  function arm(): void {
    if (timer !== undefined || closed || failed) return
    const deadline = streams.nextDeadline(busy)
    if (deadline === undefined) return
    timer = setTimeout(onTimer, Math.max(0, deadline - options.now()))
    timer.unref()
  }

  function onTimer(): void {
    timer = undefined
    if (closed) return
    const at = options.now()
    for (const stream of streams.takeQuiet(at, busy)) end(stream, at)
    arm()
  }

  /** Emits each ended event; false once one failed. */
  function emitter(batch: LineBatch, at: number): (event: PendingEvent) => void {
    return (event) => {
      if (!failed && !options.ingest(event, batch, at)) failed = true
    }
  }

  function settle(batch: LineBatch, commit: number): boolean {
    if (failed) return false
    if (commit > 0) tailer.commit(batch, commit)
    // What the stream still needs of the batch is copied: its read buffer may be read into again.
    tailer.release(batch)
    arm()
    return true
  }

  /**
   * The next slice of a batch, read `at` (event-slices.ts rule 6); its commit (rule 4) and, once the batch
   * is read to its end, its release.
   */
  function run(assembly: Assembly, at: number): EventsHandled {
    const { stream, batch } = assembly
    busy = stream
    stream.lastAt = at
    const done = assembly.slice(emitter(batch, at))
    if (done || failed) busy = undefined
    if (failed) return false
    if (!done) {
      const commit = assembly.commit()
      if (commit > 0) tailer.commit(batch, commit)
      return assembly
    }
    if (assembly.malformed() > 0) options.onMalformed(assembly.malformed(), batch)
    return settle(batch, assembly.commit())
  }

  return {
    lines: (batch, candidates, at) =>
      run(linesAssembly(streamOf(batch, at), batch, candidates, rule as LineRule, cut), at),
    container: (batch, at) => run(containerAssembly(streamOf(batch, at), batch, rule, cut), at),
    rest: (rest, at) => run(rest as Assembly, at),
    close() {
      closed = true
      busy = undefined
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      streams.takeAll()
    },
  }
}
