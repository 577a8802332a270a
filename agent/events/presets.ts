// The presets: which lines continue an event in the stack traces Java, Python, Go and Node write.
// Each decides on the line's leading bytes (and, for a few shapes, its last byte) without decoding
// it: most lines of a log start with a timestamp digit and are settled by their first byte.
//
// Judgement calls, the same in every preset: a trace's header line written right after a log line
// (Java's `java.lang.IllegalStateException: ...`, Python's `Traceback (most recent call last):`,
// Node's `TypeError: ...`) continues that log line, because loggers write the throwable under the
// message that carries the level. A bare trace printed with no log line before it (an uncaught
// exception on stderr) therefore joins whatever line came before it. Java's
// `Exception in thread "main" ...` and Go's `panic:` / `fatal error:` start an event of their own.
import type { MultilinePreset } from '../config/types'
import { CONTINUES, result, type LineRule } from './line-step'

const TAB = 0x09
const CR = 0x0d
const SPACE = 0x20
const CLOSE_BRACE = 0x7d
const CLOSE_PAREN = 0x29
const COLON = 0x3a
const DOT = 0x2e
const OPEN_BRACKET = 0x5b
const START = 0

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1')

/** `buf[start..end)` begins with `prefix`. */
function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix[i]) return false
  return true
}

/** Nothing but blanks (a `\r` of a CRLF file included). */
function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i]
    if (c !== SPACE && c !== TAB && c !== CR) return false
  }
  return true
}

const isIndent = (c: number | undefined): boolean => c === SPACE || c === TAB
const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39
const isLower = (c: number | undefined): boolean => c !== undefined && c >= 0x61 && c <= 0x7a
const isUpper = (c: number | undefined): boolean => c !== undefined && c >= 0x41 && c <= 0x5a
const isNameByte = (c: number | undefined): boolean =>
  c !== undefined && (isLower(c) || isUpper(c) || isDigit(c) || c === 0x5f /* _ */ || c === 0x24) /* $ */

/** Where the line's text ends, without a trailing `\r`. */
const textEnd = (buf: Buffer, start: number, end: number): number =>
  end > start && buf[end - 1] === CR ? end - 1 : end

/** A preset's step on a decoded line (a container log's inner text): its bytes, encoded once. */
function stepOfText(rule: LineRule, mode: number, text: string): number {
  const buf = Buffer.from(text)
  return rule.step(mode, buf, 0, buf.length)
}

const ERROR_SUFFIXES = [bytes('Exception'), bytes('Error'), bytes('Throwable')]

/** `name` (buf[start..end)) ends with Exception, Error or Throwable. */
function endsLikeError(buf: Buffer, start: number, end: number): boolean {
  for (const suffix of ERROR_SUFFIXES) {
    if (end - start < suffix.length) continue
    let same = true
    for (let i = 0; i < suffix.length && same; i++) same = buf[end - suffix.length + i] === suffix[i]
    if (same) return true
  }
  return false
}

/**
 * An exception's header: a class name ending in Exception, Error or Throwable, alone on the line or
 * followed by `:` (Java's `java.io.IOException: ...`, Node's `TypeError: ...`) or, with `bracket`,
 * by ` [` (Node's `Error [ERR_HTTP_HEADERS_SENT]: ...`). `qualified`: the name must have a dot.
 */
function isErrorHeader(buf: Buffer, start: number, end: number, qualified: boolean, bracket: boolean): boolean {
  const stop = textEnd(buf, start, end)
  let at = start
  let dots = 0
  const limit = Math.min(stop, start + 256)
  while (at < limit && (isNameByte(buf[at]) || buf[at] === DOT)) {
    if (buf[at] === DOT) dots++
    at++
  }
  if (qualified && dots === 0) return false
  if (!endsLikeError(buf, start, at)) return false
  if (at === stop || buf[at] === COLON) return true
  return bracket && buf[at] === SPACE && buf[at + 1] === OPEN_BRACKET
}

// Java: frames (`\tat ...`), `\t... 12 more` and indented `Suppressed:` are indented; `Caused by:`
// is not; the header is a qualified class name.
const CAUSED_BY = bytes('Caused by: ')
const SUPPRESSED = bytes('Suppressed: ')
const ELIDED = bytes('... ')

const java: LineRule = {
  step(_mode, buf, start, end) {
    const c = buf[start]
    if (isIndent(c)) return CONTINUES
    if (c === 0x43 /* C */) return startsWith(buf, start, end, CAUSED_BY) ? CONTINUES : START
    if (c === 0x53 /* S */) return startsWith(buf, start, end, SUPPRESSED) ? CONTINUES : START
    if (c === DOT) return startsWith(buf, start, end, ELIDED) ? CONTINUES : START
    if (isLower(c)) return isErrorHeader(buf, start, end, true, false) ? CONTINUES : START
    return START
  },
  stepText: (mode, text) => stepOfText(java, mode, text),
}

