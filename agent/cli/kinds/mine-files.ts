// The files of `logx-agent kinds`, mined: each file streamed in 1 MiB reads, cut into lines by the
// tailer's splitter (a line over the source's cap keeps its head), the lines into events by the
// source's multi-line rule (as the running agent assembles them), each event read by the format and
// handed to the miner. Every line is mined, whatever its level. Each event reaches `onEvent` in file
// order with the number of lines it spans, so a caller can answer one line per input line.
import { createReadStream } from 'node:fs'
import type { AlertLine, KindMiner, KindRef } from '../../../alerts/kinds'
import type { LineFormat, MultilineConfig } from '../../config/types'
import { eventLine, textFormat } from '../../events/event-line'
import { createEventStream, startsEvent } from '../../events/event-stream'
import { compileLineRule } from '../../events/line-rule'
import { createStreamLines } from '../../prefilter/stream-lines'
import { batchLine, type LineBatch } from '../../tail'

/** How a file is read: as the config's source whose paths take it would read it, or by --format. */
export interface MineSource {
  name: string | undefined
  format: LineFormat
  multiline: MultilineConfig | undefined
  maxLineBytes: number
}

export interface MinedEvent {
  ref: KindRef
  line: AlertLine
  /** The event's first line's number in its file, from 1. */
  lineNo: number
  /** How many lines of the file the event spans (1 unless multi-line). */
  lines: number
}

const READ_BYTES = 1 << 20

/** Lines of one event not ended yet (a later line may continue it). */
interface OpenEvent {
  first: string
  rest: string[]
  lineNo: number
}

export async function mineFile(
  file: string,
  source: MineSource,
  miner: KindMiner,
  onEvent: (event: MinedEvent) => void,
  /** After each read: a caller that writes may wait here for its output to drain. */
  onRead: (bytes: number) => void | Promise<void>,
): Promise<void> {
  const format = textFormat(source.format)
  const rule = source.multiline === undefined ? undefined : compileLineRule(source.multiline)
  const maxLines = source.multiline?.maxLines ?? Number.POSITIVE_INFINITY
  const stream = createEventStream()
  let open: OpenEvent | undefined
  let lineNo = 0

  const end = (event: OpenEvent): void => {
    const { line } = eventLine(event.first, event.rest, undefined, format, source.name)
    onEvent({ ref: miner.mine(line), line, lineNo: event.lineNo, lines: 1 + event.rest.length })
  }
  const onBatch = (batch: LineBatch): void => {
    for (let i = 0; i < batch.lineCount; i++) {
      const { data } = batchLine(batch, i)
      const text = data.toString('utf8')
      lineNo++
      if (rule === undefined) {
        end({ first: text, rest: [], lineNo })
        continue
      }
      const starts = startsEvent(stream, rule.step(stream.mode, data, 0, data.length), maxLines)
      // A continuation line before any event (the file begins inside one) is an event of its own.
      if (!starts && open !== undefined) open.rest.push(text)
      else {
        if (open !== undefined) end(open)
        open = { first: text, rest: [], lineNo }
      }
    }
  }
  const lines = createStreamLines(source.maxLineBytes)
  for await (const chunk of createReadStream(file, { highWaterMark: READ_BYTES }) as AsyncIterable<Buffer>) {
    lines.push(chunk, onBatch)
    await onRead(chunk.length)
  }
  lines.end(onBatch)
  if (open !== undefined) end(open)
}
