// One test per rule of agent/events/event-slices.ts: a big batch of events read a slice at a time
// gives the events of the batch read whole, in order, once, and each slice's commit stops before the
// first line of every event not emitted yet. Through a real reader: source-reader-event-slices.int.test.ts.
import { describe, expect, it } from 'vitest'
import type { MultilineConfig } from '../../../agent/config/types'
import { createStreamLines } from '../../../agent/prefilter/stream-lines'
import { assembleBatch, assembleLines, linesCommit, linesCursor } from '../../../agent/events/batch-events'
import {
  assembleContainerBatch,
  assembleContainerLines,
  containerCommit,
  containerCursor,
} from '../../../agent/events/container-events'
import { createContainerDecoder } from '../../../agent/events/container-lines'
import { eventSliceEnd, linesToCommit } from '../../../agent/events/event-slices'
import { createEventStream, endStream, eventOf, type PendingEvent } from '../../../agent/events/event-stream'
import { createEventStreams } from '../../../agent/events/event-streams'
import { compileLineRule } from '../../../agent/events/line-rule'
import { createSourceEvents, type EventsHandled, type EventsRest } from '../../../agent/events/source-events'
import type { LineBatch, TailLine } from '../../../agent/tail'

const MULTILINE: MultilineConfig = { match: { kind: 'start', pattern: /^(ERROR|INFO) / }, maxLines: 4, timeoutMs: 1000 }
const rule = compileLineRule(MULTILINE)
/** The pre-filter's pick: errors, and trace lines that happen to look like one (they continue an event). */
const isError = (line: TailLine): boolean => {
  const text = line.data.toString('utf8')
  return text.startsWith('ERROR') || text.includes('f1(') || text.includes('f3(')
}

/** A log of `count` events: errors (candidates) with a trace, infos (not) with one line under them. */
function plainLog(count: number): string {
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    if (i % 3 === 2) lines.push(`INFO i${i}`, `  detail ${i}`)
    else lines.push(`ERROR e${i}`, ...Array.from({ length: i % 6 }, (_, f) => `\tat f${f}(${i})`))
  }
  return `${lines.join('\n')}\n`
}

/** The text's batches, cut at the given characters (a cut inside a line makes a batch with a head line). */
function batchesOf(text: string, cuts: number[]): LineBatch[] {
  const batches: LineBatch[] = []
  const lines = createStreamLines()
  let from = 0
  for (const cut of [...cuts, text.length]) {
    lines.push(text.slice(from, cut), (b) => batches.push(b))
    from = cut
  }
  return batches
}

const texts = (events: readonly PendingEvent[]): string[] => events.map((e) => [e.first, ...e.rest].join('|'))

interface SliceStep {
  /** Events emitted by this slice. */
  emitted: number
  commit: number
  /** Lines of the batch read after the slice. */
  read: number
  /** Where the event still open after the slice began in its batch. */
  openAt?: number | undefined
}

/** Every batch of the text, read in slices of `sliceLines` candidates; each slice's commit noted. */
function plainInSlices(text: string, cuts: number[], sliceLines: number) {
  const stream = createEventStream()
  const events: PendingEvent[] = []
  const steps: SliceStep[][] = []
  for (const batch of batchesOf(text, cuts)) {
    const candidates = batch.lines.filter(isError)
    const cursor = linesCursor()
    const batchSteps: SliceStep[] = []
    do {
      const before = events.length
      const stop = eventSliceEnd(cursor.next, candidates.length, sliceLines)
      assembleLines(stream, batch, candidates, rule, MULTILINE.maxLines, (e) => events.push(e), cursor, stop)
      const commit = linesCommit(stream, cursor)
      batchSteps.push({ emitted: events.length - before, commit, read: cursor.line, openAt: stream.open?.index })
    } while (cursor.line < batch.lineCount)
    steps.push(batchSteps)
  }
  events.push(...endStream(stream))
  return { events, steps }
}

function plainWhole(text: string, cuts: number[]) {
  const stream = createEventStream()
  const events: PendingEvent[] = []
  const commits = batchesOf(text, cuts).map((batch) =>
    assembleBatch(stream, batch, batch.lines.filter(isError), rule, MULTILINE.maxLines, (e) => events.push(e)),
  )
  events.push(...endStream(stream))
  return { events, commits }
}

const cri = (tag: 'P' | 'F', text: string): string => `2026-03-14T09:12:02.003000000Z stdout ${tag} ${text}\n`

/** A CRI log: lines, some split in parts, some trace lines under errors, one line in no format. */
function criLog(count: number): string {
  let text = ''
  for (let i = 0; i < count; i++) {
    if (i % 5 === 4) text += cri('P', `ERROR split ${i} `) + cri('P', 'more ') + cri('F', 'end')
    else if (i % 7 === 6) text += `not a cri line ${i}\n`
    else text += cri('F', `${i % 2 === 0 ? 'ERROR' : 'INFO'} c${i}`) + cri('F', `\tat g(${i})`)
  }
  return text
}

