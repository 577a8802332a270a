// The presets and custom rules cut real-looking logs (test/fixtures/multiline/) into the events a
// reader would: each log line with the trace under it, nothing more, nothing less; and the batch
// assembler holds an event across batches, commits only before it, and drops candidates that
// continue an event.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MultilineConfig, MultilineMatch } from '../../../agent/config/types'
import { createStreamLines } from '../../../agent/prefilter/stream-lines'
import { assembleBatch } from '../../../agent/events/batch-events'
import { createEventStream, endStream, type PendingEvent } from '../../../agent/events/event-stream'
import { compileLineRule } from '../../../agent/events/line-rule'
import type { LineBatch, TailLine } from '../../../agent/tail'

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures/multiline', name), 'utf8')

const config = (match: MultilineMatch, maxLines = 500): MultilineConfig => ({ match, maxLines, timeoutMs: 1000 })
const preset = (name: 'java' | 'python' | 'go' | 'node'): MultilineConfig => config({ kind: 'preset', preset: name })

interface Run {
  events: PendingEvent[]
  /** Per batch: its line count and how many of its lines could be committed. */
  batches: { lines: number; commit: number }[]
}

/**
 * The text through the assembler in batches cut at the given character positions; every line is a
 * candidate unless `pick` says which.
 */
function run(
  text: string,
  multiline: MultilineConfig,
  cuts: number[] = [],
  pick: (line: TailLine) => boolean = () => true,
): Run {
  const rule = compileLineRule(multiline)
  const stream = createEventStream()
  const events: PendingEvent[] = []
  const batches: Run['batches'] = []
  const lines = createStreamLines()
  const onBatch = (batch: LineBatch): void => {
    const candidates = batch.lines.filter(pick)
    batches.push({
      lines: batch.lineCount,
      commit: assembleBatch(stream, batch, candidates, rule, multiline.maxLines, (e) => events.push(e)),
    })
  }
  let from = 0
  for (const cut of [...cuts, text.length]) {
    lines.push(Buffer.from(text.slice(from, cut)), onBatch)
    from = cut
  }
  lines.end(onBatch)
  events.push(...endStream(stream))
  return { events, batches }
}

const firsts = (events: PendingEvent[]): string[] => events.map((e) => e.first.slice(0, 40))
const sizes = (events: PendingEvent[]): number[] => events.map((e) => 1 + e.rest.length)
const texts = (events: PendingEvent[]): string[][] => events.map((e) => [e.first, ...e.rest])

describe('java preset', () => {
  const text = fixture('java.log')

  it('joins frames, Caused by, Suppressed, "... N more" and the exception header to the log line above them', () => {
    const { events } = run(text, preset('java'))
    expect(sizes(events)).toEqual([1, 19, 1, 1, 5, 1])
    const failed = events[1] as PendingEvent
    expect(failed.first).toContain('Failed to load order 81724')
    expect(failed.rest[0]).toBe('java.lang.IllegalStateException: Order 81724 has no customer')
    expect(failed.rest.at(-1)).toBe('\t\t... 43 more')
    expect(events[4]?.rest.at(-1)).toMatch(/^Caused by: org\.apache\.kafka/)
  })

  it('starts an event at "Exception in thread"', () => {
    const { events } = run(
      '2026-03-14 10:00:00 INFO up\nException in thread "main" java.lang.Error: boom\n\tat Main.main(Main.java:3)\n',
      preset('java'),
    )
    expect(sizes(events)).toEqual([1, 2])
  })

  it('drops a candidate that continues an event: the first line decides', () => {
    // Only lines saying ERROR are candidates: the `Caused by: ... ERROR: relation` line is one.
    const { events } = run(text, preset('java'), [], (line) => line.data.includes('ERROR'))
    expect(events.map((e) => e.first)).toEqual([
      expect.stringContaining('ERROR [http-nio-8080-exec-7]'),
      expect.stringContaining('ERROR [kafka-consumer-2]'),
    ])
    expect(sizes(events)).toEqual([19, 5])
  })
})

