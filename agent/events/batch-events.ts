// A file batch cut into events, on the fast path: the byte pre-filter has picked the candidate lines
// (those that may carry a level some rule takes); every line still goes through the rule, which
// reads a few of its bytes, but only a candidate that starts an event opens one, and only an open
// event's lines are decoded. A candidate that continues an event is dropped: the event's first line
// decides its level. An event still open at the end of the batch stays in the stream, and the batch
// may be committed only up to its first line. A big batch is read a slice at a time (event-slices.ts):
// a cursor keeps where the batch's reading stands between slices.
import { batchLine, type LineBatch, type TailLine } from '../tail'
import { linesToCommit } from './event-slices'
import { eventOf, startsEvent, type EventStream, type PendingEvent } from './event-stream'
import { CONTINUES, type LineRule } from './line-step'

/** Where the reading of a batch stands between slices. */
export interface LinesCursor {
  /** The next line of the batch to read. */
  line: number
  /** The next candidate. */
  next: number
  /** Where the open event began in this batch; 0 while the one from an earlier batch is open. */
  openAt: number
}

export const linesCursor = (): LinesCursor => ({ line: 0, next: 0, openAt: 0 })

/** Rule 4 of event-slices.ts: how many of the batch's lines may be committed, as far as it is read. */
export function linesCommit(stream: EventStream, cursor: LinesCursor): number {
  return linesToCommit(cursor.line, stream.open === undefined ? -1 : cursor.openAt, -1)
}

/**
 * Runs the batch's lines through the rule; `emit` gets each event that ends. Returns how many of the
 * batch's lines may be committed: all of them unless an event is still open.
 */
export function assembleBatch(
  stream: EventStream,
  batch: LineBatch,
  candidates: readonly TailLine[],
  rule: LineRule,
  maxLines: number,
  emit: (event: PendingEvent) => void,
): number {
  const cursor = linesCursor()
  assembleLines(stream, batch, candidates, rule, maxLines, emit, cursor, candidates.length)
  return linesCommit(stream, cursor)
}

/**
 * The batch's lines from `cursor.line` on, through the rule, up to the line of candidate `stop` (not
 * read) or the end of the batch when `stop` is the candidate count; the cursor is left where it stopped.
 */
export function assembleLines(
  stream: EventStream,
  batch: LineBatch,
  candidates: readonly TailLine[],
  rule: LineRule,
  maxLines: number,
  emit: (event: PendingEvent) => void,
  cursor: LinesCursor,
  stop: number,
): void {
  let openAt = cursor.openAt
  let next = cursor.next
  let nextOffset = next < candidates.length ? (candidates[next] as TailLine).offset : -1
  let line = cursor.line

  /** A line that starts an event: the open one ends, and a candidate opens the next. */
  const start = (index: number, buf: Buffer, from: number, to: number, candidate: boolean): void => {
    if (stream.open !== undefined) emit(stream.open)
    stream.open = undefined
    if (candidate) {
      stream.open = eventOf(buf.toString('utf8', from, to), candidates[next] as TailLine, undefined, index)
      openAt = index
    }
  }

  const chunk = batch.chunk
  const first = chunk === undefined ? batch.lineCount : chunk.first
  // Lines not in the read buffer (completed across reads, or kept at a file's release): already cut.
  for (; line < first; line++) {
    const tailLine = batchLine(batch, line)
    const candidate = tailLine.offset === nextOffset
    if (candidate && next === stop) break
    const data = tailLine.data
    if (startsEvent(stream, rule.step(stream.mode, data, 0, data.length), maxLines))
      start(line, data, 0, data.length, candidate)
    else stream.open?.rest.push(data.toString('utf8'))
    if (candidate) nextOffset = ++next < candidates.length ? (candidates[next] as TailLine).offset : -1
  }
  if (chunk !== undefined && line >= first) {
    // The hot loop: every line of the read buffer, most of them settled by their first byte.
    const { buffer, ends, bufferOffset, maxLineBytes } = chunk
    let k = line - first
    let from = k === 0 ? chunk.start : (ends[k - 1] as number) + 1
    for (; k < ends.length; k++) {
      const end = ends[k] as number
      const to = end - from > maxLineBytes ? from + maxLineBytes : end
      const candidate = bufferOffset + end + 1 === nextOffset
      if (candidate && next === stop) break
      // startsEvent (event-stream.ts), inlined: no call and no object per line.
      const step = rule.step(stream.mode, buffer, from, to)
      stream.mode = step >>> 1
      if ((step & CONTINUES) !== 0 && stream.count < maxLines) {
        stream.count++
        if (stream.open !== undefined) stream.open.rest.push(buffer.toString('utf8', from, to))
      } else {
        stream.count = 1
        if (stream.open !== undefined || candidate) start(first + k, buffer, from, to, candidate)
      }
      if (candidate) nextOffset = ++next < candidates.length ? (candidates[next] as TailLine).offset : -1
      from = end + 1
    }
    line = first + k
  }
  stream.lastBatch = batch
  cursor.line = line
  cursor.next = next
  cursor.openAt = openAt
}
