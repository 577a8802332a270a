// One log line as the alerting domain sees it: the parsed record (or a synthetic one for plain
// text), its level and message. Parsing happens once per candidate line, never for lines the byte
// pre-filter already dropped.
import { detectLevel } from './detect-level'
import { levelFromName } from './levels'

export interface AlertLine {
  /** The line as received, without its newline. */
  raw: string
  /** JSON lines: the parsed object. Plain text: `{ msg, level }`. */
  record: Record<string, unknown>
  level: number | undefined
  msg: string
  /** Where the line came from (a file path, an app name); matched by a rule's `source`. */
  source: string | undefined
  json: boolean
}

function levelOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value === 'string') return levelFromName(value)
  return undefined
}

function messageOf(record: Record<string, unknown>): string {
  if (typeof record.msg === 'string') return record.msg
  if (typeof record.message === 'string') return record.message
  const err = record.err
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message
  }
  return ''
}

export function parseLine(raw: string, source?: string): AlertLine {
  const text = raw.endsWith('\n') ? raw.slice(0, -1) : raw
  const first = text.charCodeAt(0)
  if (first === 123 /* { */) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        const record = parsed as Record<string, unknown>
        return { raw: text, record, level: levelOf(record.level), msg: messageOf(record), source, json: true }
      }
    } catch {
      // Not JSON after all: treated as plain text below.
    }
  }
  const level = detectLevel(text)
  return { raw: text, record: { msg: text, level }, level, msg: text, source, json: false }
}
