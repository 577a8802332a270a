// Backlogs of events for the tests of a reader's event slices (source-reader-event-slices*.int.test.ts):
// a multi-line log and a CRI container log of several slices, written at once (one read, one batch),
// with each event's text as the pipeline gets it and where its first line starts in the file.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AlertLine } from '../../../alerts'
import type { SourceConfig } from '../../../agent/config/types'
import type { AlertPipeline } from '../../../agent/delivery/types'
import { SLICE_LINES } from '../../../agent/daemon/batch-slices'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { startSourceReader } from '../../../agent/daemon/source-reader'
import type { SourceReader } from '../../../agent/events/types'
import { jsonFileSource } from './file-source'

export const EVENTS = 3 * SLICE_LINES + 100
const TIME = '2026-03-14T09:12:02.003000000Z'

export interface Backlog {
  source: SourceConfig
  /** Each event's text, as the pipeline gets it (`raw`), in file order. */
  events: string[]
  /** Where event n's first line starts in the file. */
  startOf: (n: number) => number
}

/** An event of the file: its lines, and its text as the pipeline gets it (none: dropped by the pre-filter). */
interface FileEvent {
  lines: string[]
  raw?: string
}

function backlogOf(
  dir: string,
  name: string,
  fileEvents: FileEvent[],
  source: (file: string) => SourceConfig,
): Backlog {
  const file = join(dir, `${name}.log`)
  const starts: number[] = []
  const events: string[] = []
  const chunks: string[] = []
  let bytes = 0
  for (const { lines, raw } of fileEvents) {
    if (raw !== undefined) {
      starts.push(bytes)
      events.push(raw)
    }
    const chunk = lines.map((line) => `${line}\n`).join('')
    chunks.push(chunk)
    bytes += Buffer.byteLength(chunk)
  }
  writeFileSync(file, chunks.join(''))
  return { source: source(file), events, startOf: (n) => starts[n] as number }
}

/**
 * Java errors, each with a trace under it (some of several lines), every other one followed by an info
 * line; read by the java preset (a config a child process can take as JSON).
 */
export function multilineBacklog(dir: string, name: string, count = EVENTS): Backlog {
  const events: FileEvent[] = []
  for (let i = 0; i < count; i++) {
    const lines = [
      `ERROR e${i} failed`,
      ...Array.from({ length: 1 + (i % 3) }, (_, f) => `\tat a.B.f${f}(B.java:${i})`),
    ]
    events.push({ lines, raw: lines.join('\n') })
    // The pre-filter drops the info line, but it ends the error before it (a line that starts an event).
    if (i % 2 === 0) events.push({ lines: [`INFO i${i}`] })
  }
  return backlogOf(dir, name, events, (file) => ({
    ...jsonFileSource(name, file),
    format: 'text',
    // A short timeout: the file's last event is ended by the quiet timer.
    multiline: { match: { kind: 'preset', preset: 'java' }, maxLines: 50, timeoutMs: 50 },
  }))
}

/** Raw lines before CRI event n, as criBacklog(dir, name, n) writes them. */
export function rawLinesBefore(n: number): number {
  let lines = 0
  for (let i = 0; i < n; i++) lines += i % 7 === 3 ? 2 : 1
  return lines
}

/** CRI lines, each an event, one in a few split by the runtime in two parts (and the one at `splitAt`). */
export function criBacklog(dir: string, name: string, splitAt: number): Backlog {
  const events: FileEvent[] = []
  for (let i = 0; i < EVENTS; i++) {
    const split = i % 7 === 3 || i === splitAt
    const lines = split
      ? [`${TIME} stdout P ERROR c${i} `, `${TIME} stdout F failed`]
      : [`${TIME} stdout F ERROR c${i} failed`]
    events.push({ lines, raw: `ERROR c${i} failed` })
  }
  return backlogOf(dir, name, events, (file) => ({ ...jsonFileSource(name, file), format: 'cri' }))
}

/**
 * A reader of the source, its state under dir/name, with a pipeline that takes the errors: `ingest`
 * gets those, as a rule would (the pre-filter passes other lines too, one completed across two reads).
 */
export async function readWith(
  dir: string,
  name: string,
  source: SourceConfig,
  ingest: (line: AlertLine) => void,
): Promise<SourceReader> {
  const pipeline = {
    lowestLevel: () => 50,
    ingest: (line: AlertLine) => {
      if (line.raw.startsWith('ERROR')) ingest(line)
    },
    countLines: () => {},
  } as unknown as AlertPipeline
  return startSourceReader({
    source,
    stateDir: join(dir, name),
    pipeline: () => pipeline,
    log: createAgentLogger({ destination: { write: () => true } }),
  })
}
