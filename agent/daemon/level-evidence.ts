// Byte-level evidence that a line may carry a level at or above a threshold, read in place in a
// read buffer (no decoding, no Buffer view). Each check mirrors one way the full path gives a line
// a level (`alerts/line.ts` for JSON, `alerts/detect-level.ts` for plain text), and errs on the
// side of "yes": the candidate filter (`candidate-filter.ts`) drops a line only when none of them
// can apply, and every line it keeps still goes through the full path.
import { fromSyslogPriority, GLOG_LEVELS, levelFromName, levelNames } from '../../alerts'

const QUOTE = 0x22
const COLON = 0x3a
const COMMA = 0x2c
const EQUALS = 0x3d
const OPEN_BRACE = 0x7b
const LESS = 0x3c
const GREATER = 0x3e
const CLOSE_BRACKET = 0x5d
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39
/** `{"level":` — how logx and pino start every line. */
const JSON_PREFIX = Buffer.from('{"level":')
/** detect-level.ts reads level words of 3 to 11 ASCII letters. */
const WORD_MIN = 3
const WORD_MAX = 11

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)

/** `\s` of a JS regex, as bytes: ASCII whitespace, and any non-ASCII byte (Unicode spaces are multi-byte). */
const isSpaceLike = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c >= 0x80

/**
 * The value V of a line that starts `{"level":V,` with V of 1 to 3 digits, or -1 for any other line.
 * For such a line every path of the full parse gives V unless the line holds another top-level
 * `level` key (see `JSON_EXTRA_LEVEL_KEYS`): JSON.parse reads V when the line is valid JSON, and
 * detect-level's broken-JSON rule (`^\{.{0,200}?"level"\s*:\s*(\d{1,3})\b`) matches V first when
 * it is not.
 */
export function jsonPrefixLevel(buf: Buffer, start: number, end: number): number {
  const digits = start + JSON_PREFIX.length
  if (end - start < JSON_PREFIX.length + 2) return -1
  for (let k = 0; k < JSON_PREFIX.length; k++) if (buf[start + k] !== JSON_PREFIX[k]) return -1
  let value = 0
  let i = digits
  for (; i < end && i < digits + 4; i++) {
    const c = buf[i] as number
    if (c < DIGIT_0 || c > DIGIT_9) break
    value = value * 10 + (c - DIGIT_0)
  }
  const count = i - digits
  if (count === 0 || count > 3 || i >= end || buf[i] !== COMMA) return -1
  return value
}

/**
 * Byte strings whose absence proves that a `{"level":V,` line has no other top-level `level` key
 * (JSON.parse keeps the last of duplicate keys): a later top-level key follows a comma, possibly
 * with JSON whitespace (space, tab, CR) before its quote; a key spelled with escapes holds `\u`.
 */
export const JSON_EXTRA_LEVEL_KEYS: readonly string[] = [',"level', ' "level', '\t"level', '\r"level', '\\u']

/** The level glog's layout (`E1122 ...`) would give a line starting with this byte, or -1. */
export function glogLevel(first: number | undefined): number {
  if (first === undefined) return -1
  return GLOG_LEVELS[String.fromCharCode(first)] ?? -1
}

/**
 * The level names detect-level's uppercase-token rule can report at or above `threshold`, in
 * upper case, leaving out a name that holds another one (`ERR` finds `ERROR`).
 */
export function upperCaseNeedles(threshold: number): string[] {
  const names = levelNames()
    .filter(([, level]) => level >= threshold)
    .map(([name]) => name.toUpperCase())
  const kept = names.filter((name) => !names.some((other) => other !== name && name.includes(other)))
  return [...new Set(kept)].sort()
}

/** The ASCII letters at buf[at..], at most WORD_MAX of them, as detect-level's `[A-Za-z]{3,11}` would take them. */
function wordAt(buf: Buffer, at: number, end: number): { word: string; next: number } | undefined {
  let i = at
  while (i < end && i - at < WORD_MAX && isLetter(buf[i] as number)) i++
  if (i - at < WORD_MIN) return undefined
  return { word: buf.toString('latin1', at, i), next: i }
}

function atLeast(word: string, threshold: number): boolean {
  const level = levelFromName(word)
  return level !== undefined && level >= threshold
}

/** `[word]` or `<word>` at buf[at] (the bracket) naming a level at or above the threshold. */
export function bracketTokenAt(buf: Buffer, at: number, end: number, threshold: number): boolean {
  const close = buf[at] === LESS ? GREATER : CLOSE_BRACKET
  const found = wordAt(buf, at + 1, end)
  if (found === undefined || buf[found.next] !== close || found.next >= end) return false
  return atLeast(found.word, threshold)
}

/** `<PRI>` at buf[at], the start of a line, whose syslog severity is at or above the threshold. */
export function syslogPriorityAt(buf: Buffer, at: number, end: number, threshold: number): boolean {
  let value = 0
  let i = at + 1
  for (; i < end && i <= at + 3; i++) {
    const c = buf[i] as number
    if (c < DIGIT_0 || c > DIGIT_9) break
    value = value * 10 + (c - DIGIT_0)
  }
  if (i === at + 1 || i >= end || buf[i] !== GREATER) return false
  return fromSyslogPriority(value) >= threshold
}

/** `level` at buf[at], then `\s*[=:]\s*"?` and a word naming a level at or above the threshold. */
export function levelKeyTokenAt(buf: Buffer, at: number, end: number, threshold: number): boolean {
  let i = at + 5 // 'level'
  while (i < end && isSpaceLike(buf[i] as number)) i++
  const separator = buf[i]
  if (i >= end || (separator !== EQUALS && separator !== COLON)) return false
  i++
  while (i < end && isSpaceLike(buf[i] as number)) i++
  if (i < end && buf[i] === QUOTE) i++
  const found = wordAt(buf, i, end)
  return found !== undefined && atLeast(found.word, threshold)
}

export const OPEN_BRACE_BYTE = OPEN_BRACE
