// One stream of lines (a file generation, and the copy that continues it after copy-and-truncate)
// cut into events. The stream remembers what a rule needs across batches: its mode, how many lines
// the current event has (max_lines), and the event still open at the end of the last batch, whose
// lines are held as strings (copies: the read buffer is reused once a batch is done with).
import type { LineBatch, TailLine } from '../tail'
import type { ContainerDecoder } from './container-lines'
import { continues, modeOf } from './line-step'

export interface PendingEvent {
  /** The first line: the event's level and message come from it. */
  first: string
  /** The lines that continue it, in order. */
  rest: string[]
  /** The first line as the tailer gave it (where it ends, whether it was cut); undefined for container lines. */
  line: TailLine | undefined
  /** A container line's fields (stream, kubernetes); undefined otherwise. */
  fields: Record<string, unknown> | undefined
  /** Where its first line is in the batch that opened it (for a split container line, where its first part is). */
  index: number
}

export interface EventStream {
  mode: number
  /** Lines of the current event so far; 0 before the stream's first line. */
  count: number
  /** The event some rule may want, not ended yet (a later line may continue it). */
  open: PendingEvent | undefined
  /** The last batch read: once the open event is ended, committing it whole commits every line read. */
  lastBatch: LineBatch | undefined
  /** When the last line was read (epoch ms). */
  lastAt: number
  /** A container log's decoder (its held parts); undefined for other formats. */
  decoder: ContainerDecoder | undefined
  /** The last path its batches had (a renamed file's batches may have none). */
  path: string | undefined
}

export function createEventStream(): EventStream {
  return { mode: 0, count: 0, open: undefined, lastBatch: undefined, lastAt: 0, decoder: undefined, path: undefined }
}

/**
 * A line's step through the stream: true when the line starts an event. A line that continues
 * starts one anyway once the event has `maxLines` lines. A continuation line at the very start of
 * a stream (reading began inside an event) belongs to an event not read: it counts, it is dropped.
 */
export function startsEvent(stream: EventStream, step: number, maxLines: number): boolean {
  stream.mode = modeOf(step)
  if (continues(step) && stream.count < maxLines) {
    stream.count++
    return false
  }
  stream.count = 1
  return true
}

/**
 * Ends what the stream holds (its file is quiet, or its generation ended): the open event, then the
 * lines a container decoder held parts of, as far as they got.
 */
export function endStream(stream: EventStream): PendingEvent[] {
  const ended: PendingEvent[] = []
  if (stream.open !== undefined) ended.push(stream.open)
  stream.open = undefined
  for (const line of stream.decoder?.flush() ?? []) ended.push(eventOf(line.text, undefined, line.fields, 0))
  return ended
}

/** Something is held that a later line may complete: commits stop before it. */
export const holds = (stream: EventStream): boolean => stream.open !== undefined || stream.decoder?.pending === true

export function eventOf(
  first: string,
  line: TailLine | undefined,
  fields: Record<string, unknown> | undefined,
  index: number,
): PendingEvent {
  return { first, rest: [], line, fields, index }
}
