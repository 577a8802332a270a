// Field matchers shared by rules and silences: equality on a value, or a regular expression, on a
// dot path of the line's record.
import { compilePath, type PathGetter } from './dot-path'
import { AlertsError, AlertsErrorCodes } from './errors'

/** Written form: a plain value means equality; `{ regex }` a pattern; `{ equals }` explicit equality. */
export type FieldMatcherInput = string | number | boolean | null | { regex: string; flags?: string } | { equals: unknown }

/** `get` is `path` compiled: matchers run on every candidate line. */
export type FieldMatcher =
  | { kind: 'equals'; path: string; get: PathGetter; value: unknown }
  | { kind: 'regex'; path: string; get: PathGetter; regex: RegExp }

export function compileRegex(source: unknown, path: string, flags?: unknown): RegExp {
  if (typeof source !== 'string') {
    throw new AlertsError(AlertsErrorCodes.INVALID_REGEX, path, `expected a regular expression string, got ${JSON.stringify(source)}`)
  }
  if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags))) {
    throw new AlertsError(AlertsErrorCodes.INVALID_REGEX, `${path}.flags`, 'flags may only contain i, m, s, u')
  }
  try {
    return new RegExp(source, flags as string | undefined)
  } catch (err) {
    throw new AlertsError(AlertsErrorCodes.INVALID_REGEX, path, (err as Error).message)
  }
}

export function compileFieldMatcher(fieldPath: string, input: unknown, path: string): FieldMatcher {
  if (typeof input === 'object' && input !== null) {
    if ('regex' in input) {
      const { regex, flags } = input as { regex: unknown; flags?: unknown }
      return { kind: 'regex', path: fieldPath, get: compilePath(fieldPath), regex: compileRegex(regex, `${path}.regex`, flags) }
    }
    if ('equals' in input) return { kind: 'equals', path: fieldPath, get: compilePath(fieldPath), value: (input as { equals: unknown }).equals }
    throw new AlertsError(AlertsErrorCodes.INVALID_RULE, path, 'expected a value, { equals } or { regex }')
  }
  return { kind: 'equals', path: fieldPath, get: compilePath(fieldPath), value: input }
}

export function compileFieldMatchers(input: unknown, path: string): FieldMatcher[] {
  if (input === undefined) return []
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new AlertsError(AlertsErrorCodes.INVALID_RULE, path, 'expected an object of dot path -> value or { regex }')
  }
  return Object.entries(input).map(([field, value]) => compileFieldMatcher(field, value, `${path}.${field}`))
}

export function matchField(matcher: FieldMatcher, record: Readonly<Record<string, unknown>>): boolean {
  const value = matcher.get(record)
  if (matcher.kind === 'equals') return value === matcher.value
  if (value === undefined || value === null) return false
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  return matcher.regex.test(text)
}
