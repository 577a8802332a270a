// Redaction: paths are validated and grouped by their first segment once, at construction.
// The write path then looks up a stringifier per top-level key, so keys no path names cost nothing.
// The nested work is done by @pinojs/redact, which clones what it censors and never mutates the
// caller's object (fast-redact mutates and restores, and carries an open advisory).
import createRedactor = require('@pinojs/redact')
import { LogxError, LogxErrorCodes } from './errors'
import { redactFmtSym, wildcardFirstSym } from './symbols'

export type Censor = string | CensorFn
/** A censor computed from the value and its path; typeof 'function' alone only says Function. */
type CensorFn = (value: unknown, path: string[]) => unknown

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
    // pino's words, its dash included.
    const message = 'pino – redact must contain an array of strings'
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, message, `${optionPath}.paths`)
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

type RedactorOptions = { serialize: Stringifier; strict: false; remove: boolean; paths: string[]; censor: unknown }

/**
 * The redactor of every path, which checks them all: a path it refuses is an error with its words
 * (pino's: `Invalid redaction path (a..b)`), logx's code, and the option's path to it.
 */
function checkedRedactor(options: RedactorOptions, option: unknown, optionPath: string): (value: unknown) => string {
  try {
    return createRedactor(options as Parameters<typeof createRedactor>[0]) as (value: unknown) => string
  } catch (err) {
    const index = options.paths.findIndex((path) => {
      try {
        createRedactor({ paths: [path] })
        return false
      } catch {
        return true
      }
    })
    const at = `${optionPath}${Array.isArray(option) ? '' : '.paths'}[${index}]`
    throw new LogxError(LogxErrorCodes.INVALID_REDACT_PATH, (err as Error).message, at)
  }
}

/**
 * Compiles the redact option into pino's stringifiers: one per first path segment (and
 * wildcardFirstSym for `*.x` paths) plus the whole-object encoder under redactFmtSym, each
 * encoding with `serialize`. An empty list of paths still gives the whole-object encoder, which
 * is what a child's `redact: []` uses for %j (it removes the inherited key censors).
 */
export function createRedaction(option: unknown, serialize: Stringifier, optionPath = 'redact'): Redaction {
  const { paths, censor, remove } = normalizeOptions(option, optionPath)
  const groups = groupByFirstSegment(paths)
  const base = { serialize, strict: false, remove } as { serialize: Stringifier; strict: false; remove: boolean }
  const stringifiers = Object.create(null) as Record<string | symbol, Stringifier>
  const stringifyAll = checkedRedactor({ ...base, paths: [...paths], censor }, option, optionPath)
  stringifiers[redactFmtSym] = stringifyAll
  for (const [key, rests] of groups) {
    if (rests === null) {
      stringifiers[key] =
        typeof censor === 'function'
          ? (value) => serialize((censor as CensorFn)(value, [key as string]))
          : () => serialize(censor)
      continue
    }
    const wrapped =
      typeof censor === 'function'
        ? (value: unknown, path: string[]) => (censor as CensorFn)(value, [key as string, ...path])
        : censor
    stringifiers[key] = createRedactor({ ...base, paths: rests, censor: wrapped as string }) as Stringifier
  }
  const redactToObject = createRedactor({ ...base, paths: [...paths], censor: censor as string, serialize: false })
  return { stringifiers, stringifyAll, redactObject: (value) => redactToObject(value) as object, paths }
}
