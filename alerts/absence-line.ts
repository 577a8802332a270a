// The words of an absence incident (absence.ts): its message, `no heartbeat lines for 5m
// (hostname=web1)`, and the line it opens with, made of the key's labels. Pure.
import type { AlertLine } from './line'
import type { Rule } from './rule'

/** `5m`, `1h30m`, `90ms`: a duration as the config writes it. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms))
  let out = ''
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (rest < size) continue
    out += `${Math.floor(rest / size)}${unit}`
    rest %= size
  }
  return rest > 0 || out === '' ? `${out}${rest}ms` : out
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

/** The message of an absence incident: `no heartbeat lines for 5m (hostname=web1)`. */
export function absenceMessage(rule: string, forMs: number, labels: Readonly<Record<string, unknown>>): string {
  const named = Object.entries(labels).map(([path, value]) => `${path}=${shown(value)}`)
  return `no ${rule} lines for ${formatDuration(forMs)}${named.length === 0 ? '' : ` (${named.join(', ')})`}`
}

export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` in a group_by path is a plain key here as in a parsed line.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** `value` at dot `path` of `record`, making (or copying) the objects on the way. */
function put(record: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.')
  let at = record
  for (const segment of segments.slice(0, -1)) {
    const next = Object.hasOwn(at, segment) ? at[segment] : undefined
    const object: Record<string, unknown> =
      typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...next } : {}
    define(at, segment, object)
    at = object
  }
  define(at, segments[segments.length - 1] as string, value)
}

/**
 * The line an absence incident opens with: the labels at their paths (so `{{hostname}}` in a
 * template, silences and inhibition on line fields work), the message, and when the last line came.
 */
export function absenceLine(
  rule: Rule,
  forMs: number,
  entry: { readonly lastSeen: number; readonly labels: Record<string, unknown> },
): AlertLine {
  const msg = absenceMessage(rule.name, forMs, entry.labels)
  const record: Record<string, unknown> = {}
  for (const [path, value] of Object.entries(entry.labels)) put(record, path, value)
  define(record, 'msg', msg)
  define(record, 'last_line_at', new Date(entry.lastSeen).toISOString())
  return { raw: JSON.stringify(record), record, level: undefined, msg, source: undefined, json: true }
}
