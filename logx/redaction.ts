// Redaction: paths are validated and grouped by their first segment once, at construction.
// The write path then looks up a stringifier per top-level key, so keys no path names cost nothing.
// The nested work is done by @pinojs/redact, which clones what it censors and never mutates the
// caller's object (fast-redact mutates and restores, and carries an open advisory).
import createRedactor = require('@pinojs/redact')
import { LogxError, LogxErrorCodes } from './errors'
import { redactFmtSym, wildcardFirstSym } from './symbols'

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
    throw new LogxError(
      LogxErrorCodes.INVALID_REDACT_PATH,
      `${optionPath}: invalid redact path ${JSON.stringify(path)} at column ${column + 1}: ${why}`,
      optionPath,
    )
  }
  if (typeof path !== 'string') {
    throw new LogxError(
      LogxErrorCodes.INVALID_REDACT_PATH,
      `${optionPath}: redact paths must be strings, got ${typeof path}`,
      optionPath,
    )
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
      if (/\s/.test(segment) || segment.includes('"') || segment.includes("'"))
        fail(i, 'use brackets and quotes for keys with spaces or quotes')
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

function normalizeOptions(option: unknown, optionPath: string): { paths: string[]; censor: unknown; remove: unknown } {
  if (Array.isArray(option)) return { paths: option as string[], censor: DEFAULT_CENSOR, remove: undefined }
  if (typeof option !== 'object' || option === null) {
    throw new LogxError(
      LogxErrorCodes.INVALID_OPTION,
      `${optionPath} must be an array of paths or { paths, censor, remove }`,
      optionPath,
    )
  }
  const { paths, censor = DEFAULT_CENSOR, remove } = option as Partial<RedactOptions>
  if (!Array.isArray(paths)) {
    throw new LogxError(
      LogxErrorCodes.INVALID_OPTION,
      `${optionPath}.paths must be an array of strings`,
      `${optionPath}.paths`,
    )
  }
  // Any JSON value is a usable censor too (e.g. null or 0); with remove there is none.
  return { paths, censor: remove === true ? undefined : censor, remove }
}

// The first segment of a path (a bare name or a bracketed key) and where the rest starts.
const SEGMENT = /[^.[\]]+|\[([^[\]]*?)\]/g

function splitFirst(path: string): { first: string; rest: string | null } {
  SEGMENT.lastIndex = 0
  const head = SEGMENT.exec(path) as RegExpExecArray
  const next = SEGMENT.exec(path)
  const first = head[1] === undefined ? head[0] : head[1].replace(/^(?:"|'|`)(.*)(?:"|'|`)$/, '$1')
  return { first, rest: next === null ? null : path.slice(next.index) }
}

/**
 * Groups the paths by their first segment (null: the whole key is censored). The rests of `*.x`
 * paths join every key seen before them and every key seen after, as pino groups them, so that
 * each key's redactor censors exactly what pino's does.
 */
function groupByFirstSegment(paths: readonly string[]): Map<string | symbol, string[] | null> {
  const groups = new Map<string | symbol, string[] | null>()
  for (const path of paths) {
    const split = splitFirst(path)
    const key: string | symbol = split.first === '*' ? wildcardFirstSym : split.first
    if (split.rest === null) {
      groups.set(key, null)
      continue
    }
    if (groups.get(key) === null) continue
    let rests = groups.get(key)
    if (rests === undefined || rests === null) {
      rests = key === wildcardFirstSym ? [] : [...((groups.get(wildcardFirstSym) as string[] | undefined) ?? [])]
      groups.set(key, rests)
    }
    if (key === wildcardFirstSym) {
      for (const [other, list] of groups) if (typeof other === 'string' && list) list.push(split.rest)
    }
    rests.push(split.rest)
  }
  return groups
}

/**
 * Compiles the redact option into pino's stringifiers: one per first path segment (and
 * wildcardFirstSym for `*.x` paths) plus the whole-object encoder under redactFmtSym, each
 * encoding with `serialize`. An empty list of paths still gives the whole-object encoder, which
 * is what a child's `redact: []` uses for %j (it removes the inherited key censors).
 */
export function createRedaction(option: unknown, serialize: Stringifier, optionPath = 'redact'): Redaction {
  const { paths, censor, remove } = normalizeOptions(option, optionPath)
  paths.forEach((path, index) =>
    parseRedactPath(path, `${optionPath}${Array.isArray(option) ? '' : '.paths'}[${index}]`),
  )
  const base = { serialize, strict: false, remove } as { serialize: Stringifier; strict: false; remove: boolean }
  const stringifiers: Record<string | symbol, Stringifier> = Object.create(null)
  const stringifyAll = createRedactor({ ...base, paths: [...paths], censor: censor as string }) as (
    value: unknown,
  ) => string
  stringifiers[redactFmtSym] = stringifyAll
  for (const [key, rests] of groupByFirstSegment(paths)) {
    if (rests === null) {
      stringifiers[key] =
        typeof censor === 'function' ? (value) => serialize(censor(value, [key as string])) : () => serialize(censor)
      continue
    }
    const wrapped =
      typeof censor === 'function'
        ? (value: unknown, path: string[]) => censor(value, [key as string, ...path])
        : censor
    stringifiers[key] = createRedactor({ ...base, paths: rests, censor: wrapped as string }) as Stringifier
  }
  const redactToObject = createRedactor({ ...base, paths: [...paths], censor: censor as string, serialize: false })
  return { stringifiers, stringifyAll, redactObject: (value) => redactToObject(value) as object, paths }
}
