// A tailed line as the alerting domain sees it, by the source's format. `auto` trusts a line that
// starts with `{` to be JSON; `json` expects it of every line; `text` never parses. A line that
// should have been JSON but is not still goes on as plain text (its level detected from the head),
// so a malformed line costs a parse error, never an alert. A plain-text line's `msg` is its message
// without the timestamp, level, thread and logger before it (`alerts/text-head.ts`); `raw` stays
// the whole line.
import { parseLine, textLine, type AlertLine } from '../../alerts'
import type { LineFormat } from '../config/types'

export interface ParsedLine {
  line: AlertLine
  /** The line was expected to be JSON and was not. */
  parseError: boolean
}

/**
 * `source`: the source's name, or undefined for lines that come from none (an app's stream, a file test-rule reads
 * outside every source).
 */
export function toAlertLine(text: string, format: LineFormat, source: string | undefined): ParsedLine {
  if (format === 'text') return { line: textLine(text, source), parseError: false }
  const line = parseLine(text, source)
  const expectedJson = format === 'json' || text.charCodeAt(0) === 123 /* { */
  return { line, parseError: expectedJson && !line.json }
}
