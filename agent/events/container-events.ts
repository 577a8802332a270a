// A container log's batch (format docker or cri): no byte pre-filter, since the level sits inside
// the runtime's wrapping. Every raw line goes through the stream's decoder (container-lines.ts);
// each whole logical line it gives is an event of its own or, with a multi-line rule, goes through
// the rule on its text. Commits stop before what is held: a part of a line the runtime split, and
// the open event.
import type { LineBatch } from '../tail'
import { batchLine } from '../tail'
import { eventOf, startsEvent, type EventStream, type PendingEvent } from './event-stream'
import type { LineRule } from './line-step'

export interface ContainerBatchResult {
  /** How many of the batch's lines may be committed. */
  commit: number
  /** Raw lines in neither container format (passed on as text). */
  malformed: number
}

/** `stream.decoder` must be set. `rule` undefined: every logical line is an event. */
export function assembleContainerBatch(
  stream: EventStream,
  batch: LineBatch,
  rule: LineRule | undefined,
  maxLines: number,
  emit: (event: PendingEvent) => void,
): ContainerBatchResult {
  const decoder = stream.decoder
  if (decoder === undefined) throw new Error('assembleContainerBatch: the stream has no container decoder')
  // Where what is held began in this batch (0: in an earlier one), or -1 while nothing is.
  let heldAt = decoder.pending ? 0 : -1
  let openAt = stream.open === undefined ? -1 : 0
  let malformed = 0
  for (let i = 0; i < batch.lineCount; i++) {
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
  let commit = batch.lineCount
  if (stream.open !== undefined) commit = Math.min(commit, openAt)
  if (heldAt !== -1) commit = Math.min(commit, heldAt)
  return { commit, malformed }
}
