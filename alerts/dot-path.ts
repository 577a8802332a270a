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

/** Replaces the values at compiled paths; returns the record itself when it holds none of them. */
export type Redactor = (record: Record<string, unknown>) => Record<string, unknown>

/**
 * `redactPaths` compiled once. A record holding a path is copied along that path only (each object
 * on it shallow-copied, the rest shared with the input), so the input is never touched and a line
 * costs no deep copy. Records are never mutated after parsing, which is what makes sharing safe.
 */
export function createRedactor(paths: readonly string[], censor = '[redacted]'): Redactor {
  const compiled = paths.map((path) => path.split('.'))
  if (compiled.length === 0) return (record) => record
  return (record) => {
    let out = record
    for (const keys of compiled) {
      // First whether the path is there at all: most lines carry none of them and are not copied.
      let current: unknown = out
      for (const key of keys) current = Array.isArray(current) && key === 'length' ? undefined : own(current, key)
      // (An array's length is an own property, but not a field: replacing it would throw.)
      if (current === undefined) continue
      out = replaceAt(out, keys, 0, censor) as Record<string, unknown>
    }
    return out
  }
}

function replaceAt(value: unknown, keys: readonly string[], index: number, censor: string): unknown {
  const key = keys[index] as string
  const container = value as Record<string, unknown>
  const copy = (Array.isArray(value) ? value.slice() : { ...container }) as Record<string, unknown>
  // Spread and slice define own properties: an own "__proto__" key stays data, as JSON.parse made it.
  const next = index === keys.length - 1 ? censor : replaceAt(container[key], keys, index + 1, censor)
  Object.defineProperty(copy, key, { value: next, writable: true, enumerable: true, configurable: true })
  return copy
}

/** A copy of `record` with each path's value replaced by `censor` (`record` itself when it has none); the input is not touched. */
export function redactPaths(record: Record<string, unknown>, paths: readonly string[], censor = '[redacted]'): Record<string, unknown> {
  return createRedactor(paths, censor)(record)
}
