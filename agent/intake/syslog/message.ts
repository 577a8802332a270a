// What a syslog frame says once parsed (RFC 5424, RFC 3164 or neither), and the priority arithmetic both
// formats share. A leaf of the syslog intake: the parsers make these, syslog-event.ts turns them into events.

/** One parsed syslog message. Absent header fields (NILVALUE `-`, or not sent) are undefined. */
export interface SyslogMessage {
  /** Which grammar read it: `none` when the frame had no `<PRI>` (then priority 13, user.notice). */
  format: '5424' | '3164' | 'none'
  /** The PRI value, 0-191: facility * 8 + severity. */
  priority: number
  timestamp: string | undefined
  hostname: string | undefined
  appName: string | undefined
  procId: string | undefined
  msgId: string | undefined
  /** RFC 5424 structured data: SD-ID -> parameter -> value (unescaped); undefined when NILVALUE. */
  structuredData: Record<string, Record<string, string>> | undefined
  /** The free-form message, without a leading BOM. */
  message: string
  /** Cisco IOS's sequence number before the timestamp (`<189>52: ...`), when sent. */
  sequence: string | undefined
}

/** RFC 3164 4.3.3: a frame without a PRI is taken as user.notice. */
export const DEFAULT_PRIORITY = 13

/** The largest PRI value: facility 23 (local7), severity 7 (debug). */
export const MAX_PRIORITY = 191

const FACILITY_NAMES = [
  'kern',
  'user',
  'mail',
  'daemon',
  'auth',
  'syslog',
  'lpr',
  'news',
  'uucp',
  'cron',
  'authpriv',
  'ftp',
  'ntp',
  'security',
  'console',
  'solaris-cron',
  'local0',
  'local1',
  'local2',
  'local3',
  'local4',
  'local5',
  'local6',
  'local7',
] as const

/** The facility's name (RFC 5424 table 1; 13-15 as Linux names them). */
export function facilityName(priority: number): string {
  return FACILITY_NAMES[priority >> 3] ?? String(priority >> 3)
}

/**
 * Reads `<PRI>` at the start of `text`: 1-3 digits, no leading zero but `<0>`, at most 191. Returns the
 * value and where the header goes on, or undefined when the frame does not start with a valid PRI.
 */
export function readPriority(text: string): { priority: number; next: number } | undefined {
  if (text.charCodeAt(0) !== 60 /* < */) return undefined
  let value = 0
  let at = 1
  for (; at <= 4; at++) {
    const code = text.charCodeAt(at)
    if (code === 62 /* > */) break
    if (code < 48 || code > 57) return undefined
    value = value * 10 + (code - 48)
  }
  const digits = at - 1
  if (digits === 0 || digits > 3 || text.charCodeAt(at) !== 62) return undefined
  if (digits > 1 && text.charCodeAt(1) === 48 /* 0 */) return undefined
  if (value > MAX_PRIORITY) return undefined
  return { priority: value, next: at + 1 }
}

/** A message with nothing but its text and priority: what a frame no grammar reads becomes. */
export function plainMessage(format: SyslogMessage['format'], priority: number, message: string): SyslogMessage {
  return {
    format,
    priority,
    timestamp: undefined,
    hostname: undefined,
    appName: undefined,
    procId: undefined,
    msgId: undefined,
    structuredData: undefined,
    message,
    sequence: undefined,
  }
}
