// Level detection for plain-text lines (not JSON). Only a level a format writes counts: a bare
// "error" inside a message ("workerEnv in error state", sshd's "error: Received disconnect") is
// prose, never a level. The rules, first match wins:
//  1. syslog `<PRI>` at the head (RFC 3164 and 5424): its severity;
//  2. a JSON line cut short: its numeric `"level"`;
//  3. glog / klog `E1122 10:00:00.000000 ...`: the letter;
//  4. Android logcat, threadtime `03-17 16:13:38.811  1702  2395 E Tag: msg` or brief/time
//     `E/Tag( 1702): msg`: the letter (V D I W E F A);
//  5. a level name and a colon at the very start (`ERROR:root:msg` of Python's logging, winston's
//     `error: msg`, .NET's `fail: Some.Category[0]`);
//  6. Windows CBS/DISM `2016-09-28 04:30:30, Info   CBS  msg`: the capitalised word after `, `;
//  7. the earliest delimited token in the first HEAD characters: `[error]`, `[core:error]` (Apache
//     2.4), `<crit>`, `level=error` / `level: error` / `lvl=eror` / `severity=ERROR` (logfmt, Go's
//     slog and log15), or an upper-case level word standing alone (log4j, logback, Python's
//     `%(asctime)s - name - ERROR - msg`, BGL's `RAS KERNEL FATAL`): wherever the format puts it
//     among the header fields, not only first.
// Lower- and title-case words count only where a format writes them (rules 5-7's delimiters).
// `agent/prefilter/level-evidence.ts` mirrors each rule on bytes for the pre-filter: a change here
// needs one there (candidate-filter.test.ts checks the mirror on every corpus).
import { levelFromName } from './levels'

const HEAD = 300

/** Where a line's level was read: the token's span in the line. */
export interface LevelMatch {
  level: number
  start: number
  end: number
}

/** The upper-case words that are a token on their own (not next to a letter, digit or `_`). */
export const UPPER_CASE_TOKENS: readonly string[] = [
  'TRACE',
  'DEBUG',
  'INFO',
  'NOTICE',
  'WARN',
  'WARNING',
  'ERROR',
  'ERR',
  'SEVERE',
  'CRIT',
  'CRITICAL',
  'FATAL',
  'PANIC',
  'ALERT',
  'EMERG',
]

// One pass over the head; the earliest token that names a level wins.
// The alternatives, one capture group each: `[warn]` (or `[app:warn]`, `[warn1]`), `<warn>`,
// `level=warn` (or `lvl=`, `severity=`, `level: "warn"`), and a bare upper-case token.
const BRACKETED = String.raw`\[(?:[A-Za-z0-9_]{1,30}:)?([A-Za-z]{3,11})\d?\]`
const ANGLED = String.raw`<([A-Za-z]{3,11})>`
const KEYED = String.raw`\b(?:level\s*[=:]|lvl=|severity=)\s*"?([A-Za-z]{3,11})`
const BARE = String.raw`(?<![A-Za-z0-9_])(${UPPER_CASE_TOKENS.join('|')})(?![A-Za-z0-9_])`
const TOKEN = new RegExp([BRACKETED, ANGLED, KEYED, BARE].join('|'), 'g')

