// RFC 3164 ("BSD") messages as senders really write them: `<PRI>TIMESTAMP HOSTNAME TAG[PID]: MSG`, where
// any part after the PRI may be missing. Pure. Rules, in order:
// 1. Cisco IOS's sequence number: digits and `: ` right after the PRI (`<189>52: ...`) are the sequence,
//    kept as a field, and reading goes on after them;
// 2. the timestamp is `Mmm dd hh:mm:ss` (the day space-padded or not), optionally with fractions
//    (`.123`), with a year before the time (`Mar  1 2026 00:00:05`) and a zone word after it (`UTC`), and
//    a Cisco `*` or `.` in front (clock not synchronised); or an RFC 3339 timestamp
//    (`2026-12-02T03:09:30.123+00:00`, rsyslog's forwarding format). It is kept as written: 3164 has no
//    year, and the agent's clock is not this module's to read. A `:` right after it (Cisco) is skipped;
// 3. the hostname is the word after the timestamp, unless that word is the tag (it ends in `:` or holds
//    `[`): a sender that leaves out its hostname; with no timestamp there is no hostname either;
// 4. the tag is a word of letters, digits and `-_./@` ending in `:` or `[PID]:` (the PID in brackets is
//    the procid); a first word that is not a tag leaves the app name undefined and is part of the message;
// 5. the message is the rest after one space; a Cisco mnemonic at its start (`%SYS-5-CONFIG_I:`) is its
//    msgid (`SYS-5-CONFIG_I`), the message kept whole;
// 6. a frame that does not start with a valid PRI is all message, priority 13 (user.notice, RFC 3164 4.3.3).

import { DEFAULT_PRIORITY, plainMessage, readPriority, type SyslogMessage } from './message'

const MONTHS = new Set(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'])
const BSD_TIME =
  /^[*.]?([A-Z][a-z]{2}) {1,2}\d{1,2}(?: \d{4})? \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?: [A-Z]{2,5})?:?(?= |$)/
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})(?= |$)/
const SEQUENCE = /^(\d{1,10}): /
const TAG = /^([\w\-./@]{1,64})(?:\[([^\]\s]{1,128})\])?:(?: |$)/
const CISCO_MNEMONIC = /^%([A-Z0-9_]+-\d-[A-Z0-9_]+):/

/** An RFC 3164 frame (rule 6 when it has no PRI). */
export function parse3164(text: string): SyslogMessage {
  const pri = readPriority(text)
  if (pri === undefined) return plainMessage('none', DEFAULT_PRIORITY, text)
  const message = plainMessage('3164', pri.priority, '')
  let rest = text.slice(pri.next)
  const sequence = SEQUENCE.exec(rest)
  if (sequence !== null) {
    message.sequence = sequence[1]
    rest = rest.slice(sequence[0].length)
  }
  const time = readTimestamp(rest)
  if (time !== undefined) {
    message.timestamp = time.timestamp
    rest = rest.slice(time.length).replace(/^ +/, '')
    rest = readHostname(rest, message)
  }
  rest = readTag(rest, message)
  message.message = rest
  const mnemonic = CISCO_MNEMONIC.exec(rest)
  if (mnemonic !== null) message.msgId = mnemonic[1]
  return message
}

/** Rule 2: the timestamp at the start of `text`, as written (without Cisco's marks), and its length. */
function readTimestamp(text: string): { timestamp: string; length: number } | undefined {
  const iso = ISO_TIME.exec(text)
  if (iso !== null) return { timestamp: iso[0], length: iso[0].length }
  const bsd = BSD_TIME.exec(text)
  if (bsd === null || !MONTHS.has(bsd[1] as string)) return undefined
  const written = bsd[0].replace(/^[*.]/, '').replace(/:$/, '')
  return { timestamp: written, length: bsd[0].length }
}

/** Rule 3: the hostname when the next word is not the tag; the text after it. */
function readHostname(text: string, message: SyslogMessage): string {
  const end = text.indexOf(' ')
  const word = end === -1 ? text : text.slice(0, end)
  if (word === '' || word.endsWith(':') || word.includes('[')) return text
  message.hostname = word
  return end === -1 ? '' : text.slice(end + 1)
}

/** Rule 4: the tag and PID when the text starts with one; the text after it. */
function readTag(text: string, message: SyslogMessage): string {
  const tag = TAG.exec(text)
  if (tag === null) return text
  message.appName = tag[1]
  message.procId = tag[2]
  return text.slice(tag[0].length)
}
