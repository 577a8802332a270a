// A multi-line event as one alert line: level, message and record from its first line (read by
// the source's format, a container's inner text as `auto`), `raw` the whole event, and, when the
// record carries no `err` of its own, the continuation lines read as one (alerts/trace.ts), so
// mail bodies and test-rule show the trace and the fingerprint takes its type and top frame.
import { parseTrace, type AlertLine } from '../../alerts'
import type { LineFormat } from '../config/types'
import { toAlertLine, type ParsedLine } from './alert-line'
import { withContainerFields } from './container-lines'
import type { PendingEvent } from './event-stream'

/** The format a line's own text is read in: a container format's inner text is `auto`. */
export function textFormat(format: LineFormat): LineFormat {
  return format === 'docker' || format === 'cri' ? 'auto' : format
}

export function eventAlertLine(event: PendingEvent, format: LineFormat, source: string | undefined): ParsedLine {
  return eventLine(event.first, event.rest, event.fields, format, source)
}

/** An event's alert line from its first line, its continuation lines and the fields its container added. */
export function eventLine(
  first: string,
  rest: readonly string[],
  fields: Record<string, unknown> | undefined,
  format: LineFormat,
  source: string | undefined,
): ParsedLine {
  const parsed = toAlertLine(first, textFormat(format), source)
  let line = fields === undefined ? parsed.line : withContainerFields(parsed.line, fields)
  if (rest.length > 0) line = withTrace(line, first, rest)
  return line === parsed.line ? parsed : { line, parseError: parsed.parseError }
}

function withTrace(line: AlertLine, first: string, rest: readonly string[]): AlertLine {
  const raw = `${first}\n${rest.join('\n')}`
  if (Object.hasOwn(line.record, 'err')) return { ...line, raw }
  // A record is never mutated: the spread keeps an own "__proto__" key of a parsed record as data.
  return { ...line, raw, record: { ...line.record, err: parseTrace(first, rest) } }
}