const SYSLOG_PRI = /^<(\d{1,3})>/
// A JSON line that did not parse (cut short, a stray byte) still says its numeric level.
const BROKEN_JSON_LEVEL = /^\{.{0,200}?"level"\s*:\s*(\d{1,3})\b/
const GLOG = /^([IWEF])\d{4} /
/** glog's severity letters (`E1122 10:00:00.000 ...`). */
export const GLOG_LEVELS: Readonly<Record<string, number>> = { I: 30, W: 40, E: 50, F: 60 }

// threadtime: date, time, pid, tid, letter, tag. brief / time: letter, '/', tag, `(pid):`.
const ANDROID_THREADTIME = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ ([VDIWEFA]) /
const ANDROID_BRIEF = /^(?:\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +)?([VDIWEFA])\/[^\s(][^(]{0,60}\( *\d+\): /d
/** Android's priority letters (A: assert, logged by wtf()). */
export const ANDROID_LEVELS: Readonly<Record<string, number>> = { V: 10, D: 20, I: 30, W: 40, E: 50, F: 60, A: 60 }

const HEAD_WORD = /^([A-Za-z]{3,11}):/
const WINDOWS_CBS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, ([A-Z][a-z]{2,10})\s/

// Spellings only a key (`lvl=eror`, log15) or a line's head (`fail:`, .NET) gives a level.
const SHORT_NAMES: Readonly<Record<string, number>> = { eror: 50, fail: 50, dbug: 20, trce: 10 }

/**
 * A level name as a key's value or a line's head word may spell it: every common name plus log15's and
 * .NET's four-letter ones.
 */
export function levelOfWord(word: string): number | undefined {
  const level = levelFromName(word)
  if (level !== undefined) return level
  const key = word.toLowerCase()
  return Object.hasOwn(SHORT_NAMES, key) ? SHORT_NAMES[key] : undefined
}

/** The level of a syslog `<PRI>` (its severity, PRI % 8). */
export function fromSyslogPriority(priority: number): number {
  const severity = priority % 8
  if (severity <= 2) return 60
  if (severity === 3) return 50
  if (severity === 4) return 40
  if (severity <= 6) return 30
  return 20
}

/** The capture `group` of a match as a LevelMatch (its span from the match's index). */
function spanOf(match: RegExpExecArray, group: number, level: number): LevelMatch {
  const text = match[group] as string
  // Every rule's group is the match's last occurrence of its text but brief logcat's letter (the
  // tag may hold it too), whose regex keeps indices.
  const start = match.indices?.[group]?.[0] ?? match.index + match[0].lastIndexOf(text)
  return { level, start, end: start + text.length }
}

const isLetterCode = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/** The rules of the line's head (1-6 above), or undefined. */
function headLevel(head: string): LevelMatch | undefined {
  const first = head.charCodeAt(0)
  if (first === 60 /* < */) {
    const pri = SYSLOG_PRI.exec(head)
    if (pri) return { level: fromSyslogPriority(Number(pri[1])), start: 0, end: pri[0].length }
    return undefined
  }
  if (first === 123 /* { */) {
    const json = BROKEN_JSON_LEVEL.exec(head)
    return json ? spanOf(json, 1, Number(json[1])) : undefined
  }
  // Each layout is tried only where the line's first bytes can start it: most lines try none.
  if (first >= 48 && first <= 57) {
    const android =
      head.charCodeAt(2) === 45 /* - */ ? (ANDROID_THREADTIME.exec(head) ?? ANDROID_BRIEF.exec(head)) : null
    if (android) return spanOf(android, 1, ANDROID_LEVELS[android[1] as string] as number)
    const windows = head.charCodeAt(19) === 44 /* , */ ? WINDOWS_CBS.exec(head) : null
    const level = windows ? levelFromName(windows[1] as string) : undefined
    return windows && level !== undefined ? spanOf(windows, 1, level) : undefined
  }
  const glog = Object.hasOwn(GLOG_LEVELS, head[0] ?? '') ? GLOG.exec(head) : null
  if (glog) return { level: GLOG_LEVELS[glog[1] as string] as number, start: 0, end: 1 }
  const brief = head.charCodeAt(1) === 47 /* / */ ? ANDROID_BRIEF.exec(head) : null
  if (brief) return spanOf(brief, 1, ANDROID_LEVELS[brief[1] as string] as number)
  const word = isLetterCode(first) ? HEAD_WORD.exec(head) : null
  const level = word ? levelOfWord(word[1] as string) : undefined
  return word && level !== undefined ? spanOf(word, 1, level) : undefined
}

/** Where a plain-text line says its level, or undefined when it names none. */
export function findLevel(line: string): LevelMatch | undefined {
  const head = line.length > HEAD ? line.slice(0, HEAD) : line
  const fromHead = headLevel(head)
  if (fromHead !== undefined) return fromHead
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(head); m !== null; m = TOKEN.exec(head)) {
    const group = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 4
    const word = m[group] as string
    const level = group === 3 ? levelOfWord(word) : levelFromName(word)
    if (level !== undefined) return spanOf(m, group, level)
  }
  return undefined
}

/** The level of a plain-text line, or undefined when it names none. */
export function detectLevel(line: string): number | undefined {
  return findLevel(line)?.level
}
