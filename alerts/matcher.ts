// Field matchers shared by rules and silences: equality on a value, or a regular expression, on a
// dot path of the line's record. The normalized form (`FieldMatch`) is what agent/config produces
// from `match` and `matchers`; the engine compiles the path once (`FieldMatcher`).
import { compilePath, type PathGetter } from './dot-path'

/** Normalized: a value compared for equality, or a compiled regular expression. */
export type FieldMatch =
  | { kind: 'equals'; path: string; value: string | number | boolean | null }
  | { kind: 'regex'; path: string; regex: RegExp }

/** `get` is `path` compiled: matchers run on every candidate line. */
export type FieldMatcher = FieldMatch & { get: PathGetter }

export function compileFieldMatch(match: FieldMatch): FieldMatcher {
  return { ...match, get: compilePath(match.path) }
}

export function matchField(matcher: FieldMatcher, record: Readonly<Record<string, unknown>>): boolean {
  const value = matcher.get(record)
  if (matcher.kind === 'equals') return value === matcher.value
  if (value === undefined || value === null) return false
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  return matcher.regex.test(text)
}
