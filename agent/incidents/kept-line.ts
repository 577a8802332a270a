// A line as the incident state keeps it, and the line made again from it when a new engine gets its
// incidents back (a restart, a reload). The text alone is not enough for every line: a multi-line
// event's first line and trace are read apart, and a container's fields (stream, Kubernetes path
// fields) were added to the record beside the text. So those fields are kept too, and a kept text
// with several lines is read again as the event it was.
import type { AlertLine } from '../../alerts'
import { CONTAINER_FIELD_KEYS } from '../events/container-lines'
import { eventLine } from '../events/event-line'

export interface KeptLine {
  raw: string
  format: 'json' | 'text'
  source: string | undefined
  /** Record fields that did not come from the text: a container's. Absent when there are none. */
  fields?: Record<string, unknown>
}

export function keptLine(line: AlertLine, raw: string = line.raw): KeptLine {
  const kept: KeptLine = { raw, format: line.json ? 'json' : 'text', source: line.source }
  for (const key of CONTAINER_FIELD_KEYS) {
    if (!Object.hasOwn(line.record, key)) continue
    kept.fields ??= {}
    kept.fields[key] = line.record[key]
  }
  return kept
}

export function lineOfKept(kept: KeptLine): AlertLine {
  const [first = '', ...rest] = kept.format === 'text' ? kept.raw.split('\n') : [kept.raw]
  return eventLine(first, rest, kept.fields, kept.format, kept.source).line
}
