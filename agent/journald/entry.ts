// One entry of `journalctl --output=json` as the alerting domain sees it. Pure: no I/O.
//
// journalctl writes each entry as one JSON object whose values are, per field:
//   - a string (printable text),
//   - an array of numbers (the bytes of a binary value: a message with control characters or
//     invalid UTF-8),
//   - null (a value journalctl did not print: over 4096 bytes without --all, which we pass),
//   - an array of the above when the field is repeated in the entry.
// The AlertLine (contract seam 4): msg = MESSAGE, level from PRIORITY by syslog severity (the
// mapping `<PRI>` prefixes of text lines get), record = the entry's fields plus `unit`
// (_SYSTEMD_UNIT), `host` (_HOSTNAME), `level` and `msg`. `raw` is that record as JSON, so an
// incident stored as pending replays to the same line after a restart.
import { detectLevel, fromSyslogPriority, type AlertLine } from '../../alerts'

/** A field's value with bytes decoded: text, null (not printed), or the values of a repeated field. */
export type FieldValue = string | null | (string | null)[]

export interface JournalEntry {
  /** journalctl's `__CURSOR`: where to resume after this entry; undefined when it is missing. */
  cursor: string | undefined
  /** Every field but `__CURSOR`, binary values decoded as UTF-8. */
  fields: Record<string, FieldValue>
}

function isByteArray(value: unknown[]): value is number[] {
  return value.every((item) => typeof item === 'number')
}

/** One value (never an array of values): bytes decoded, anything unexpected as null. */
function singleValue(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (Array.isArray(value) && isByteArray(value)) return Buffer.from(value).toString('utf8')
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return null
}

export function fieldValue(value: unknown): FieldValue {
  // An array of numbers is one binary value; an array of anything else is a repeated field.
  if (Array.isArray(value) && !isByteArray(value)) return value.map(singleValue)
  return singleValue(value)
}

/** A line of journalctl's output as an entry; undefined when it is not a JSON object. */
export function parseEntryLine(text: string): JournalEntry | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const fields: Record<string, FieldValue> = {}
  let cursor: string | undefined
  for (const [key, value] of Object.entries(parsed)) {
    if (key === '__CURSOR') {
      cursor = typeof value === 'string' && value !== '' ? value : undefined
      continue
    }
    // defineProperty: a key is data, whatever its name.
    Object.defineProperty(fields, key, {
      value: fieldValue(value),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return { cursor, fields }
}

/** The first text of a field (a repeated field's first value); undefined when it has none. */
export function firstText(value: FieldValue | undefined): string | undefined {
  if (Array.isArray(value)) return value.find((item): item is string => typeof item === 'string')
  return value ?? undefined
}

/** The level of a syslog severity written as journald does ("0".."7"); undefined when it is not one. */
export function levelOfPriority(priority: string | undefined): number | undefined {
  if (priority === undefined || !/^[0-7]$/.test(priority.trim())) return undefined
  return fromSyslogPriority(Number(priority))
}

export function entryToAlertLine(entry: JournalEntry, source: string): AlertLine {
  const { fields } = entry
  // A binary message usually ends with the newline its program wrote; a page should not.
  const msg = (firstText(fields.MESSAGE) ?? '').replace(/\r?\n$/, '')
  // An entry without a PRIORITY (written by hand, or a remote journal's odd sender) is read like a
  // text line: its level from the head of its message, if it names one.
  const level = levelOfPriority(firstText(fields.PRIORITY)) ?? detectLevel(msg)
  const unit = firstText(fields._SYSTEMD_UNIT)
  const host = firstText(fields._HOSTNAME)
  const record: Record<string, unknown> = { level, msg }
  if (unit !== undefined) record.unit = unit
  if (host !== undefined) record.host = host
  for (const [key, value] of Object.entries(fields)) {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
  }
  return { raw: JSON.stringify(record), record, level, msg, source, json: true }
}
