// Known secrets (API keys, tokens) are cut out of a selected line before anything is built from it,
// so no title, field, lead name or note can carry one. Rendering scrubs again as a last defence.
import { createRedactor, type RedactPath } from './dot-path'
import type { AlertLine } from './line'

export const SECRET_MASK = '[redacted]'

/** Only strings long enough to be credentials: masking "a" would shred every message. */
export function usableSecrets(secrets: readonly string[]): string[] {
  return secrets.filter((s) => s.length >= 4)
}

export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(SECRET_MASK)
  return out
}

// A secret made of characters JSON never has to escape appears in a JSON line's text wherever it
// appears in the parsed record's strings, unless the text spells a character as \uXXXX: so the
// text alone tells that the line holds none. Any other secret: unless the text has no escape at all.
const NEEDS_ESCAPE = /["\\/\u0000-\u001f\u2028\u2029]/

function mayHoldSecret(line: AlertLine, secrets: readonly string[], plain: boolean): boolean {
  const { raw } = line
  for (const secret of secrets) if (raw.includes(secret)) return true
  // Plain text: record.msg and msg are the text itself, and level a number.
  if (!line.json) return false
  return raw.includes(plain ? '\\u' : '\\')
}

/**
 * The record with secrets cut out of every key, string and number (as its decimal text); itself when
 * none holds one.
 */
function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets)
  if (typeof value === 'number') {
    const text = String(value)
    const clean = scrubText(text, secrets)
    return clean === text ? value : clean
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const clean = scrubValue(value[i], secrets)
      if (clean !== value[i]) (copy ??= value.slice())[i] = clean
    }
    return copy ?? value
  }
  const record = value as Record<string, unknown>
  let changed = false
  const entries: [string, unknown][] = []
  for (const key of Object.keys(record)) {
    const cleanKey = scrubText(key, secrets)
    const cleanValue = scrubValue(record[key], secrets)
    if (cleanKey !== key || cleanValue !== record[key]) changed = true
    entries.push([cleanKey, cleanValue])
  }
  if (!changed) return record
  const copy: Record<string, unknown> = {}
  // defineProperty: an own "__proto__" key stays data, as JSON.parse made it.
  for (const [key, v] of entries)
    Object.defineProperty(copy, key, { value: v, writable: true, enumerable: true, configurable: true })
  return copy
}

function scrub(line: AlertLine, secrets: readonly string[], plain: boolean): AlertLine {
  if (secrets.length === 0 || !mayHoldSecret(line, secrets, plain)) return line
  const record = scrubValue(line.record, secrets) as Record<string, unknown>
  const msg = scrubText(line.msg, secrets)
  // A JSON line's text follows its record; what no field holds (a secret across two tokens) is
  // still cut out of it, at the cost of the text no longer being JSON.
  const raw = scrubText(line.json && record !== line.record ? JSON.stringify(record) : line.raw, secrets)
  if (record === line.record && msg === line.msg && raw === line.raw) return line
  return { ...line, record, msg, raw }
}

export function scrubLine(line: AlertLine, secrets: readonly string[]): AlertLine {
  return scrub(line, secrets, !secrets.some((s) => NEEDS_ESCAPE.test(s)))
}

/** What a censor does to a selected line; `createCensor` compiles it once per configuration. */
export type Censor = (line: AlertLine) => AlertLine

/**
 * What the engine stores and renders of a selected line: known secrets cut out, and the values at
 * the `redact` paths replaced (`msg`/`message` also censor the message). `raw` follows the
 * record, so nothing kept of the line (incident state, replays) still carries a redacted value.
 * The line itself is returned when nothing in it had to go: most lines are not copied.
 */
/** What stands for a line that looks like JSON but did not parse, once `redact` paths are set. */
export const UNPARSED_WITHHELD = '[unparsed JSON line withheld: redact paths cannot be applied to it]'

/**
 * A line that starts like JSON but did not parse (cut at the line cap, or malformed) is read as
 * text, so `redact` paths cannot reach its fields: with paths set, its text is withheld rather than
 * sent with the very values the paths name. Its level, read from its head, still decides.
 */
function withheld(line: AlertLine): AlertLine {
  const record: Record<string, unknown> = { ...line.record }
  Object.defineProperty(record, 'msg', {
    value: UNPARSED_WITHHELD,
    writable: true,
    enumerable: true,
    configurable: true,
  })
  return { ...line, record, msg: UNPARSED_WITHHELD, raw: UNPARSED_WITHHELD }
}

const looksLikeJson = (line: AlertLine): boolean => !line.json && line.raw.trimStart().startsWith('{')

export function createCensor(redact: readonly RedactPath[], secrets: readonly string[]): Censor {
  const usable = usableSecrets(secrets)
  const plain = !usable.some((s) => NEEDS_ESCAPE.test(s))
  const redactor = createRedactor(redact)
  const msgRedacted = redact.some((path) => path.length === 1 && (path[0] === 'msg' || path[0] === 'message'))
  if (usable.length === 0 && redact.length === 0) return (line) => line
  return (input) => {
    const line = scrub(input, usable, plain)
    if (redact.length === 0) return line
    if (looksLikeJson(line)) return withheld(line)
    const record = redactor(line.record)
    if (record === line.record) return line
    const msg = msgRedacted ? SECRET_MASK : line.msg
    const raw = line.json ? JSON.stringify(record) : msgRedacted ? SECRET_MASK : line.raw
    return { ...line, record, msg, raw }
  }
}

/** `createCensor(redact, secrets)(input)`, for one line. */
export function censorLine(input: AlertLine, redact: readonly RedactPath[], secrets: readonly string[]): AlertLine {
  return createCensor(redact, secrets)(input)
}
