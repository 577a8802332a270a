// Byte-level evidence that a line may carry a level at or above a threshold, read in place in a
// read buffer (no decoding, no Buffer view). Each check mirrors one way the full path gives a line
// a level (`alerts/line.ts` for JSON, `alerts/detect-level.ts` for plain text), and errs on the
// side of "yes": the candidate filter (`candidate-filter.ts`) drops a line only when none of them
// can apply, and every line it keeps still goes through the full path.
import {
  ANDROID_LEVELS,
  fromSyslogPriority,
  GLOG_LEVELS,
  levelFromName,
  levelNames,
  levelOfWord,
  UPPER_CASE_TOKENS,
} from '../../alerts'

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
const LETTER_V = 0x76
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
export function jsonPrefixLevel(buf: Buffer, start: number, end: number, view: DataView = viewOf(buf)): number {
  // `{"level":V,` is at least 11 bytes. This runs for every JSON line: `{"le` and `vel"` are
  // compared as two little-endian words, which costs less than nine byte compares.
  if (end - start < 11) return -1
  if (
    view.getUint32(start, true) !== PREFIX_OPEN_LE ||
    view.getUint32(start + 4, true) !== PREFIX_VEL_LE ||
    buf[start + 8] !== COLON
  )
    return -1
  const a = (buf[start + 9] as number) - DIGIT_0
  if (a < 0 || a > 9) return -1
  const b = (buf[start + 10] as number) - DIGIT_0
  if (b < 0 || b > 9) return buf[start + 10] === COMMA ? a : -1
  if (end - start < 12) return -1
  const c = (buf[start + 11] as number) - DIGIT_0
  if (c < 0 || c > 9) return buf[start + 11] === COMMA ? a * 10 + b : -1
  return end - start >= 13 && buf[start + 12] === COMMA ? a * 100 + b * 10 + c : -1
}

/** `{"le` and `vel"` as little-endian words. */
const PREFIX_OPEN_LE = 0x656c227b
const PREFIX_VEL_LE = 0x226c6576

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
const ANDROID_BY_BYTE = new Int16Array(256).fill(-1)
for (const [letter, level] of Object.entries(ANDROID_LEVELS)) ANDROID_BY_BYTE[letter.charCodeAt(0)] = level
const SLASH = 0x2f
const SPACE = 0x20
const DASH = 0x2d

const isDigit = (c: number): boolean => c >= DIGIT_0 && c <= DIGIT_9

/**
 * By first byte: 1 for a line a head rule may apply to (a letter: glog, logcat's brief layout, a
 * level name and a colon), 2 for one whose third or twentieth byte decides (a digit: logcat's
 * `03-17 ...`, whose third byte is `-`, where an ISO date's is a digit; Windows CBS's
 * `2016-09-28 04:30:30, Error`, whose twentieth is `,`), 0 for the rest. Read before `headLevel` is
 * called, so most lines cost one table read.
 */
export const HEAD_RULE_BY_BYTE = new Uint8Array(256)
for (let c = 0; c < 256; c++) HEAD_RULE_BY_BYTE[c] = isLetter(c) ? 1 : isDigit(c) ? 2 : 0

/**
 * The highest level detect-level's head rules (glog, Android logcat, Windows CBS, a level name and a
 * colon at the start) could give the line at buf[start..end), or -1: each rule checked on fewer bytes than
 * its regex reads, so never below what the full path finds.
 */
export function headLevel(buf: Buffer, start: number, end: number): number {
  const first = buf[start] as number
  if (isDigit(first)) {
    if (end - start > 20 && buf[start + 2] === DASH) return androidStampedLevel(buf, start, end)
    return end - start > 21 && buf[start + 19] === COMMA ? windowsLevel(buf, start, end) : -1
  }
  if (!isLetter(first)) return -1
  let level = GLOG_BY_BYTE[first] as number
  if (buf[start + 1] === SLASH && start + 1 < end) level = Math.max(level, ANDROID_BY_BYTE[first] as number)
  // `word:` at the start (3 to 11 letters, as the full path reads them).
  const stop = wordEnd(buf, start, end)
  if (stop !== -1 && stop < end && buf[stop] === COLON)
    level = Math.max(level, levelOfWord(buf.toString('latin1', start, stop)) ?? -1)
  return level
}

/** Windows CBS/DISM (`2016-09-28 04:30:30, Error   CBS msg`): the word after the stamp's `, `. */
function windowsLevel(buf: Buffer, start: number, end: number): number {
  if (buf[start + 20] !== SPACE) return -1
  const stop = wordEnd(buf, start + 21, end)
  return stop === -1 ? -1 : (levelFromName(buf.toString('latin1', start + 21, stop)) ?? -1)
}

/**
 * logcat's threadtime (`03-17 16:13:38.811  1702  2395 E Tag: msg`) and time
 * (`03-17 16:13:38.811 E/Tag( 1702): msg`) layouts, from the time on.
 */
