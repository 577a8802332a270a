// A file source's events, for the source reader: multi-line events (batch-events.ts) and container
// logs (container-events.ts) over the tailer's batches, the streams they hold open, the commits
// that stop before what is held, and the one timer (per source, unref'd) that ends what a quiet
// file holds. Each ended event goes to `ingest`; a batch is committed as far as its events are.
import { DEFAULT_MULTILINE_TIMEOUT_MS } from '../config/normalize/multiline'
import type { LineFormat, MultilineConfig } from '../config/types'
import type { LineBatch, TailLine } from '../tail'
import { assembleBatch } from './batch-events'
import { assembleContainerBatch } from './container-events'
import { createContainerDecoder } from './container-lines'
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
  /** Raw lines of a container log in neither format. */
  onMalformed(count: number, batch: LineBatch): void
}

export interface SourceEvents {
  /** A batch of a plain file with its candidates (multi-line): false once an event could not be handled. */
  lines(batch: LineBatch, candidates: readonly TailLine[], at: number): boolean
  /** A batch of a container log: every line decoded. */
  container(batch: LineBatch, at: number): boolean
  /** Stops the timer; what is held is not committed, so it is read again after a restart. */
  close(): void
}

export function isContainerFormat(format: LineFormat): format is 'docker' | 'cri' {
  return format === 'docker' || format === 'cri'
}

export function createSourceEvents(options: SourceEventsOptions): SourceEvents {
  const { tailer, multiline, format } = options
  const rule: LineRule | undefined = multiline === undefined ? undefined : compileLineRule(multiline)
  const maxLines = multiline?.maxLines ?? Number.POSITIVE_INFINITY
  const timeoutMs = multiline?.timeoutMs ?? DEFAULT_MULTILINE_TIMEOUT_MS
  const streams = createEventStreams(timeoutMs)
  let timer: NodeJS.Timeout | undefined
  let failed = false
  let closed = false

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
    const deadline = streams.nextDeadline()
    if (deadline === undefined) return
    timer = setTimeout(onTimer, Math.max(0, deadline - options.now()))
    timer.unref()
  }

  function onTimer(): void {
    timer = undefined
    if (closed) return
    const at = options.now()
    for (const stream of streams.takeQuiet(at)) end(stream, at)
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

  return {
    lines(batch, candidates, at) {
      const stream = streamOf(batch, at)
      const commit = assembleBatch(stream, batch, candidates, rule as LineRule, maxLines, emitter(batch, at))
      return settle(batch, commit)
    },
    container(batch, at) {
      const stream = streamOf(batch, at)
      const result = assembleContainerBatch(stream, batch, rule, maxLines, emitter(batch, at))
      if (result.malformed > 0) options.onMalformed(result.malformed, batch)
      return settle(batch, result.commit)
    },
    close() {
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      streams.takeAll()
    },
  }
}
