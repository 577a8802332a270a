// A container log's batch (format docker or cri): no byte pre-filter, since the level sits inside
// the runtime's wrapping. Every raw line goes through the stream's decoder (container-lines.ts);
// each whole logical line it gives is an event of its own or, with a multi-line rule, goes through
// the rule on its text. Commits stop before what is held: a part of a line the runtime split, and
// the open event. A big batch is read a slice at a time (event-slices.ts): a cursor keeps where the
// batch's reading stands between slices.
import type { LineBatch } from '../tail'
import { batchLine } from '../tail'
import { linesToCommit } from './event-slices'
import { eventOf, startsEvent, type EventStream, type PendingEvent } from './event-stream'
import type { LineRule } from './line-step'

export interface ContainerBatchResult {
  /** How many of the batch's lines may be committed. */
  commit: number
  /** Raw lines in neither container format (passed on as text). */
  malformed: number
}

/** Where the reading of a container batch stands between slices. */
export interface ContainerCursor {
  /** The next raw line of the batch to read. */
  line: number
  /** Where what the decoder holds began in this batch (0: in an earlier one), or -1 while nothing is. */
  heldAt: number
  /** Where the open event began in this batch (0: in an earlier one), or -1 while none is. */
  openAt: number
  /** Raw lines read so far in neither format. */
  malformed: number
}

/** The cursor of a batch not read yet; `stream.decoder` must be set. */
export function containerCursor(stream: EventStream): ContainerCursor {
  const decoder = stream.decoder
  if (decoder === undefined) throw new Error('assembleContainerBatch: the stream has no container decoder')
  return { line: 0, heldAt: decoder.pending ? 0 : -1, openAt: stream.open === undefined ? -1 : 0, malformed: 0 }
}

/** Rule 4 of event-slices.ts: how many of the batch's lines may be committed, as far as it is read. */
export function containerCommit(stream: EventStream, cursor: ContainerCursor): number {
  return linesToCommit(cursor.line, stream.open === undefined ? -1 : cursor.openAt, cursor.heldAt)
}

/** `stream.decoder` must be set. `rule` undefined: every logical line is an event. */
export function assembleContainerBatch(
  stream: EventStream,
  batch: LineBatch,
  rule: LineRule | undefined,
  maxLines: number,
  emit: (event: PendingEvent) => void,
): ContainerBatchResult {
  const cursor = containerCursor(stream)
  assembleContainerLines(stream, batch, rule, maxLines, emit, cursor, batch.lineCount)
  return { commit: containerCommit(stream, cursor), malformed: cursor.malformed }
}

/** The batch's raw lines from `cursor.line` up to line `stop` (not read); the cursor is left there. */
export function assembleContainerLines(
  stream: EventStream,
  batch: LineBatch,
  rule: LineRule | undefined,
  maxLines: number,
  emit: (event: PendingEvent) => void,
  cursor: ContainerCursor,
  stop: number,
): void {
  const decoder = stream.decoder
  if (decoder === undefined) throw new Error('assembleContainerBatch: the stream has no container decoder')
  let { heldAt, openAt, malformed } = cursor
  const end = Math.min(stop, batch.lineCount)
  for (let i = cursor.line; i < end; i++) {
    if (heldAt === -1) heldAt = i
    const line = decoder.push(batchLine(batch, i).data)
    // The logical line began where the oldest part held began (or here).
    const began = heldAt
    if (!decoder.pending) heldAt = -1
    if (line === undefined) continue
    if (line.malformed) malformed++
    if (rule === undefined) {
      emit(eventOf(line.text, undefined, line.fields, began))
      continue
    }
    if (startsEvent(stream, rule.stepText(stream.mode, line.text), maxLines)) {
      if (stream.open !== undefined) emit(stream.open)
      stream.open = eventOf(line.text, undefined, line.fields, began)
      openAt = began
    } else if (stream.open !== undefined) {
      stream.open.rest.push(line.text)
    }
  }
  stream.lastBatch = batch
  cursor.line = Math.max(cursor.line, end)
  cursor.heldAt = heldAt
  cursor.openAt = openAt
  cursor.malformed = malformed
}
