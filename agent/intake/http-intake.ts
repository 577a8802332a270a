// `type: http`: `POST /ingest/<source>` with NDJSON or a JSON array, for curl and for the http
// outputs of Vector (`encoding.codec: json` sends an array as application/json; newline framing
// sends NDJSON) and Fluent Bit (`format: json` an array, `json_lines` NDJSON).
//
// 1. A body whose first non-blank byte is `[` is a JSON array; any other body is NDJSON (one JSON
//    value a line, blank lines skipped), whatever of the accepted content types it came with.
// 2. An object is a JSON log line: its fields are the record rules match on (`level` a number or a
//    level name, `msg` or `message` its message). A string is a plain-text line.
// 3. Any other item (a number, null, a nested array), an NDJSON line that is not JSON, a `msg` or
//    `message` that is not a string, or a `level` that is neither a number nor a level name refuses
//    the whole request with 400 naming the item: `[3].msg: expected a string` (array items from 0),
//    `line 4: not JSON` (NDJSON lines from 1). Nothing of a refused request is taken.
import { levelFromName, parseLine, textLine, type AlertLine } from '../../alerts'
import type { IntakeSourceConfig } from '../config/types'
import { payloadError } from './errors'
import type { HttpIntakeHandler, IntakeEvent } from './types'

export const HTTP_INTAKE_CONTENT_TYPES: readonly string[] = [
  'application/json',
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonlines',
]

const OPEN_BRACE = 0x7b
const QUOTE = 0x22

/** Rule 3's checks of an object's fields; the problem's field path, or undefined when it is fine. */
function fieldProblem(record: Record<string, unknown>, at: string): { field: string; message: string } | undefined {
  for (const key of ['msg', 'message'] as const) {
    const value = record[key]
    if (value !== undefined && typeof value !== 'string') return { field: `${at}.${key}`, message: 'expected a string' }
  }
  const level = record.level
  if (level === undefined || typeof level === 'number') return undefined
  if (typeof level === 'string' && levelFromName(level) !== undefined) return undefined
  return { field: `${at}.level`, message: 'expected a level number or name (fatal, error, warn, info, debug, trace)' }
}

function checked(line: AlertLine, at: string): AlertLine {
  const problem = fieldProblem(line.record, at)
  if (problem !== undefined) throw payloadError(problem.field, problem.message)
  return line
}

/** Rule 2: one array item to a line. */
function itemLine(item: unknown, at: string, source: string): AlertLine {
  if (typeof item === 'string') return textLine(item, source)
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw payloadError(at, 'expected an object (a JSON log line) or a string (a text line)')
  return checked(parseLine(JSON.stringify(item), source), at)
}

function arrayLines(text: string, source: string): AlertLine[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    throw payloadError('(body)', `not JSON: ${(err as Error).message}`)
  }
  if (!Array.isArray(parsed)) throw payloadError('(body)', 'expected a JSON array or NDJSON')
  return parsed.map((item, i) => itemLine(item, `[${i}]`, source))
}

function ndjsonLine(text: string, at: string, source: string): AlertLine {
  const first = text.charCodeAt(0)
  if (first === OPEN_BRACE) {
    // parseLine parses once; a line it could not take as JSON comes back as text.
    const line = parseLine(text, source)
    if (!line.json) throw payloadError(at, 'not a JSON object')
    return checked(line, at)
  }
  if (first === QUOTE) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (err) {
      throw payloadError(at, `not JSON: ${(err as Error).message}`)
    }
    return textLine(value as string, source)
  }
  throw payloadError(at, 'expected a JSON object (a JSON log line) or a JSON string (a text line)')
}

function ndjsonLines(text: string, source: string): AlertLine[] {
  const lines: AlertLine[] = []
  let number = 0
  for (const raw of text.split('\n')) {
    number++
    const trimmed = raw.trim()
    if (trimmed !== '') lines.push(ndjsonLine(trimmed, `line ${number}`, source))
  }
  return lines
}

/** Rule 1: the body's events, or the IntakeError of its first bad item. */
export function decodeHttpBody(body: Buffer, source: string): IntakeEvent[] {
  const text = body.toString('utf8')
  const start = text.search(/\S/)
  const lines = start !== -1 && text[start] === '[' ? arrayLines(text, source) : ndjsonLines(text, source)
  return lines.map((line) => ({ line }))
}

export function createHttpIntakeHandler(source: IntakeSourceConfig): HttpIntakeHandler {
  return {
    source: source.name,
    paths: source.intake.paths,
    contentTypes: HTTP_INTAKE_CONTENT_TYPES,
    decode: (body) => decodeHttpBody(body, source.name),
  }
}
