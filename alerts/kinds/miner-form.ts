// A message's masked form in one pass (miner-mask.ts has the rules): the tokens joined by FORM_SEP,
// the key the miner looks a repeat up by. Built without a string per token for the words that stay
// as they are (most of them): the words between two variables are copied as one slice of the line.
// The steps: (1) find the tokens and whether each may hold a variable (a digit, `/`, `@`, `\`, a
// quote); (2) mask those (maskToken); (3) a month or weekday next to a variable is a variable
// (rule 7), and so are a unit of time or size after one (rule 8) and a quantity restated in brackets
// after one (rule 9); (4) join, runs of `<*>` as one (rule 6), a leading `<*>` dropped when asked.
import {
  isJoiner,
  maskQuotedToken,
  maskToken,
  MAX_MESSAGE,
  MAX_TOKENS,
  QUOTED_BLANK,
  quoteEnd,
  WILDCARD,
} from './miner-mask'

/** Between the tokens of a form. */
export const FORM_SEP = ' '

const LITERAL = 0
const MASKED = 1
const VARIABLE = 2

const MONTHS_AND_DAYS = new Set(
  (
    'jan feb mar apr may jun jul aug sep oct nov dec january february march april june july august september ' +
    'october november december mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday'
  ).split(' '),
)

/** A word's first three letters, lower-cased, as one number: a month or day name is looked up only then. */
function prefixKey(text: string, at: number): number {
  return (
    ((text.charCodeAt(at) | 0x20) << 16) | ((text.charCodeAt(at + 1) | 0x20) << 8) | (text.charCodeAt(at + 2) | 0x20)
  )
}

const DATE_PREFIXES = new Set([...MONTHS_AND_DAYS].map((name) => prefixKey(name, 0)))

const UNITS = new Set(
  (
    'ns us µs ms msec msecs millis milliseconds s sec secs second seconds min mins minute minutes ' +
    'h hr hrs hour hours day days byte bytes kb mb gb tb pb kib mib gib tib'
  ).split(' '),
)
const MAX_UNIT_LENGTH = 13

// Reused between calls: the miner is synchronous, so one line is in here at a time.
const starts = new Int32Array(MAX_TOKENS)
const ends = new Int32Array(MAX_TOKENS)
const kinds = new Uint8Array(MAX_TOKENS)
const masked: string[] = new Array<string>(MAX_TOKENS).fill('')

/** The masked form of a message; `dropLeading`: a `<*>` before the first word is left out. */
export function maskedForm(message: string, dropLeading: boolean): string {
  const text = message.length > MAX_MESSAGE ? message.slice(0, MAX_MESSAGE) : message
  const count = scanTokens(text)
  markDates(text, count)
  markUnits(text, count)
  markRestated(text, count)
  return joinForm(text, count, dropLeading)
}

/** The tokens of a form (a template seeded back is read the same way: masking a template is a no-op). */
export function formTokens(form: string): string[] {
  return form.split(FORM_SEP)
}

/** A template as people read it, from its tokens. */
export function templateOf(tokens: readonly string[]): string {
  const joined = tokens.join(' ')
  return joined.includes(QUOTED_BLANK) ? joined.replaceAll(QUOTED_BLANK, ' ') : joined
}

function scanTokens(text: string): number {
  let count = 0
  let i = 0
  while (i < text.length && count < MAX_TOKENS) {
    while (i < text.length && text.charCodeAt(i) <= 32) i++
    if (i >= text.length) break
    const start = i
    let suspect = false
    let quoted = false
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c <= 32) break
      if ((c >= 48 && c <= 57) || c === 47 || c === 64 || c === 92) suspect = true
      else if (c === 34 || c === 39) {
        const end = quoteEnd(text, i, start)
        if (end !== -1) {
          quoted = true
          i = end
        }
      }
    }
    starts[count] = start
    ends[count] = i
    if (quoted) kindOf(count, maskQuotedToken(text, start, i))
    else if (suspect) kindOf(count, maskSpan(text, start, i))
    else kinds[count] = LITERAL
    count++
  }
  return count
}

/**
 * maskToken of `text` from `start` to `end`, without cutting the token out in the common case: a token
 * with a digit and no joiner (`12`, `0x1f`, `blk_-42`, `10.0.0.1`) is one part holding a digit, which
 * maskToken makes `<*>` whatever else it holds (a path or hex groups are `<*>` too).
 */
