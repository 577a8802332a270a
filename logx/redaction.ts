// Redaction: paths are validated and grouped by their first segment once, at construction.
// The write path then looks up a stringifier per top-level key, so keys no path names cost nothing.
// The nested work is done by @pinojs/redact, which clones what it censors and never mutates the
// caller's object (fast-redact mutates and restores, and carries an open advisory).
import createRedactor = require('@pinojs/redact')
import { LogxError, LogxErrorCodes } from './errors'
import { redactFmtSym, wildcardFirstSym } from './symbols'
import { stringifyValue, type SafeStringify } from './stringify'

export type Censor = string | ((value: unknown, path: string[]) => unknown)

export interface RedactOptions {
  paths: string[]
  censor?: Censor
  remove?: boolean
}

export type Stringifier = (value: unknown) => string | undefined

export interface Redaction {
  /** Per top-level key (and wildcardFirstSym for `*.x` paths): encodes a value with its paths censored. */
  stringifiers: Record<string | symbol, Stringifier>
  /** Encodes a whole object with every path censored (for `%o`/`%j` interpolation). */
  stringifyAll: (value: unknown) => string
  /** A censored copy of a merged object, for the metadata protocol's lastObj. */
  redactObject: (value: object) => object
  paths: readonly string[]
}

const DEFAULT_CENSOR = '[Redacted]'

/** Splits a redact path into segments; throws a LogxError naming the path and the column of the problem. */
export function parseRedactPath(path: string, optionPath: string): string[] {
  const fail = (column: number, why: string): never => {
    throw new LogxError(LogxErrorCodes.INVALID_REDACT_PATH, `${optionPath}: invalid redact path ${JSON.stringify(path)} at column ${column + 1}: ${why}`, optionPath)
  }
  if (typeof path !== 'string') {
    throw new LogxError(LogxErrorCodes.INVALID_REDACT_PATH, `${optionPath}: redact paths must be strings, got ${typeof path}`, optionPath)
  }
  if (path.length === 0) fail(0, 'empty path')
  const segments: string[] = []
  let i = 0
  let expectSegment = true
  while (i < path.length) {
    const ch = path[i]
    if (ch === '[') {
      const close = findBracketEnd(path, i, fail)
      const inner = path.slice(i + 1, close).trim()
      if (inner === '') fail(i, 'empty brackets')
      const quote = inner[0]
      if (quote === '"' || quote === "'" || quote === '`') {
        if (inner.length < 2 || inner[inner.length - 1] !== quote) fail(i, 'unterminated quoted key')
        segments.push(inner.slice(1, -1))
      } else if (inner === '*' || /^\d+$/.test(inner)) {
        segments.push(inner)
      } else {
        fail(i + 1, 'bracket keys must be quoted strings, numbers or *')
      }
      i = close + 1
      expectSegment = false
    } else if (ch === '.') {
      if (expectSegment) fail(i, 'empty segment')
      i++
      expectSegment = true
      if (i === path.length) fail(i - 1, 'path ends with a dot')
    } else {
      if (!expectSegment) fail(i, 'a segment after brackets needs a dot')
      let end = i
      while (end < path.length && path[end] !== '.' && path[end] !== '[') {
        if (path[end] === ']') fail(end, 'unbalanced ]')
        end++
      }
      const segment = path.slice(i, end)
      if (/\s/.test(segment) || segment.includes('"') || segment.includes("'")) fail(i, 'use brackets and quotes for keys with spaces or quotes')
      segments.push(segment)
      i = end
      expectSegment = false
    }
  }
  return segments
}

function findBracketEnd(path: string, open: number, fail: (column: number, why: string) => never): number {
  let quote: string | undefined
  for (let i = open + 1; i < path.length; i++) {
    const ch = path[i]
    if (quote !== undefined) {
      if (ch === quote) quote = undefined
    } else if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch
    } else if (ch === ']') {
      return i
    } else if (ch === '[') {
      fail(i, 'nested [')
    }
  }
  return fail(open, 'unclosed [')
}

/** Rebuilds a path from segments in the form @pinojs/redact expects. */
function joinSegments(segments: readonly string[]): string {
  let out = ''
  for (const segment of segments) {
    if (segment === '*' || /^[A-Za-z_$][\w$]*$/.test(segment)) out += (out === '' ? '' : '.') + segment
    else if (/^\d+$/.test(segment)) out += '[' + segment + ']'
    else out += '[' + JSON.stringify(segment) + ']'
  }
  return out
}

