// When a stream's event ends without a line that starts the next: a later generation of its file
// (copy-and-truncate), another file at its path (rename-and-create), or quiet for the timeout. And
// container logs: a part of a split line holds the commit back like an open event does.
import { describe, expect, it } from 'vitest'
import { createStreamLines } from '../../../agent/prefilter/stream-lines'
import { assembleContainerBatch } from '../../../agent/events/container-events'
import { createContainerDecoder } from '../../../agent/events/container-lines'
import {
  createEventStream,
  endStream,
  eventOf,
  type EventStream,
  type PendingEvent,
} from '../../../agent/events/event-stream'
import { createEventStreams } from '../../../agent/events/event-streams'
import { compileLineRule } from '../../../agent/events/line-rule'
import type { LineBatch } from '../../../agent/tail'

const open = (stream: EventStream, text: string): void => {
  stream.open = eventOf(text, undefined, undefined, 0)
}

describe('event streams', () => {
  it('a later generation of the same file ends the earlier one', () => {
    const streams = createEventStreams(1000)
    const ended: EventStream[] = []
    const first = streams.streamOf('5:0', 5, 0, '/logs/app.log', (s) => ended.push(s))
    open(first, 'ERROR a')
    // The copy continues generation 0 under its key: nothing ends.
    expect(streams.streamOf('5:0', 9, 0, '/logs/app__1.log', (s) => ended.push(s))).toBe(first)
    expect(ended).toEqual([])
    streams.streamOf('5:1', 5, 1, '/logs/app.log', (s) => ended.push(s))
    expect(ended).toEqual([first])
  })

  it('another file read at a path ends the stream last read there (rename-and-create)', () => {
    const streams = createEventStreams(1000)
    const ended: EventStream[] = []
    const old = streams.streamOf('5:0', 5, 0, '/logs/app.log', (s) => ended.push(s))
    const other = streams.streamOf('6:0', 6, 0, '/logs/other.log', (s) => ended.push(s))
    streams.streamOf('7:0', 7, 0, '/logs/app.log', (s) => ended.push(s))
    expect(ended).toEqual([old])
    expect(ended).not.toContain(other)
  })

  it("a stream quiet for the timeout is taken; the deadline is its open event's", () => {
    const streams = createEventStreams(1000)
    const a = streams.streamOf('a', 1, 0, '/a.log', () => undefined)
    const b = streams.streamOf('b', 2, 0, '/b.log', () => undefined)
    a.lastAt = 10_000
    b.lastAt = 10_500
    expect(streams.nextDeadline()).toBeUndefined()
    open(b, 'ERROR b')
    expect(streams.nextDeadline()).toBe(11_500)
    expect(streams.takeQuiet(11_200)).toEqual([a])
    expect(streams.takeQuiet(11_500)).toEqual([b])
    expect(endStream(b).map((e) => e.first)).toEqual(['ERROR b'])
  })

  it('never takes by the timeout the stream whose batch is handed over in slices (rule 4)', () => {
    const streams = createEventStreams(1000)
    const busy = streams.streamOf('a', 1, 0, '/a.log', () => undefined)
    open(busy, 'ERROR a')
    busy.lastAt = 0
    expect(streams.nextDeadline(busy)).toBeUndefined()
    expect(streams.takeQuiet(5000, busy)).toEqual([])
    expect(streams.nextDeadline()).toBe(1000)
    expect(streams.takeQuiet(5000)).toEqual([busy])
  })
})

describe('container batches', () => {
  function run(
    text: string,
    multiline: boolean,
  ): { events: PendingEvent[]; commits: { lines: number; commit: number }[]; stream: EventStream } {
    const stream = createEventStream()
    stream.decoder = createContainerDecoder('cri', undefined, 1 << 20)
    const rule = multiline
      ? compileLineRule({ match: { kind: 'preset', preset: 'java' }, maxLines: 500, timeoutMs: 1000 })
      : undefined
    const events: PendingEvent[] = []
    const commits: { lines: number; commit: number }[] = []
    createStreamLines().push(text, (batch: LineBatch) => {
      commits.push({
        lines: batch.lineCount,
        commit: assembleContainerBatch(stream, batch, rule, 500, (e) => events.push(e)).commit,
      })
    })
    return { events, commits, stream }
  }
  const cri = (stream: string, tag: 'P' | 'F', text: string): string =>
    `2026-03-14T09:12:02.003000000Z ${stream} ${tag} ${text}\n`

  it('a part of a split line holds the commit back to the line that began it', () => {
    const { events, commits } = run(
      cri('stdout', 'F', 'INFO one') +
        cri('stdout', 'P', 'ERROR two, the first part') +
        cri('stderr', 'F', 'WARN three'),
      false,
    )
    expect(events.map((e) => e.first)).toEqual(['INFO one', 'WARN three'])
    expect(commits).toEqual([{ lines: 3, commit: 1 }])
  })

  it('multi-line runs over the decoded lines, and holds the commit at the open event', () => {
    const text =
      cri('stdout', 'F', 'ERROR failed') +
      cri('stdout', 'F', 'java.lang.IllegalStateException: x') +
      cri('stdout', 'F', '\tat a.B.c(B.java:1)') +
      cri('stdout', 'F', 'INFO next')
    const { events, commits, stream } = run(text, true)
    expect(events.map((e) => [e.first, ...e.rest])).toEqual([
      ['ERROR failed', 'java.lang.IllegalStateException: x', '\tat a.B.c(B.java:1)'],
    ])
    expect(events[0]?.fields).toMatchObject({ stream: 'stdout' })
    expect(commits).toEqual([{ lines: 4, commit: 3 }])
    expect(stream.open?.first).toBe('INFO next')
  })
})
