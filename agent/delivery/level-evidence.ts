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
/** detect-level.ts reads level words of 3 to 11 ASCII letters. */
const WORD_MIN = 3
const WORD_MAX = 11

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)

/** `\s` of a JS regex, as bytes: ASCII whitespace, and any non-ASCII byte (Unicode spaces are multi-byte). */
const isSpaceLike = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c >= 0x80

/**
 * The value V of a line that starts `{"level":V,` with V of 1 to 3 digits, or -1 for any other line.
 * For such a line every path of the full parse gives V unless the line holds another top-level
 * `level` key (see `otherLevelKeyAt`): JSON.parse reads V when the line is valid JSON, and
 * detect-level's broken-JSON rule (`^\{.{0,200}?"level"\s*:\s*(\d{1,3})\b`) matches V first when
 * it is not.
 */
export function jsonPrefixLevel(buf: Buffer, start: number, end: number): number {
  // `{"level":V,` is at least 11 bytes. Spelled out byte by byte: this runs for every JSON line,
  // and constants compare faster than a loop over a prefix buffer.
  if (end - start < 11) return -1
  if (
    buf[start] !== 0x7b /* { */ ||
    buf[start + 1] !== QUOTE ||
    buf[start + 2] !== 0x6c /* l */ ||
    buf[start + 3] !== 0x65 /* e */ ||
    buf[start + 4] !== 0x76 /* v */ ||
    buf[start + 5] !== 0x65 /* e */ ||
    buf[start + 6] !== 0x6c /* l */ ||
    buf[start + 7] !== QUOTE ||
    buf[start + 8] !== COLON
  ) {
    return -1
  }
  const a = (buf[start + 9] as number) - DIGIT_0
  if (a < 0 || a > 9) return -1
  const b = (buf[start + 10] as number) - DIGIT_0
  if (b < 0 || b > 9) return buf[start + 10] === COMMA ? a : -1
  if (end - start < 12) return -1
  const c = (buf[start + 11] as number) - DIGIT_0
  if (c < 0 || c > 9) return buf[start + 11] === COMMA ? a * 10 + b : -1
  return end - start >= 13 && buf[start + 12] === COMMA ? a * 100 + b * 10 + c : -1
}

/** Where the `v` of `level` sits in a line starting `{"level":`. */
export const JSON_PREFIX_V_AT = 4

/** The end of a `"level"` key, searched from its rarest byte. */
export const JSON_LEVEL_KEY_END = Buffer.from('vel"')

/** A JSON key spelled with escapes holds `\u` (no other escape makes letters). */
export const JSON_KEY_ESCAPE = Buffer.from('\\u')

/**
 * At buf[at] (the `v` of a `vel"` hit): a `"level"` key after a comma or JSON whitespace (space,
 * tab, CR), the way a later top-level key would be written; JSON.parse keeps the last of duplicate
 * keys, so a `{"level":V,` line holding one may have another level than V.
 */
export function otherLevelKeyAt(buf: Buffer, at: number): boolean {
  if (buf[at - 1] !== 0x65 /* e */ || buf[at - 2] !== 0x6c /* l */ || buf[at - 3] !== QUOTE) return false
  const before = buf[at - 4]
  return before === COMMA || before === 0x20 || before === 0x09 || before === 0x0d
}

// By first byte, once: this runs for every plain-text line.
const GLOG_BY_BYTE = new Int16Array(256).fill(-1)
for (const [letter, level] of Object.entries(GLOG_LEVELS)) GLOG_BY_BYTE[letter.charCodeAt(0)] = level

/** The level glog's layout (`E1122 ...`) would give a line starting with this byte, or -1. */
export function glogLevel(first: number | undefined): number {
  return first === undefined ? -1 : (GLOG_BY_BYTE[first & 0xff] as number)
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

/** Where the ASCII letters at buf[at..] end (at most WORD_MAX of them, as detect-level's `[A-Za-z]{3,11}` takes them), or -1 for fewer than WORD_MIN. */
function wordEnd(buf: Buffer, at: number, end: number): number {
  let i = at
  while (i < end && i - at < WORD_MAX && isLetter(buf[i] as number)) i++
  return i - at < WORD_MIN ? -1 : i
}

function atLeast(word: string, threshold: number): boolean {
  const level = levelFromName(word)
  return level !== undefined && level >= threshold
}

/** `[word]` or `<word>` at buf[at] (the bracket) naming a level at or above the threshold. */
export function bracketTokenAt(buf: Buffer, at: number, end: number, threshold: number): boolean {
  const close = buf[at] === LESS ? GREATER : CLOSE_BRACKET
  // Checked before the word is made a string: most brackets in logs hold no level.
  const wordStop = wordEnd(buf, at + 1, end)
  if (wordStop === -1 || wordStop >= end || buf[wordStop] !== close) return false
  return atLeast(buf.toString('latin1', at + 1, wordStop), threshold)
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
  const wordStop = wordEnd(buf, i, end)
  return wordStop !== -1 && atLeast(buf.toString('latin1', i, wordStop), threshold)
}

export const OPEN_BRACE_BYTE = OPEN_BRACE