function normalizeOptions(option: unknown, optionPath: string): Required<RedactOptions> {
  if (Array.isArray(option)) return { paths: option as string[], censor: DEFAULT_CENSOR, remove: false }
  if (typeof option !== 'object' || option === null) {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${optionPath} must be an array of paths or { paths, censor, remove }`, optionPath)
  }
  const { paths, censor = DEFAULT_CENSOR, remove = false } = option as Partial<RedactOptions>
  if (!Array.isArray(paths)) {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${optionPath}.paths must be an array of strings`, `${optionPath}.paths`)
  }
  if (typeof censor !== 'string' && typeof censor !== 'function') {
    // Any JSON value is a usable censor too (e.g. null or 0); keep it as given.
    return { paths, censor: censor as Censor, remove: remove === true }
  }
  return { paths, censor, remove: remove === true }
}

/** The `%o`/`%j` interpolation encoder: censoring when there is a redaction. */
export function interpolationStringify(redaction: Redaction | null, safeStringify: SafeStringify): { stringify: (value: unknown) => string | undefined } {
  if (redaction === null) return { stringify: (value) => stringifyValue(value, safeStringify) }
  const { stringifyAll } = redaction
  return {
    stringify: (value) => {
      try {
        return stringifyAll(value)
      } catch (err) {
        // Never fall back to the unredacted value: say that it could not be written.
        return JSON.stringify('[unable to serialize: ' + (err instanceof Error ? err.message : String(err)) + ']')
      }
    },
  }
}

/**
 * Compiles the redact option. Returns null when there is nothing to redact (an empty array
 * removes an inherited redaction in a child).
 */
export function createRedaction(option: unknown, safeStringify: SafeStringify, optionPath = 'redact'): Redaction | null {
  const { paths, censor, remove } = normalizeOptions(option, optionPath)
  if (paths.length === 0) return null
  const parsed = paths.map((path, index) => parseRedactPath(path, `${optionPath}${Array.isArray(option) ? '' : '.paths'}[${index}]`))

  const serialize = (value: unknown): string => safeStringify(value) ?? 'null'
  const censorValue = (value: unknown, path: string[]): unknown => (typeof censor === 'function' ? censor(value, path) : censor)

  // First segment -> the rest of each path below it (null: the whole key is censored).
  const byTopKey = new Map<string | symbol, string[][] | null>()
  const wildcardRests: string[][] = []
  for (const segments of parsed) {
    const [first, ...rest] = segments as [string, ...string[]]
    const key: string | symbol = first === '*' ? wildcardFirstSym : first
    if (rest.length === 0) {
      byTopKey.set(key, null)
      continue
    }
    if (key === wildcardFirstSym) wildcardRests.push(rest)
    const existing = byTopKey.get(key)
    if (existing === null) continue
    if (existing === undefined) byTopKey.set(key, [rest])
    else existing.push(rest)
  }
  // `*.secret` also applies below every literal top-level key.
  if (wildcardRests.length > 0) {
    for (const [key, rests] of byTopKey) {
      if (key !== wildcardFirstSym && rests !== null) rests.push(...wildcardRests)
    }
  }

  const stringifiers: Record<string | symbol, Stringifier> = Object.create(null)
  for (const [key, rests] of byTopKey) {
    const topName = typeof key === 'string' ? key : '*'
    if (rests === null) {
      stringifiers[key] = remove ? () => undefined : (value) => serialize(censorValue(value, [topName]))
      continue
    }
    const redactor = createRedactor({
      paths: rests.map(joinSegments),
      censor: (typeof censor === 'function' ? (value: unknown, path: string[]) => censor(value, [topName, ...path]) : censor) as string,
      serialize,
      strict: false,
      remove,
    })
    stringifiers[key] = (value) => {
      if (value === null || typeof value !== 'object') return serialize(value)
      return redactor(value) as string
    }
  }

  const allPaths = parsed.map(joinSegments)
  const redactAll = createRedactor({ paths: allPaths, censor: censor as string, serialize, strict: false, remove })
  const redactToObject = createRedactor({ paths: allPaths, censor: censor as string, serialize: false, strict: false, remove })
  const stringifyAll = (value: unknown): string => (value !== null && typeof value === 'object' ? (redactAll(value) as string) : serialize(value))
  // Where pino keeps its whole-object redacting encoder (logger[stringifiersSym][redactFmtSym]).
  stringifiers[redactFmtSym] = stringifyAll

  return {
    stringifiers,
    stringifyAll,
    redactObject: (value) => redactToObject(value) as object,
    paths,
  }
}
