// The head of a plain-text line: the fields a log writer puts before the message, which the miner
// leaves out so that a kind is the message the program wrote.
// A line no known layout matched (alerts/text-head.ts read it whole) is judged by what its fields look
// like, not by any format. Rules, in order, each skipping one field with the blanks after it, while the
// line lasts:
//  1. A field holding a digit and no lower-case run of three letters: a timestamp or date in any
//     shape (`2005.06.03`, `15:42:50.675872`, `1117838570`, `[10/Oct/2000:13:55:36`), a pid, a
//     host or node name with numbers (`R02-M1-N0`, `dn228`), a `-` placeholder.
//  2. A month or weekday name (`Jun`, `Tue`) before a field of rule 1.
//  3. A lone `-` or a field in brackets holding a digit (`[2915]`, `[12:01:01]`).
// The message starts at the first field none of these take; a line all head is its own message.
// A syslog line (RFC 3164, or a syslog file: text-head's rule 2, the stamp and host) has a message that
// starts with the TAG, the name of the program that wrote it, which alerts keep and the miner does not
// (the same event written by `sshd(pam_unix)` and `gdm(pam_unix)` is one kind):
//  4. The TAG is the message's first field when it ends in `:` before a blank: a name of letters,
//     digits, `.`, `_`, `-` and `/` (`rpc.statd`, `/usr/sbin/cron`), with an optional parenthesised
//     sub-name (`sshd(pam_unix)`, as Linux-PAM's modules write it) and an optional `[pid]`, which
//     macOS may follow with the responsible process in brackets (`sandboxd[129] ([31211]):`).
//  5. A name holding blanks (macOS: `Microsoft Word[2312]:`) is a TAG only before its `[pid]`:
//     without one, words before a colon are the message's (`Out of memory: Kill process 42`).
//  6. A TAG with nothing after it is kept: a line all head is its own message.
// Only the syslog layouts lose it: in other layouts `word: ` is the message's own (`onStart: `).
// Where rules 1-3 stop in a line no layout matched, two layouts put more head fields before the
// message; each is taken only when a message follows it:
//  7. A program or logger name before a lone `-` (`chrome.exe - `, `app.db - `, Proxifier's and
//     log4j's `%c - %m`), after at least one field of rules 1-3, with at most one field of rule 1
//     between them (`chrome.exe *64 - `): a name is letters, digits, `.`, `_`, `$`, `/` and `-`, a
//     letter among them.
//  8. Up to four names (lower-case words, or names holding a digit: hosts, components, states,
//     `node-12 unix.hw state_change.unavailable`) before an epoch timestamp (all digits, seconds or
//     milliseconds since 2000 and before 2038): the writer put them in the head, the stamp ends it,
//     and rules 1-3 go on after it (a flag, a count).
import { syslogHeaderEnd } from '../text-head'

const MONTHS_AND_DAYS = new Set(
  'jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun'.split(' '),
)
const MAX_HEAD_FIELDS = 12
// Rule 8: names before the stamp, and the stamp's range (2000-01-01 to 2038-01-19) in seconds.
const MAX_NAMES_BEFORE_STAMP = 4
const EPOCH_FROM = 946_684_800
const EPOCH_TO = 2_147_483_647
// Rules 4 and 5, at the message's start. RFC 3164 bounds a TAG at 32 characters; real ones run
// longer (a daemon's full path), so the name may have 64, and a name with blanks four words.
const TAG_NAME = String.raw`[\w./-]{1,64}`
const PID = String.raw`\[\d+\]`
const RESPONSIBLE = String.raw`(?: \([\w./ -]{0,64}${PID}\))?`
const ONE_WORD_TAG = String.raw`${TAG_NAME}(?:\(${TAG_NAME}\))?(?:${PID}${RESPONSIBLE})?`
const WORDS_TAG = String.raw`${TAG_NAME}(?: ${TAG_NAME}){1,3}${PID}${RESPONSIBLE}`
const TAG = new RegExp(String.raw`(?:${ONE_WORD_TAG}|${WORDS_TAG}):(?=[ \t])`, 'y')

function isHeadField(line: string, at: number, end: number, nextAt: number, nextEnd: number): boolean {
  if (end - at === 1 && line.charCodeAt(at) === 45 /* - */) return true
  // Month and day names are three letters: no string is cut out for any other field.
  if (end - at === 3 && MONTHS_AND_DAYS.has(line.slice(at, end).toLowerCase())) return hasDigit(line, nextAt, nextEnd)
  let digit = false
  let lowerRun = 0
  for (let i = at; i < end; i++) {
    const c = line.charCodeAt(i)
    if (c >= 48 && c <= 57) digit = true
    if (c >= 97 && c <= 122) {
      if (++lowerRun >= 3) return false
    } else lowerRun = 0
  }
  return digit
}

function hasDigit(line: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i)
    if (c >= 48 && c <= 57) return true
  }
  return false
}