function androidStampedLevel(buf: Buffer, start: number, end: number): number {
  if (buf[start + 5] !== SPACE || buf[start + 8] !== COLON || buf[start + 14] !== 0x2e /* . */) return -1
  let i = start + 18
  const spaces = (): void => {
    while (i < end && buf[i] === SPACE) i++
  }
  const digits = (): boolean => {
    const from = i
    while (i < end && isDigit(buf[i] as number)) i++
    return i > from
  }
  spaces()
  const letter = ANDROID_BY_BYTE[buf[i] as number] as number
  if (i + 1 < end && buf[i + 1] === SLASH) return letter
  if (!digits()) return -1
  spaces()
  if (!digits()) return -1
  spaces()
  return i + 1 < end && buf[i + 1] === SPACE ? (ANDROID_BY_BYTE[buf[i] as number] as number) : -1
}

/**
 * Bytes no token of detect-level can start with: a token starts with `[`, `<`, the `l` of `level` /
 * `lvl=`, the `s` of `severity=` or an upper-case letter (`Z` starts none). A line's stamp
 * (`2026-11-22 10:00:00,003 `, `2026/11/22 10:00:00 `, `... 10:00:00.003Z `) is made of them.
 */
const NO_TOKEN_START = new Uint8Array(256)
for (let c = 0; c < 256; c++)
  NO_TOKEN_START[c] = c === 0x5b || c === LESS || c === 0x6c || c === 0x73 || (c >= 0x41 && c <= 0x59) ? 0 : 1
const LETTER_T = 0x54
const OPEN_BRACKET = 0x5b
/** How far into a line the stamp before its first token is looked for. */
const LEAD_MAX = 64
/**
 * `[A-Za-z0-9_]`: what may not touch an upper-case token on either side; Apache's module names, and
 * the word and digit of `[trace3]`.
 */
const WORD_BYTE = new Uint8Array(256)
for (let c = 0; c < 256; c++) WORD_BYTE[c] = isLetter(c) || isDigit(c) || c === 0x5f /* _ */ ? 1 : 0

// The upper-case token words, grouped by first byte in flat arrays: this runs for every plain-text line.
const TOKEN_WORDS = [...UPPER_CASE_TOKENS].sort().map((word) => Buffer.from(word))
const TOKEN_LEVELS = Int32Array.from(TOKEN_WORDS, (word) => levelFromName(word.toString('latin1')) as number)
const TOKENS_FROM = new Int32Array(256).fill(-1)
const TOKENS_TO = new Int32Array(256).fill(-1)
TOKEN_WORDS.forEach((word, index) => {
  const first = word[0] as number
  if (TOKENS_FROM[first] === -1) TOKENS_FROM[first] = index
  TOKENS_TO[first] = index + 1
})

/** A DataView over a Buffer's bytes, for reading four at a time. */
export function viewOf(buf: Buffer): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
}

/**
 * The stamp's `T` and `[` that start no token: ISO 8601's `T` before a digit (only `TRACE` starts
 * with it), and a `[` before a byte that starts no word, or before digits not followed by `:` (a
 * bracket token holds letters, or a `module:` first): `[2026-11-22 10:00:00]`.
 */
function startsNoToken(buf: Buffer, i: number, limit: number): boolean {
  const c = buf[i] as number
  if (i + 1 >= limit) return false
  const next = buf[i + 1] as number
  if (c === LETTER_T) return isDigit(next)
  if (c !== OPEN_BRACKET || isLetter(next)) return false
  let j = i + 1
  while (j < limit && WORD_BYTE[buf[j] as number] === 1) j++
  return j < limit && buf[j] !== COLON
}

/**
 * The level of the line's first token when that token is an upper-case level word after bytes that
 * start no token (log4j's `2026-11-22 10:00:00,003 INFO  [main] ...`, Python's `... - name - ERROR
 * - ...`), or -1. When no head rule applies, detect-level takes the earliest token: this one, so it
 * is the line's level whatever the rest of the line holds.
 */
export function leadingTokenLevel(buf: Buffer, start: number, end: number, view: DataView = viewOf(buf)): number {
  const limit = end < start + LEAD_MAX ? end : start + LEAD_MAX
  let i = start
  for (;;) {
    // Four bytes at a time while all are below `A` and none is `<` (a stamp's digits and
    // separators): none starts a token. The bit tricks flag a byte >= 0x41 and a byte equal to `<`.
    while (i + 4 <= limit) {
      const word = view.getUint32(i, true)
      const less = word ^ 0x3c3c3c3c
      if ((((word + 0x3f3f3f3f) | word) & 0x80808080) !== 0 || ((less - 0x01010101) & ~less & 0x80808080) !== 0) break
      i += 4
    }
    if (i < limit && (NO_TOKEN_START[buf[i] as number] === 1 || startsNoToken(buf, i, limit))) i++
    else break
  }
  if (i >= limit || (i > start && WORD_BYTE[buf[i - 1] as number] === 1)) return -1
  const first = buf[i] as number
  for (let w = TOKENS_FROM[first] as number; w < (TOKENS_TO[first] as number); w++) {
    const word = TOKEN_WORDS[w] as Buffer
    const after = i + word.length
    if (after > end || (after < end && WORD_BYTE[buf[after] as number] === 1)) continue
    let k = 1
    while (k < word.length && buf[i + k] === word[k]) k++
    if (k === word.length) return TOKEN_LEVELS[w] as number
  }
  return -1
}