describe('python preset', () => {
  it('joins the traceback, its exception line and chained tracebacks to the log line', () => {
    const { events } = run(fixture('python.log'), preset('python'))
    expect(sizes(events)).toEqual([1, 9, 1, 16, 1])
    expect(events[1]?.rest.at(-1)).toBe("ValueError: invalid literal for int() with base 10: '12,50'")
    expect(events[3]?.rest.at(-1)).toBe('app.errors.SyncError: billing unreachable')
    expect(events[4]?.first).toContain('picked job 3313')
  })
})

describe('go preset', () => {
  it('joins goroutine dumps (function lines, tab-indented files, blank lines) and starts at panic:', () => {
    const { events } = run(fixture('go.log'), preset('go'))
    expect(sizes(events)).toEqual([1, 12, 1, 13, 1])
    expect(events[3]?.first).toBe('panic: runtime error: index out of range [5] with length 3')
    expect(events[3]?.rest.at(-1)).toBe('\t/srv/shop/main.go:40 +0x8f')
  })
})

describe('node preset', () => {
  it('joins the error header, `at` frames and the properties block', () => {
    const { events } = run(fixture('node.log'), preset('node'))
    expect(sizes(events)).toEqual([1, 9, 1, 5, 4, 1])
    expect(events[1]?.rest.at(-1)).toBe('}')
    expect(events[4]?.rest[0]).toMatch(/^Error \[ERR_HTTP_HEADERS_SENT\]/)
  })
})

describe('across batches', () => {
  const text = fixture('java.log')
  const inTrace = text.indexOf('\tat com.acme.orders.OrderController.get')

  it('a trace split across two batches is one event, and the first batch commits only up to its first line', () => {
    const whole = run(text, preset('java'))
    const split = run(text, preset('java'), [inTrace + 5])
    expect(texts(split.events)).toEqual(texts(whole.events))
    // The first batch: one line before the event, then the event's first three lines.
    expect(split.batches[0]).toEqual({ lines: 4, commit: 1 })
  })

  it('an event open over a whole batch commits none of it', () => {
    const split = run(text, preset('java'), [inTrace, inTrace + 150, inTrace + 300])
    expect(split.batches.slice(1, 3).map((b) => b.commit)).toEqual([0, 0])
    expect(sizes(split.events)).toEqual([1, 19, 1, 1, 5, 1])
  })

  it('a batch whose last event is ended by the line after it commits whole', () => {
    const cut = text.indexOf('2026-03-14 09:12:03,551')
    // Candidates: the ERROR lines. The first batch ends with the WARN line, which no rule wants.
    const split = run(text, preset('java'), [cut], (line) => line.data.includes(' ERROR '))
    expect(split.batches).toEqual([
      { lines: 21, commit: 21 },
      { lines: 7, commit: 7 },
    ])
    expect(sizes(split.events)).toEqual([19, 5])
  })
})

describe('max_lines and custom rules', () => {
  it('max_lines ends an event: the next line starts a new one', () => {
    const text = `ERROR a\n${Array.from({ length: 7 }, (_, i) => `\tat f${i}()`).join('\n')}\nINFO b\n`
    const { events } = run(text, config({ kind: 'preset', preset: 'java' }, 3))
    expect(sizes(events)).toEqual([3, 3, 2, 1])
    expect(events[1]?.first).toBe('\tat f2()')
  })

  it('start: a line matching the pattern starts an event, every other continues', () => {
    const text = '2026-01-01 ERROR one\nmore of one\n  and more\n2026-01-02 INFO two\n'
    const { events } = run(text, config({ kind: 'start', pattern: /^\d{4}-\d\d-\d\d / }))
    expect(sizes(events)).toEqual([3, 1])
  })

  it('continue: a line matching the pattern continues, every other starts one', () => {
    const text = 'ERROR one\n| detail\n| detail\nINFO two\n| x\n'
    const { events } = run(text, config({ kind: 'continue', pattern: /^\| / }))
    expect(sizes(events)).toEqual([3, 2])
  })

  it('continuation lines at the start of a stream belong to an event not read: dropped', () => {
    const { events } = run('\tat a()\n\tat b()\nERROR c\n', preset('java'))
    expect(firsts(events)).toEqual(['ERROR c'])
  })
})