function containerInSlices(text: string, sliceLines: number, multiline: boolean) {
  const stream = createEventStream()
  stream.decoder = createContainerDecoder('cri', undefined, 1 << 20)
  const events: PendingEvent[] = []
  const steps: SliceStep[] = []
  let malformed = 0
  for (const batch of batchesOf(text, [])) {
    const cursor = containerCursor(stream)
    do {
      const before = events.length
      const stop = eventSliceEnd(cursor.line, batch.lineCount, sliceLines)
      const lineRule = multiline ? rule : undefined
      assembleContainerLines(stream, batch, lineRule, MULTILINE.maxLines, (e) => events.push(e), cursor, stop)
      steps.push({ emitted: events.length - before, commit: containerCommit(stream, cursor), read: cursor.line })
    } while (cursor.line < batch.lineCount)
    malformed += cursor.malformed
  }
  events.push(...endStream(stream))
  return { events, steps, malformed }
}

function containerWhole(text: string, multiline: boolean) {
  const stream = createEventStream()
  stream.decoder = createContainerDecoder('cri', undefined, 1 << 20)
  const events: PendingEvent[] = []
  const results = batchesOf(text, []).map((batch) =>
    assembleContainerBatch(stream, batch, multiline ? rule : undefined, MULTILINE.maxLines, (e) => events.push(e)),
  )
  events.push(...endStream(stream))
  return { events, results }
}

