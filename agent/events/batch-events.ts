// A file batch cut into events, on the fast path: the byte pre-filter has picked the candidate lines
// (those that may carry a level some rule takes); every line still goes through the rule, which
// reads a few of its bytes, but only a candidate that starts an event opens one, and only an open
// event's lines are decoded. A candidate that continues an event is dropped: the event's first line
// decides its level. An event still open at the end of the batch stays in the stream, and the batch
// may be committed only up to its first line.
import { batchLine, type LineBatch, type TailLine } from '../tail'
import { eventOf, startsEvent, type EventStream, type PendingEvent } from './event-stream'
import { CONTINUES, type LineRule } from './line-step'

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
  // Where the open event began in this batch; 0 while the one from an earlier batch is open.
  let openAt = 0
  let next = 0
  let nextOffset = candidates.length === 0 ? -1 : (candidates[0] as TailLine).offset

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
  for (let i = 0; i < first; i++) {
    const line = batchLine(batch, i)
    const candidate = line.offset === nextOffset
    if (startsEvent(stream, rule.step(stream.mode, line.data, 0, line.data.length), maxLines))
      start(i, line.data, 0, line.data.length, candidate)
    else stream.open?.rest.push(line.data.toString('utf8'))
    if (candidate) nextOffset = ++next < candidates.length ? (candidates[next] as TailLine).offset : -1
  }
  if (chunk !== undefined) {
    // The hot loop: every line of the read buffer, most of them settled by their first byte.
    const { buffer, ends, bufferOffset, maxLineBytes } = chunk
    let from = chunk.start
    for (let k = 0; k < ends.length; k++) {
      const end = ends[k] as number
      const to = end - from > maxLineBytes ? from + maxLineBytes : end
      const candidate = bufferOffset + end + 1 === nextOffset
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
  }
  stream.lastBatch = batch
  return stream.open === undefined ? batch.lineCount : openAt
}
