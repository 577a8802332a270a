// One log line as the alerting domain sees it: the parsed record (or a synthetic one for plain
// text), its level and message. Parsing happens once per candidate line, never for lines the byte
// pre-filter already dropped.
import { findLevel } from './detect-level'
import { levelFromName } from './levels'
import { textMessage } from './text-head'

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

/**
 * Deeper than this, an object or array is replaced by TOO_DEEP. JSON.parse takes any depth, but
 * everything after it that walks a record (JSON.stringify for redaction and mail fields, structured
 * copies) recurses: one line nested 100,000 levels would overflow the stack of every later stage.
 */
export const MAX_DEPTH = 64
export const TOO_DEEP = '[nested too deep]'

function clipDepth(value: Record<string, unknown> | unknown[], depth: number): void {
  const keys = Array.isArray(value) ? value.keys() : Object.keys(value)
  for (const key of keys) {
    const child = (value as Record<string | number, unknown>)[key]
    if (typeof child !== 'object' || child === null) continue
    // An own "__proto__" key is a data property here: plain assignment writes it, never the prototype.
    if (depth + 1 >= MAX_DEPTH) (value as Record<string | number, unknown>)[key] = TOO_DEEP
    else clipDepth(child as Record<string, unknown>, depth + 1)
  }
}

/** At least MAX_DEPTH opening brackets (in strings or not): a cheap bound, exact on the safe side. */
function mayNestTooDeep(text: string): boolean {
  let count = 0
  for (let at = text.indexOf('{'); at !== -1 && count < MAX_DEPTH; at = text.indexOf('{', at + 1)) count++
  for (let at = text.indexOf('['); at !== -1 && count < MAX_DEPTH; at = text.indexOf('[', at + 1)) count++
  return count >= MAX_DEPTH
}

export function parseLine(raw: string, source?: string): AlertLine {
  const text = raw.endsWith('\n') ? raw.slice(0, -1) : raw
  const first = text.charCodeAt(0)
  if (first === 123 /* { */) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        const record = parsed as Record<string, unknown>
        // Nesting that deep takes as many `{` and `[`: most lines have a few and skip the walk.
        if (text.length > 2 * MAX_DEPTH && mayNestTooDeep(text)) clipDepth(record, 0)
        return { raw: text, record, level: levelOf(record.level), msg: messageOf(record), source, json: true }
      }
    } catch {
      // Not JSON after all: treated as plain text below.
    }
  }
  return textLine(text, source)
}

/**
 * A plain-text line: its level from where the format writes it, its message without the header before
 * it (text-head.ts).
 */
export function textLine(text: string, source?: string): AlertLine {
  const found = findLevel(text)
  const level = found?.level
  const msg = textMessage(text, found)
  return { raw: text, record: { msg, level }, level, msg, source, json: false }
}
