// A source's events over a tailer: commits stop before the open event, and a quiet file's last
// event is ended by the timer, then committed whole.
import { describe, expect, it } from 'vitest'
import { createStreamLines } from '../../../agent/prefilter/stream-lines'
import type { PendingEvent } from '../../../agent/events/event-stream'
import { createSourceEvents } from '../../../agent/events/source-events'
import type { LineBatch } from '../../../agent/tail'
import { pollUntil } from '../../helpers/poll-until'

describe('source events', () => {
  it("commits up to the open event, and ends a quiet file's last event after the timeout", async () => {
    const commits: [LineBatch, number | undefined][] = []
    const released: LineBatch[] = []
    const ingested: string[][] = []
    const events = createSourceEvents({
      format: 'text',
      multiline: { match: { kind: 'preset', preset: 'java' }, maxLines: 500, timeoutMs: 30 },
      maxLineBytes: 1 << 20,
      tailer: {
        commit: (batch, count) => commits.push([batch, count]),
        release: (batch) => released.push(batch),
        streamOf: () => 'file:0',
      },
      now: Date.now,
      ingest: (event: PendingEvent) => ingested.push([event.first, ...event.rest]) > 0,
      onMalformed: () => undefined,
    })
    const text = 'INFO up\nERROR failed\njava.io.IOException: gone\n\tat a.B.c(B.java:1)\n'
    let batch: LineBatch | undefined
    createStreamLines().push(text, (b) => (batch = b))
    const read = batch as LineBatch
    expect(events.lines(read, read.lines, Date.now())).toBe(true)
    expect(commits).toEqual([[read, 1]])
    expect(released).toEqual([read])
    expect(ingested).toEqual([['INFO up']])
    await pollUntil("the quiet file's event", () => (ingested.length > 1 ? true : undefined))
    expect(ingested).toEqual([['INFO up'], ['ERROR failed', 'java.io.IOException: gone', '\tat a.B.c(B.java:1)']])
    expect(commits.at(-1)).toEqual([read, undefined])
    events.close()
  })
})