// Python: `Traceback (most recent call last):`, then indented `File ...` and code lines, then the
// exception line (`ValueError: ...`, not indented) which only the mode tells from a new log line;
// chained exceptions add blank lines and `During handling of the above exception...` /
// `The above exception was the direct cause...` between tracebacks.
const PY_NONE = 0
const PY_FRAMES = 1
const PY_RAISED = 2
const PY_CHAINED = 3
const TRACEBACK = bytes('Traceback (most recent call last):')
const STACK = bytes('Stack (most recent call last):')
const DURING = bytes('During handling of the above exception')
const ABOVE = bytes('The above exception was the direct cause')

const python: LineRule = {
  step(mode, buf, start, end) {
    if (isBlank(buf, start, end)) return mode === PY_NONE ? START : result(true, mode)
    const c = buf[start]
    if (isIndent(c))
      return result(true, mode === PY_RAISED || mode === PY_CHAINED ? mode : mode === PY_NONE ? PY_NONE : PY_FRAMES)
    if (c === 0x54 /* T */ && startsWith(buf, start, end, TRACEBACK)) return result(true, PY_FRAMES)
    if (c === 0x53 /* S */ && startsWith(buf, start, end, STACK)) return result(true, PY_FRAMES)
    if (
      (c === 0x44 /* D */ && startsWith(buf, start, end, DURING)) ||
      (c === 0x54 && startsWith(buf, start, end, ABOVE))
    )
      return result(true, PY_CHAINED)
    // After the frames, the first line at the margin is the exception itself.
    if (mode === PY_FRAMES) return result(true, PY_RAISED)
    return START
  },
  stepText: (mode, text) => stepOfText(python, mode, text),
}

// Go: `panic: ...` (or `fatal error: ...`), `[signal ...]`, blank lines, `goroutine N [state]:`,
// then pairs of a function line (`main.(*Server).handle(0x0, ...)`, at the margin, ending in `)`)
// and its tab-indented file line, `created by ...`, and more goroutines after blank lines.
const GO_NONE = 0
const GO_PANIC = 1
const GO_STACK = 2
const PANIC = bytes('panic: ')
const FATAL = bytes('fatal error: ')
const GOROUTINE = bytes('goroutine ')
const SIGNAL = bytes('[signal ')
const CREATED_BY = bytes('created by ')
const ELLIPSIS = bytes('...')

/** `goroutine 17 [running]:` (any state). */
function isGoroutineHeader(buf: Buffer, start: number, end: number): boolean {
  if (!startsWith(buf, start, end, GOROUTINE)) return false
  let at = start + GOROUTINE.length
  if (!isDigit(buf[at])) return false
  while (isDigit(buf[at])) at++
  return buf[at] === SPACE && buf[at + 1] === OPEN_BRACKET
}

const go: LineRule = {
  step(mode, buf, start, end) {
    if (isBlank(buf, start, end)) return mode === GO_NONE ? START : result(true, mode)
    const c = buf[start]
    if (isIndent(c)) return result(true, mode)
    if (c === 0x67 /* g */ && isGoroutineHeader(buf, start, end)) return result(true, GO_STACK)
    if (c === 0x70 /* p */ && startsWith(buf, start, end, PANIC)) return result(false, GO_PANIC)
    if (c === 0x66 /* f */ && startsWith(buf, start, end, FATAL)) return result(false, GO_PANIC)
    if (mode === GO_PANIC)
      return c === OPEN_BRACKET && startsWith(buf, start, end, SIGNAL) ? result(true, GO_PANIC) : START
    if (mode === GO_STACK) {
      // A log line starts with its timestamp's digit; no function name does.
      if (isDigit(c)) return START
      const last = buf[textEnd(buf, start, end) - 1]
      if (last === CLOSE_PAREN || startsWith(buf, start, end, CREATED_BY) || startsWith(buf, start, end, ELLIPSIS))
        return result(true, GO_STACK)
    }
    return START
  },
  stepText: (mode, text) => stepOfText(go, mode, text),
}

// Node: `    at ...` frames are indented, and so are the properties util.inspect prints after
// them (`  code: 'ECONNREFUSED',`); the block closes with `}` at the margin. The header
// (`TypeError: ...`, `Error [ERR_X]: ...`) is a name ending in Error or Exception.
const node: LineRule = {
  step(_mode, buf, start, end) {
    const c = buf[start]
    if (isIndent(c) || c === CLOSE_BRACE) return CONTINUES
    if (isUpper(c)) return isErrorHeader(buf, start, end, false, true) ? CONTINUES : START
    return START
  },
  stepText: (mode, text) => stepOfText(node, mode, text),
}

const PRESETS: Readonly<Record<MultilinePreset, LineRule>> = { java, python, go, node }

export function presetRule(preset: MultilinePreset): LineRule {
  return PRESETS[preset]
}
