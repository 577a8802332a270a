// A redact path split into its segments, for the agent's own censoring of alert lines (rules' and
// targets' `redact`). The logger no longer splits paths (it hands them to @pinojs/redact, as pino
// does), so this is the one splitter; a path must also be one the logger takes, so an app's `redact`
// list works unchanged in its alert targets and the agent's YAML.
import createRedactor = require('@pinojs/redact')

/** Thrown with what is wrong and where (`at column N`); callers add the option or file position. */
export class RedactPathError extends Error {}

function fail(path: string, column: number, why: string): never {
  throw new RedactPathError(`invalid redact path ${JSON.stringify(path)} at column ${column + 1}: ${why}`)
}

function bracketEnd(path: string, open: number): number {
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
      fail(path, i, 'nested [')
    }
  }
  return fail(path, open, 'unclosed [')
}

/** `[...]` at `open`: its key, and where the path goes on. */
function bracketSegment(path: string, open: number): { segment: string; next: number } {
  const close = bracketEnd(path, open)
  const inner = path.slice(open + 1, close).trim()
  if (inner === '') fail(path, open, 'empty brackets')
  const quote = inner[0]
  if (quote === '"' || quote === "'" || quote === '`') {
    if (inner.length < 2 || inner[inner.length - 1] !== quote) fail(path, open, 'unterminated quoted key')
    return { segment: inner.slice(1, -1), next: close + 1 }
  }
  if (inner !== '*' && !/^\d+$/.test(inner)) fail(path, open + 1, 'bracket keys must be quoted strings, numbers or *')
  return { segment: inner, next: close + 1 }
}

/** A plain key at `start`: up to the next `.` or `[`. */
function plainSegment(path: string, start: number): { segment: string; next: number } {
  let end = start
  while (end < path.length && path[end] !== '.' && path[end] !== '[') {
    if (path[end] === ']') fail(path, end, 'unbalanced ]')
    end++
  }
  const segment = path.slice(start, end)
  if (/\s/.test(segment) || segment.includes('"') || segment.includes("'")) {
    fail(path, start, 'use brackets and quotes for keys with spaces or quotes')
  }
  return { segment, next: end }
}

function splitPath(path: string): string[] {
  if (path.length === 0) fail(path, 0, 'empty path')
  const segments: string[] = []
  let i = 0
  let expectSegment = true
  while (i < path.length) {
    if (path[i] === '.') {
      if (expectSegment) fail(path, i, 'empty segment')
      i++
      expectSegment = true
      if (i === path.length) fail(path, i - 1, 'path ends with a dot')
      continue
    }
    if (path[i] !== '[' && !expectSegment) fail(path, i, 'a segment after brackets needs a dot')
    const { segment, next } = path[i] === '[' ? bracketSegment(path, i) : plainSegment(path, i)
    segments.push(segment)
    i = next
    expectSegment = false
  }
  return segments
}

/** The path's segments; throws a RedactPathError when the logger would refuse it or it cannot be split. */
export function parseRedactPath(path: string): string[] {
  const segments = splitPath(path)
  try {
    createRedactor({ paths: [path] })
  } catch (err) {
    throw new RedactPathError((err as Error).message)
  }
  return segments
}
