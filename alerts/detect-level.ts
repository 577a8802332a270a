// Level detection for plain-text lines (not JSON). Looks only at the head of the line, where every
// common format (Apache `[error]`, log4j `ERROR`, logfmt `level=error`, syslog `<3>`, glog `E1122`)
// puts the severity, and only trusts delimited tokens: a bare lowercase "error" inside a message
// ("workerEnv in error state") is prose, not a level.
import { levelFromName } from './levels'

const HEAD = 300

// One pass over the head; the earliest token that names a level wins.
const TOKEN =
  /\[([A-Za-z]{3,11})\]|<([A-Za-z]{3,11})>|\blevel\s*[=:]\s*"?([A-Za-z]{3,11})|(?<![A-Za-z0-9_])(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRIT|CRITICAL|FATAL|PANIC|ALERT|EMERG)(?![A-Za-z0-9_])/g

const SYSLOG_PRI = /^<(\d{1,3})>/
// A JSON line that did not parse (cut short, a stray byte) still says its numeric level.
const BROKEN_JSON_LEVEL = /^\{.{0,200}?"level"\s*:\s*(\d{1,3})\b/
const GLOG = /^([IWEF])\d{4} /
/** glog's severity letters (`E1122 10:00:00.000 ...`). */
export const GLOG_LEVELS: Readonly<Record<string, number>> = { I: 30, W: 40, E: 50, F: 60 }

/** The level of a syslog `<PRI>` (its severity, PRI % 8). */
export function fromSyslogPriority(priority: number): number {
  const severity = priority % 8
  if (severity <= 2) return 60
  if (severity === 3) return 50
  if (severity === 4) return 40
  if (severity <= 6) return 30
  return 20
}

/** The level of a plain-text line, or undefined when the head names none. */
export function detectLevel(line: string): number | undefined {
  const head = line.length > HEAD ? line.slice(0, HEAD) : line
  const pri = SYSLOG_PRI.exec(head)
  if (pri) return fromSyslogPriority(Number(pri[1]))
  const json = BROKEN_JSON_LEVEL.exec(head)
  if (json) return Number(json[1])
  const glog = GLOG.exec(head)
  if (glog) return GLOG_LEVELS[glog[1] as string]
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(head); m !== null; m = TOKEN.exec(head)) {
    const word = m[1] ?? m[2] ?? m[3] ?? m[4]
    if (word === undefined) continue
    const level = levelFromName(word)
    if (level !== undefined) return level
  }
  return undefined
}
