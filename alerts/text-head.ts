// Where a plain-text line's message starts: alerts (an SMS has 160 characters) show the message,
// not the timestamp, level, pid, thread and logger a format writes before it. The line itself
// stays whole in `raw`, which mail bodies and test-rule show.
//
// The rule: the message starts after the fields the format puts before it (timestamps, host,
// level, pid, thread or request `[...]`, logger name), with one exception: syslog's program tag
// (`sshd[123]: msg`) is kept, since in a file many programs share it is the only thing saying
// which one wrote the line. By layout, first match wins:
//  1. logfmt / Go's slog (`time=... level=ERROR msg="db down" err=...`): the value of `msg`;
//  2. syslog RFC 5424 (`<PRI>1 TIMESTAMP HOST APP PROCID MSGID SD MSG`): MSG; RFC 3164 and
//     syslog files (`<PRI>Nov 25 10:00:01 host sshd[123]: msg`, the `<PRI>` optional, or an RFC
//     3339 time before `host tag[pid]:`): from the tag;
//  3. glog (`E1122 10:00:00.000000 123 main.go:10] msg`): after the `] `;
//  4. Android logcat: after the tag's `: ` (threadtime) or `(pid): ` (brief);
//  5. any other line whose level detect-level read from its header (everything before the level
//     token looks like fields, not prose: no two lower-case words in a row outside brackets): after
//     the level, then, in this order and each only if present, a pid before `---` or `[`, `---`,
//     `[...]` groups, and a logger (a dotted name such as `org.apache.hadoop.Foo` or
//     `dfs.DataNode$PacketResponder` before `:`, `[` or ` - `, but not an exception's name;
//     Python's `name:` in `ERROR:name:msg`; or a word padded into a column as Windows CBS's
//     `CBS    `), then `[...]` groups again; a separator holding a dash (` - `) ends the header.
// Every message but logfmt's is a suffix of the line. When no rule applies, or the message
// would be empty, it is the whole line.
import type { LevelMatch } from './detect-level'

// Sticky (`y`): each is tried at one position of the line (lastIndex), never searched for, and no
// part of the line is copied to try it. This runs for every selected plain-text line.
const LOGFMT_KEY = /[A-Za-z_][\w.-]*=/y
const LOGFMT_MSG = /(?:^| )(?:msg|message)=/

const PRI = /<\d{1,3}>/y
// RFC 5424 after the PRI: VERSION TIMESTAMP HOSTNAME APP-NAME PROCID MSGID, then SD.
const RFC5424 = /\d{1,2} \S+ \S+ \S+ \S+ \S+ /y
const SYSLOG_STAMP_HOST = /[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ /y
const RFC3339_HOST_TAG = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) \S+ (?=[\w./()-]+\[\d+\]: )/y
const GLOG = /[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^\] ]+\] /y
const ANDROID_THREADTIME = /\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ [VDIWEFA] (?:[^:]{1,60}: )?/y
const ANDROID_BRIEF = /(?:\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +)?[VDIWEFA]\/[^(]{1,60}\( *\d+\): /y

const PROSE = /[a-z]{2,} [a-z]{2,}/
const BRACKETED = /\[[^\]]*\]/g

/** The message of a plain-text line; `level` is where detect-level read its level (findLevel). */
export function textMessage(line: string, level: LevelMatch | undefined): string {
  const logfmt = logfmtMessage(line)
  if (logfmt !== undefined) return logfmt
  const start = textMessageStart(line, level)
  return start === 0 ? line : line.slice(start)
}

/** Where the message starts in the line by rules 2-5 (0: the whole line). */
export function textMessageStart(line: string, level: LevelMatch | undefined): number {
  const start = layoutStart(line) ?? (level === undefined ? 0 : afterLevel(line, level))
  // Nothing but blanks after the header: the line says nothing else, so it is its own message.
  for (let i = start; i < line.length; i++) if (line.charCodeAt(i) > 32) return start
  return 0
}

/** Where `pattern` (sticky) matched at `at` ends, or -1. */
function endOf(pattern: RegExp, line: string, at: number): number {
  pattern.lastIndex = at
  return pattern.test(line) ? pattern.lastIndex : -1
}