function maskSpan(text: string, start: number, end: number): string {
  let digit = false
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) digit = true
    else if (isJoiner(c)) return maskToken(text.slice(start, end))
  }
  return digit ? WILDCARD : maskToken(text.slice(start, end))
}

function kindOf(index: number, token: string): void {
  kinds[index] = token === WILDCARD ? VARIABLE : MASKED
  masked[index] = token
}

function markDates(text: string, count: number): void {
  // Forwards, then backwards: `Fri Jun 24` makes `Jun` a variable first, then `Fri`.
  for (let k = 0; k < count; k++) markDate(text, k, count)
  for (let k = count - 1; k >= 0; k--) markDate(text, k, count)
}

function markDate(text: string, k: number, count: number): void {
  if (kinds[k] !== LITERAL) return
  const length = (ends[k] as number) - (starts[k] as number)
  if (length < 3 || length > 10) return
  if (kinds[k - 1] !== VARIABLE && (k + 1 >= count || kinds[k + 1] !== VARIABLE)) return
  if (!DATE_PREFIXES.has(prefixKey(text, starts[k] as number))) return
  let word = text.slice(starts[k], ends[k]).toLowerCase()
  if (word.endsWith(',')) word = word.slice(0, -1)
  if (MONTHS_AND_DAYS.has(word)) kinds[k] = VARIABLE
}

/** Whether token k is a unit (rule 8), after a `)` that closes it when `closing` (rule 9), before a `,` `.` `;`. */
function isUnit(text: string, k: number, closing: boolean): boolean {
  if (kinds[k] !== LITERAL) return false
  const start = starts[k] as number
  let end = ends[k] as number
  const last = text.charCodeAt(end - 1)
  if (last === 44 || last === 46 || last === 59) end--
  if (closing) {
    if (text.charCodeAt(end - 1) !== 41 /* ) */) return false
    end--
  }
  return end - start <= MAX_UNIT_LENGTH && UNITS.has(text.slice(start, end).toLowerCase())
}

/** Rule 8: a unit of time or size after a variable is a variable (joined with it into one `<*>`). */
function markUnits(text: string, count: number): void {
  for (let k = 1; k < count; k++) {
    if (kinds[k - 1] === VARIABLE && isUnit(text, k, false)) kinds[k] = VARIABLE
  }
}

/**
 * Rule 9: a quantity restated with its unit in brackets right after one (`1190 bytes (1.16 KB)`) is part
 * of it. Only with a unit: a bracketed `<*>` alone may be another thing (`from 10.0.0.1 (host-10-0-0-1)`).
 */
function markRestated(text: string, count: number): void {
  for (let k = 1; k + 1 < count; k++) {
    if (kinds[k] !== MASKED || kinds[k - 1] !== VARIABLE || masked[k] !== '(<*>') continue
    if (isUnit(text, k + 1, true)) {
      kinds[k] = VARIABLE
      kinds[k + 1] = VARIABLE
    }
  }
}

function joinForm(text: string, count: number, dropLeading: boolean): string {
  let out = ''
  let runStart = -1
  let runEnd = -1
  let previousVariable = false
  for (let k = 0; k < count; k++) {
    const kind = kinds[k]
    if (kind === LITERAL) {
      const start = starts[k] as number
      // Words one blank apart are copied as one slice; other blanks end the slice.
      if (runStart !== -1 && (start !== runEnd + 1 || text.charCodeAt(runEnd) !== 32)) {
        out += (out === '' ? '' : FORM_SEP) + text.slice(runStart, runEnd)
        runStart = -1
      }
      if (runStart === -1) runStart = start
      runEnd = ends[k] as number
      previousVariable = false
      continue
    }
    if (runStart !== -1) {
      out += (out === '' ? '' : FORM_SEP) + text.slice(runStart, runEnd)
      runStart = -1
    }
    const empty = out === ''
    if (kind === VARIABLE) {
      if (previousVariable || (empty && dropLeading && k + 1 < count)) continue
      previousVariable = true
    } else previousVariable = false
    out += (empty ? '' : FORM_SEP) + (kind === VARIABLE ? WILDCARD : (masked[k] as string))
  }
  if (runStart !== -1) out += (out === '' ? '' : FORM_SEP) + text.slice(runStart, runEnd)
  return out
}
