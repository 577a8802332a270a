// Field access by dot path (`err.type`, `req.url`). Own properties only, so a path can never reach
// into a prototype (`__proto__.x`, `constructor.name`). Paths come from rules, silences, templates
// and `redact`, fixed when the configuration is read: they are compiled once (split, and a getter
// specialised for the usual one or two segments) rather than split on every line.

/** A compiled dot path: the value at that path of `record`, or undefined. */
export type PathGetter = (record: unknown) => unknown

function own(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined
  return (value as Record<string, unknown>)[key]
}

export function compilePath(path: string): PathGetter {
  const keys = path.split('.')
  const [first, second] = keys as [string, string | undefined]
  if (keys.length === 1) return (record) => own(record, first)
  if (keys.length === 2) return (record) => own(own(record, first), second as string)
  return (record) => {
    let current: unknown = record
    for (const key of keys) {
      if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined
      current = (current as Record<string, unknown>)[key]
    }
    return current
  }
}

/** One-off access; for a path used on every line, keep a compilePath() getter instead. */
export function getPath(record: unknown, path: string): unknown {
  return compilePath(path)(record)
}

/**
 * A redact path as segments: `["user", "password"]`, `["cards", "*", "number"]`. The grammar (dots,
 * quoted brackets, indices, `*`) is the logger's, parsed where the configuration is read (agent/config
 * through logx's parser); `*` stands for every own key of an object, or every element of an array.
 */
export type RedactPath = readonly string[]

/** Replaces the values at compiled paths; returns the record itself when it holds none of them. */
export type Redactor = (record: Record<string, unknown>) => Record<string, unknown>

const WILDCARD = '*'

/** The own keys a segment names in `value`: the key itself, or every key (`*`). Never an array's length. */
function keysAt(value: unknown, segment: string): string[] {
  if (typeof value !== 'object' || value === null) return []
  if (segment === WILDCARD) return Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value)
  if (Array.isArray(value) && segment === 'length') return []
  return Object.hasOwn(value, segment) ? [segment] : []
}

/**
 * `value` with `path[index..]` censored, or `value` itself when the path reaches nothing there. Only
 * what lies on a reached path is copied (each object shallow-copied, the rest shared with the input),
 * so the input is never touched and a line costs no deep copy. Records are never mutated after
 * parsing, which is what makes sharing safe.
 */
function censorAt(value: unknown, path: RedactPath, index: number, censor: string): unknown {
  const segment = path[index] as string
  const keys = keysAt(value, segment)
  if (keys.length === 0) return value
  const last = index === path.length - 1
  let copy: Record<string, unknown> | undefined
  for (const key of keys) {
    const current = (value as Record<string, unknown>)[key]
    const next = last ? censor : censorAt(current, path, index + 1, censor)
    if (next === current && !last) continue
    copy ??= (Array.isArray(value) ? value.slice() : { ...(value as Record<string, unknown>) }) as Record<
      string,
      unknown
    >
    // Spread and slice define own properties: an own "__proto__" key stays data, as JSON.parse made it.
    Object.defineProperty(copy, key, { value: next, writable: true, enumerable: true, configurable: true })
  }
  return copy ?? value
}

/** `paths` compiled once: a record holding none of them is returned as it is. */
export function createRedactor(paths: readonly RedactPath[], censor = '[redacted]'): Redactor {
  const usable = paths.filter((path) => path.length > 0)
  if (usable.length === 0) return (record) => record
  return (record) => {
    let out: unknown = record
    for (const path of usable) out = censorAt(out, path, 0, censor)
    return out as Record<string, unknown>
  }
}

/**
 * A copy of `record` with each path's value replaced by `censor` (`record` itself when it has none);
 * the input is not touched.
 */
export function redactPaths(
  record: Record<string, unknown>,
  paths: readonly RedactPath[],
  censor = '[redacted]',
): Record<string, unknown> {
  return createRedactor(paths, censor)(record)
}
