// One syslog frame -> one intake event. Pure. Rules:
// 1. a frame starting `<PRI>1 ` is read as RFC 5424, any other as RFC 3164 (rfc3164.ts reads one without
//    a PRI as user.notice);
// 2. the level is the severity's (PRI % 8): 0-2 fatal, 3 error, 4 warn, 5-6 info, 7 debug
//    (alerts' fromSyslogPriority);
// 3. the record holds `msg`, `level`, `facility` (its name), `severity` (0-7) and each header field the
//    frame had: `hostname`, `app_name`, `procid`, `msgid`, `timestamp`, `structured_data`, `sequence`;
//    a field the frame left out (or sent as `-`) is not in the record;
// 4. a frame ends at its newline: a trailing CR or LF (and NULs some senders add) is not part of it.

import { fromSyslogPriority, type AlertLine } from '../../../alerts'
import type { IntakeEvent } from '../types'
import { facilityName, readPriority, type SyslogMessage } from './message'
import { parse3164 } from './rfc3164'
import { parse5424 } from './rfc5424'

/** The frame parsed by the grammar its header says (rule 1). */
export function parseSyslog(frame: string): SyslogMessage {
  const pri = readPriority(frame)
  if (pri !== undefined) {
    const modern = parse5424(frame, pri.priority, pri.next)
    if (modern !== undefined) return modern
  }
  return parse3164(frame)
}

/** Rule 4: the frame without its line end. */
export function trimFrame(frame: string): string {
  let end = frame.length
  for (; end > 0; end--) {
    const code = frame.charCodeAt(end - 1)
    if (code !== 10 && code !== 13 && code !== 0) break
  }
  return end === frame.length ? frame : frame.slice(0, end)
}

/** One frame of source `source` as the event the alert path takes. */
export function syslogEvent(frame: string, source: string): IntakeEvent {
  const raw = trimFrame(frame)
  const message = parseSyslog(raw)
  const level = fromSyslogPriority(message.priority)
  const record: Record<string, unknown> = {
    msg: message.message,
    level,
    facility: facilityName(message.priority),
    severity: message.priority & 7,
  }
  addField(record, 'hostname', message.hostname)
  addField(record, 'app_name', message.appName)
  addField(record, 'procid', message.procId)
  addField(record, 'msgid', message.msgId)
  addField(record, 'timestamp', message.timestamp)
  addField(record, 'structured_data', message.structuredData)
  addField(record, 'sequence', message.sequence)
  const line: AlertLine = { raw, record, level, msg: message.message, source, json: false }
  return { line }
}

function addField(record: Record<string, unknown>, name: string, value: unknown): void {
  if (value !== undefined) record[name] = value
}
