// Field access by dot path (`err.type`, `req.url`). Own properties only, so a path can never reach
// into a prototype (`__proto__.x`, `constructor.name`).

export function getPath(record: unknown, path: string): unknown {
  let current: unknown = record
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined
    if (!Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

/** A copy of `record` with each path's value replaced by `censor`; the input is not touched. */
export function redactPaths(record: Record<string, unknown>, paths: readonly string[], censor = '[redacted]'): Record<string, unknown> {
  if (paths.length === 0) return record
  const copy = structuredCloneSafe(record)
  for (const path of paths) {
    const keys = path.split('.')
    let current: unknown = copy
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i] as string
      if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) {
        current = undefined
        break
      }
      current = (current as Record<string, unknown>)[key]
    }
    const last = keys[keys.length - 1] as string
    if (typeof current === 'object' && current !== null && Object.hasOwn(current, last)) {
      ;(current as Record<string, unknown>)[last] = censor
    }
  }
  return copy
}

function structuredCloneSafe(record: Record<string, unknown>): Record<string, unknown> {
  // Records come from JSON.parse, so a JSON round trip is a faithful deep copy.
  return JSON.parse(JSON.stringify(record)) as Record<string, unknown>
}