/**
 * The level names detect-level's uppercase-token rule can report at or above `threshold`, in
 * upper case, leaving out a name that holds another one (`ERR` finds `ERROR`).
 */
export function upperCaseNeedles(threshold: number): string[] {
  return shortest(namesAtLeast(threshold).map((name) => name.toUpperCase()))
}

function namesAtLeast(threshold: number): string[] {
  return levelNames()
    .filter(([, level]) => level >= threshold)
    .map(([name]) => name)
}

function shortest(names: readonly string[]): string[] {
  const kept = names.filter((name) => !names.some((other) => other !== name && name.includes(other)))
  return [...new Set(kept)].sort()
}

/**
 * Where the ASCII letters at buf[at..] end (at most WORD_MAX of them, as detect-level's `[A-Za-z]{3,11}`
 * takes them), or -1 for fewer than WORD_MIN.
 */
function wordEnd(buf: Buffer, at: number, end: number): number {
  let i = at
  while (i < end && i - at < WORD_MAX && isLetter(buf[i] as number)) i++
  return i - at < WORD_MIN ? -1 : i
}

function atLeast(word: string, threshold: number): boolean {
  const level = levelFromName(word)
  return level !== undefined && level >= threshold
}

/**
 * `[word]`, `[module:word]` (Apache 2.4's `[core:error]`, a digit allowed after the word as in
 * `[core:trace3]`) or `<word>` at buf[at] (the bracket) naming a level at or above the threshold.
 */
export function bracketTokenAt(buf: Buffer, at: number, end: number, threshold: number): boolean {
  if (buf[at] === LESS) return closedWordAt(buf, at + 1, end, GREATER, false, threshold)
  // One pass over what may be a module or the word: most brackets in logs (`[main]`, `[pid 12]`,
  // `[api-7f9c]`) stop it at a byte that is neither `:` nor `]`. The module may be any length
  // here (the full path takes 1 to 30 of these characters).
  let i = at + 1
  while (i < end && WORD_BYTE[buf[i] as number] === 1) i++
  if (i >= end) return false
  if (buf[i] === COLON) return i > at + 1 && closedWordAt(buf, i + 1, end, CLOSE_BRACKET, true, threshold)
  return buf[i] === CLOSE_BRACKET && closedWordAt(buf, at + 1, end, CLOSE_BRACKET, true, threshold)
}

/**
 * A word at buf[at] (3 to 11 letters), a digit if `digit` allows one, then `close`; the word names a
 * level at or above the threshold.
 */
function closedWordAt(buf: Buffer, at: number, end: number, close: number, digit: boolean, threshold: number): boolean {
  // Checked before the word is made a string: most brackets in logs hold no level.
  const wordStop = wordEnd(buf, at, end)
  if (wordStop === -1 || wordStop >= end) return false
  const closeAt = digit && isDigit(buf[wordStop] as number) ? wordStop + 1 : wordStop
  if (closeAt >= end || buf[closeAt] !== close) return false
  return atLeast(buf.toString('latin1', at, wordStop), threshold)
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

/** The keys detect-level reads a level after: `level` (then `=` or `:`), `lvl=` and `severity=`. */
export const LEVEL_KEYS: readonly Buffer[] = [Buffer.from('level'), Buffer.from('lvl='), Buffer.from('severity=')]

/**
 * One of LEVEL_KEYS at buf[at], then `\s*"?` and a word naming a level at or above the threshold
 * (log15's `eror` too).
 */
export function levelKeyTokenAt(buf: Buffer, at: number, end: number, threshold: number): boolean {
  let i: number
  if (buf[at] === 0x73 /* s */)
    i = at + 9 // 'severity='
  else if (buf[at + 1] === LETTER_V)
    i = at + 4 // 'lvl='
  else {
    i = at + 5 // 'level'
    while (i < end && isSpaceLike(buf[i] as number)) i++
    const separator = buf[i]
    if (i >= end || (separator !== EQUALS && separator !== COLON)) return false
    i++
  }
  while (i < end && isSpaceLike(buf[i] as number)) i++
  if (i < end && buf[i] === QUOTE) i++
  const wordStop = wordEnd(buf, i, end)
  if (wordStop === -1) return false
  const level = levelOfWord(buf.toString('latin1', i, wordStop))
  return level !== undefined && level >= threshold
}

export const OPEN_BRACE_BYTE = OPEN_BRACE