/** Past `pattern` at `at`, or `at` when it does not match there. */
function skip(line: string, at: number, pattern: RegExp): number {
  const end = endOf(pattern, line, at)
  return end === -1 ? at : end
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90
const isDigitCode = (c: number): boolean => c >= 48 && c <= 57

// Each layout is tried only on lines whose first bytes can start it.
function layoutStart(line: string): number | undefined {
  const pri = line.charCodeAt(0) === 60 /* < */ ? endOf(PRI, line, 0) : -1
  const at = pri === -1 ? 0 : pri
  if (pri !== -1) {
    const rfc5424 = endOf(RFC5424, line, at)
    if (rfc5424 !== -1) return rfc5424 + structuredDataEnd(line, rfc5424)
  }
  const first = line.charCodeAt(at)
  if (isUpper(first)) {
    const syslog = endOf(SYSLOG_STAMP_HOST, line, at)
    if (syslog !== -1) return syslog
  } else if (isDigitCode(first) && line.charCodeAt(at + 10) === 84 /* T */) {
    const rfc3339 = endOf(RFC3339_HOST_TAG, line, at)
    if (rfc3339 !== -1) return rfc3339
  }
  if (pri !== -1) return at
  if (isUpper(first)) {
    const other = Math.max(endOf(GLOG, line, 0), line.charCodeAt(1) === 47 /* / */ ? endOf(ANDROID_BRIEF, line, 0) : -1)
    return other === -1 ? undefined : other
  }
  if (isDigitCode(first) && line.charCodeAt(2) === 45 /* - */) {
    const android = Math.max(endOf(ANDROID_THREADTIME, line, 0), endOf(ANDROID_BRIEF, line, 0))
    return android === -1 ? undefined : android
  }
  return undefined
}

/**
 * Where rule 2's RFC 3164 or syslog-file header (`<PRI>` optional, the stamp, the host) ends, which is
 * where that layout's message starts, with the program's tag; -1 for a line of no such header. The kinds
 * miner (alerts/kinds/miner-head.ts) asks it to tell a syslog message from other layouts' messages.
 */
export function syslogHeaderEnd(line: string): number {
  const pri = line.charCodeAt(0) === 60 /* < */ ? endOf(PRI, line, 0) : -1
  const at = pri === -1 ? 0 : pri
  const first = line.charCodeAt(at)
  if (isUpper(first)) return endOf(SYSLOG_STAMP_HOST, line, at)
  if (isDigitCode(first) && line.charCodeAt(at + 10) === 84 /* T */) return endOf(RFC3339_HOST_TAG, line, at)
  return -1
}

/**
 * How long RFC 5424's STRUCTURED-DATA at line[at] is (`-` or `[...]` elements, `\\]` escaped inside),
 * with the space and BOM after it.
 */
function structuredDataEnd(line: string, at: number): number {
  let i = at
  if (line[i] === '-') i++
  else {
    while (line[i] === '[') {
      i++
      while (i < line.length && line[i] !== ']') i += line[i] === '\\' ? 2 : 1
      i++
    }
  }
  if (line[i] === ' ') i++
  if (line[i] === '\uFEFF') i++
  return Math.min(i, line.length) - at
}

/**
 * Rule 5 as one sticky pattern from the end of the level word, matching the header fields after it:
 * what it matches ends where the message starts. One pattern rather than a walk in code: a fresh
 * agent compiles a regular expression far more cheaply than the functions that would walk it.
 * Separators: blanks, and `:`, `|`, `,` or one to three dashes before a blank; one holding a dash
 * (Python's `- ERROR - msg`, ZooKeeper's `[thread] - msg`) ends the header.
 */
const AFTER_LEVEL = (() => {
  const sep = String.raw`(?:[ \t]|[:|,](?=[ \t])|-{1,3}(?=[ \t]))`
  const plainSep = String.raw`(?:[ \t]|[:|,](?=[ \t]))`
  const dashSep = `${plainSep}*-{1,3}(?=[ \\t])${sep}*`
  // `[...]`, one level of nesting inside (ZooKeeper's `[QuorumPeer[myid=1]/...]`).
  const bracket = String.raw`\[(?:[^\[\]]|\[[^\[\]]*\])*\]`
  // Spring Boot's pid before `---` or `[`.
  const pid = String.raw`(?:\d+(?= +(?:---|\[))${sep}*)?`
  // A dotted logger (`org.apache.hadoop.Foo:`, `dfs.DataNode$PacketResponder:`, oslo's
  // `nova.compute.manager [req-...]`), not an exception's name (`java.io.IOException: boom` is a
  // message), or a word padded into a column (CBS's `CBS    `).
  const logger = String.raw`(?:[A-Za-z_$][\w$]*(?:[.$][\w$]+)+(?<!Exception|Error)(?= *:| ?\[| - )|\w+(?=[ \t]{2}))`
  // What closes the level token (`]`, `>`, a quote), then one of: `:field:`, a dash separator, or
  // the header fields (pid, `[...]` groups, a logger) up to the message.
  const levelEnd = String.raw`(?:\d?\]|>|")?`
  const colonField = String.raw`:(?![ \t])(?:[^\s:]+:)?`
  const upToMessage = `(?:${bracket}${dashSep}|${logger}?(?:${dashSep}|${plainSep}*(?:${bracket}${sep}+)*))`
  const headerFields = `${plainSep}*${pid}(?:${bracket}${plainSep}+)*${upToMessage}`
  return new RegExp(`${levelEnd}(?:${colonField}|${dashSep}|${headerFields})`, 'y')
})()

/** Rule 5: past the level token and the fields that follow it, if what precedes it is header. */
function afterLevel(line: string, level: LevelMatch): number {
  if (hasProse(line, level.start)) return 0
  return skip(line, level.end, AFTER_LEVEL)
}

/**
 * Prose in line[0..end): two lower-case words of two letters or more with one space between them
 * (`disk full`), outside `[...]`. Header fields (timestamps, pids, hosts, `[thread name]`, `RAS
 * KERNEL`, `myapp.db - `) have none.
 */
function hasProse(line: string, end: number): boolean {
  const before = line.slice(0, end)
  return PROSE.test(before.includes('[') ? before.replace(BRACKETED, '') : before)
}

/**
 * The `msg` (or `message`) value of a logfmt line, unquoted; undefined when the line is not logfmt
 * or the value is empty.
 */
function logfmtMessage(line: string): string | undefined {
  const first = line.charCodeAt(0)
  if (!(isUpper(first) || (first >= 97 && first <= 122) || first === 95) || endOf(LOGFMT_KEY, line, 0) === -1)
    return undefined
  const key = LOGFMT_MSG.exec(line)
  if (key === null) return undefined
  let i = key.index + key[0].length
  if (line[i] !== '"') {
    const stop = line.indexOf(' ', i)
    const value = stop === -1 ? line.slice(i) : line.slice(i, stop)
    return value === '' ? undefined : value
  }
  let value = ''
  for (i++; i < line.length && line[i] !== '"'; i++) {
    if (line[i] === '\\' && i + 1 < line.length) {
      const escaped = line[++i] as string
      value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped
    } else value += line[i]
  }
  return value.trim() === '' ? undefined : value
}