/** Where the message of a line with an unknown head starts (0: no head found). */
export function headEnd(line: string): number {
  let at = skipHeadFields(line, 0)
  const fields = at
  if (at < line.length) {
    const afterStamp = namesBeforeStampEnd(line, at)
    if (afterStamp !== -1) at = skipHeadFields(line, afterStamp)
    else if (fields > 0) at = nameBeforeDashEnd(line, at)
  }
  return at >= line.length ? 0 : at
}

/** Rules 1-3 from `from`: where the first field they do not take starts (or the line's end). */
function skipHeadFields(line: string, from: number): number {
  let at = skipBlanks(line, from)
  for (let n = 0; n < MAX_HEAD_FIELDS && at < line.length; n++) {
    const end = fieldEnd(line, at)
    const nextAt = skipBlanks(line, end)
    if (!isHeadField(line, at, end, nextAt, fieldEnd(line, nextAt))) break
    at = nextAt
  }
  return at
}

/** Rule 7 at the field starting at `at`: where the message after `name [field] - ` starts, else `at`. */
function nameBeforeDashEnd(line: string, at: number): number {
  const nameEnd = fieldEnd(line, at)
  if (!isName(line, at, nameEnd)) return at
  let dashAt = skipBlanks(line, nameEnd)
  const dashEnd = fieldEnd(line, dashAt)
  if (!isLoneDash(line, dashAt, dashEnd)) {
    // One rule-1 field between the name and the dash.
    if (!hasDigit(line, dashAt, dashEnd) || !isHeadField(line, dashAt, dashEnd, dashEnd, dashEnd)) return at
    dashAt = skipBlanks(line, dashEnd)
    if (!isLoneDash(line, dashAt, fieldEnd(line, dashAt))) return at
  }
  const message = skipBlanks(line, dashAt + 1)
  return message >= line.length ? at : message
}

function isLoneDash(line: string, at: number, end: number): boolean {
  return end - at === 1 && line.charCodeAt(at) === 45
}

/** Rule 7's name: letters, digits, `.`, `_`, `$`, `/`, `-`, a letter among them (`360AP.exe`). */
function isName(line: string, at: number, end: number): boolean {
  let letter = false
  for (let i = at; i < end; i++) {
    const c = line.charCodeAt(i)
    if (isLetter(c)) letter = true
    else if (!isDigitCode(c) && c !== 46 && c !== 95 && c !== 36 && c !== 47 && c !== 45) return false
  }
  return letter
}

/** Rule 8 at `at`: where the field after the stamp starts, or -1 when no names-and-stamp start there. */
function namesBeforeStampEnd(line: string, at: number): number {
  let field = at
  for (let n = 0; n <= MAX_NAMES_BEFORE_STAMP && field < line.length; n++) {
    const end = fieldEnd(line, field)
    if (n > 0 && isEpochStamp(line, field, end)) {
      const next = skipBlanks(line, end)
      return next < line.length ? next : -1
    }
    if (n === MAX_NAMES_BEFORE_STAMP || !isHeadName(line, field, end)) return -1
    field = skipBlanks(line, end)
  }
  return -1
}

/** Rule 8's name: lower-case letters, digits, `.`, `_`, `-`; upper-case letters only beside a digit. */
function isHeadName(line: string, at: number, end: number): boolean {
  let upper = false
  for (let i = at; i < end; i++) {
    const c = line.charCodeAt(i)
    if (c >= 65 && c <= 90) upper = true
    else if (!(c >= 97 && c <= 122) && !isDigitCode(c) && c !== 46 && c !== 95 && c !== 45) return false
  }
  return !upper || hasDigit(line, at, end)
}

function isEpochStamp(line: string, at: number, end: number): boolean {
  const length = end - at
  if (length !== 9 && length !== 10 && length !== 12 && length !== 13) return false
  for (let i = at; i < end; i++) if (!isDigitCode(line.charCodeAt(i))) return false
  const value = Number(line.slice(at, end))
  const seconds = length > 10 ? value / 1000 : value
  return seconds >= EPOCH_FROM && seconds <= EPOCH_TO
}

function isLetter(c: number): boolean {
  const lower = c | 0x20
  return lower >= 97 && lower <= 122
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57
}

function skipBlanks(line: string, at: number): number {
  let i = at
  while (i < line.length && line.charCodeAt(i) <= 32) i++
  return i
}

function fieldEnd(line: string, at: number): number {
  let i = at
  while (i < line.length && line.charCodeAt(i) > 32) i++
  return i
}

/**
 * Where, in `message`, the text the miner groups a plain-text line by starts: `message` is the line's
 * message as alerts/text-head.ts found it (the whole line when no layout matched it).
 */
export function messageHeadEnd(line: string, message: string): number {
  if (message === line) return headEnd(line)
  const at = line.length - message.length
  // A syslog message is a suffix after a blank; other layouts' messages are not looked at again.
  if (at <= 0 || line.charCodeAt(at - 1) !== 32 || syslogHeaderEnd(line) !== at) return 0
  return tagEnd(line, at) - at
}

/** Where the message after a syslog TAG at `at` starts (rules 4-6), or `at`. */
function tagEnd(line: string, at: number): number {
  TAG.lastIndex = at
  if (!TAG.test(line)) return at
  const after = skipBlanks(line, TAG.lastIndex)
  return after >= line.length ? at : after
}