describe('event slices', () => {
  it('rule 1: a plain batch is cut every sliceLines candidates, just before the next candidate', () => {
    const text = plainLog(40)
    const [batch] = batchesOf(text, [])
    const candidates = (batch as LineBatch).lines.filter(isError)
    const { steps } = plainInSlices(text, [], 5)
    const lineOf = (candidate: number): number => (batch as LineBatch).lines.indexOf(candidates[candidate] as TailLine)
    const expected: number[] = []
    for (let stop = 5; stop < candidates.length; stop += 5) expected.push(lineOf(stop))
    expect(expected.length).toBeGreaterThan(3)
    expect(steps[0]?.map((s) => s.read)).toEqual([...expected, (batch as LineBatch).lineCount])
    // Each slice emits at most its candidates' events and the one open before it.
    for (const step of steps[0] ?? []) expect(step.emitted).toBeLessThanOrEqual(6)
    // A batch of at most sliceLines candidates is one slice.
    expect(plainInSlices(text, [], candidates.length).steps[0]).toHaveLength(1)
    expect(eventSliceEnd(0, 3, 5)).toBe(3)
  })

  it('rule 2: a container batch is cut every sliceLines raw lines', () => {
    const text = criLog(20)
    const { steps } = containerInSlices(text, 7, false)
    const lineCount = text.split('\n').length - 1
    expect(steps.map((s) => s.read)).toEqual([
      ...Array.from({ length: Math.ceil(lineCount / 7) - 1 }, (_, i) => 7 * (i + 1)),
      lineCount,
    ])
  })

  it('rule 3: the events of a batch read in slices are those of it read whole, in order, once', () => {
    const text = plainLog(60)
    // Cuts inside lines: batches whose first line was completed across reads.
    const cuts = [37, 300, 301, 650]
    const whole = plainWhole(text, cuts)
    expect(whole.events.length).toBeGreaterThan(30)
    for (const sliceLines of [1, 2, 3, 7, 1000]) {
      const sliced = plainInSlices(text, cuts, sliceLines)
      expect(texts(sliced.events)).toEqual(texts(whole.events))
      // The last slice of each batch commits what the whole batch did.
      expect(sliced.steps.map((s) => s.at(-1)?.commit)).toEqual(whole.commits)
    }
    const text2 = criLog(40)
    for (const multiline of [false, true]) {
      const all = containerWhole(text2, multiline)
      for (const sliceLines of [1, 2, 5, 1000]) {
        const sliced = containerInSlices(text2, sliceLines, multiline)
        expect(texts(sliced.events)).toEqual(texts(all.events))
        expect(sliced.malformed).toBe(all.results[0]?.malformed)
        expect(sliced.steps.at(-1)?.commit).toBe(all.results[0]?.commit)
      }
    }
  })

  it('rule 4: a slice commits through the last line before what is held', () => {
    expect(linesToCommit(10, -1, -1)).toBe(10)
    expect(linesToCommit(10, 4, -1)).toBe(4)
    expect(linesToCommit(10, 0, -1)).toBe(0)
    expect(linesToCommit(10, 6, 3)).toBe(3)
    expect(linesToCommit(10, -1, 8)).toBe(8)
    // Never past the first line of an event emitted later: plain (one batch) and container.
    const text = plainLog(50)
    let emitted = 0
    // Slices of 1 or 2 candidates: some hold only trace lines, the event open since an earlier slice.
    for (const sliceLines of [1, 2, 3]) {
      const { events, steps } = plainInSlices(text, [], sliceLines)
      emitted = 0
      for (const step of steps[0] ?? []) {
        emitted += step.emitted
        for (const later of events.slice(emitted)) expect(later.index).toBeGreaterThanOrEqual(step.commit)
        // ...and no further back: through every line read when nothing is open.
        expect(step.commit).toBe(step.openAt ?? step.read)
      }
    }
    const container = containerInSlices(criLog(30), 4, true)
    emitted = 0
    for (const step of container.steps) {
      emitted += step.emitted
      for (const later of container.events.slice(emitted)) expect(later.index).toBeGreaterThanOrEqual(step.commit)
    }
    // A split line's first part holds the commit back (slices of one raw line: one ends inside it).
    const split = containerInSlices(cri('F', 'INFO a') + cri('P', 'ERROR b ') + cri('F', 'end'), 1, false)
    expect(split.steps.map((s) => s.commit)).toEqual([1, 1, 3])
  })

  it('rule 5: the quiet timer leaves alone the stream whose batch is in slices', async () => {
    const streams = createEventStreams(10)
    const busy = streams.streamOf('a', 1, 0, '/a.log', () => undefined)
    const other = streams.streamOf('b', 2, 0, '/b.log', () => undefined)
    busy.open = eventOf('ERROR a', undefined, undefined, 0)
    other.open = eventOf('ERROR b', undefined, undefined, 0)
    busy.lastAt = 0
    other.lastAt = 5
    expect(streams.nextDeadline(busy)).toBe(15)
    expect(streams.takeQuiet(100, busy)).toEqual([other])
    expect(streams.takeQuiet(100)).toEqual([busy])

    // Through the source events: a timer that fires between two slices ends nothing of the batch.
    let clock = 0
    let timerRan: () => void = () => undefined
    const commits: Array<number | undefined> = []
    const ingested: string[] = []
    const events = createSourceEvents({
      format: 'text',
      multiline: { ...MULTILINE, timeoutMs: 1 },
      maxLineBytes: 1 << 20,
      tailer: { commit: (_b, count) => void commits.push(count), release: () => undefined, streamOf: () => 's' },
      now: () => {
        timerRan()
        return clock
      },
      ingest: (event) => ingested.push(event.first) > 0,
      onMalformed: () => undefined,
      sliceLines: 2,
    })
    const [first, second] = batchesOf('ERROR one\n\tat a\nERROR two\n\tat b\nERROR three\nERROR four\n', [16])
    // The first batch leaves 'ERROR one' open: the timer is armed (1 ms). The second batch's first
    // slice reads through 'ERROR three' and stops before 'ERROR four'.
    expect(events.lines(first as LineBatch, (first as LineBatch).lines.filter(isError), 0)).toBe(true)
    const rest = events.lines(second as LineBatch, (second as LineBatch).lines.filter(isError), 0) as EventsRest
    expect(rest.kind).toBe('events')
    clock = 1000
    await new Promise<void>((resolve) => (timerRan = resolve))
    // The timer ran: the busy stream is neither ended ('ERROR three' still open) nor committed whole.
    expect(ingested).toEqual(['ERROR one', 'ERROR two'])
    expect(commits.every((c) => c !== undefined)).toBe(true)
    timerRan = () => undefined
    expect(events.rest(rest, 1000)).toBe(true)
    expect(ingested).toEqual(['ERROR one', 'ERROR two', 'ERROR three'])
    events.close()
  })

  it('rule 6: each slice is read at the time of its start', () => {
    const at: number[] = []
    const events = createSourceEvents({
      format: 'text',
      multiline: MULTILINE,
      maxLineBytes: 1 << 20,
      tailer: { commit: () => undefined, release: () => undefined, streamOf: () => 's' },
      now: () => 0,
      ingest: (_event, _batch, time) => at.push(time) > 0,
      onMalformed: () => undefined,
      sliceLines: 2,
    })
    const [batch] = batchesOf('ERROR 1\nERROR 2\nERROR 3\nERROR 4\nERROR 5\nERROR 6\n', [])
    let handled: EventsHandled = events.lines(batch as LineBatch, (batch as LineBatch).lines, 100)
    for (let time = 200; typeof handled === 'object'; time += 100) handled = events.rest(handled, time)
    expect(handled).toBe(true)
    // ERROR 1 is emitted by the line that starts ERROR 2, in the first slice; ERROR 6 stays open.
    expect(at).toEqual([100, 200, 200, 300, 300])
    events.close()
  })
})
