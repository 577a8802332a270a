// Which syslog frames are worth parsing: most lines a busy sender writes are below every rule's level,
// and a frame's level is in its first bytes (`<PRI>`), so those are dropped before they become a string,
// a parsed message and an event, as a tailed file's byte pre-filter drops its lines before parsing
// (agent/prefilter/). Pure. Rules, in order:
// 1. a frame that starts with a valid `<PRI>` (message.ts readPriority's grammar: 1-3 digits, no leading
//    zero but `<0>`, at most 191) has the level of its severity (alerts' fromSyslogPriority); it is
//    dropped when that level is below `lowest`, the lowest level any rule takes;
// 2. any other frame is kept: it is parsed as it always was (no PRI reads as user.notice), and a rule
//    decides.
import { fromSyslogPriority } from '../../../alerts'
import { MAX_PRIORITY } from './message'

const LESS_THAN = 60
const GREATER_THAN = 62
const ZERO = 48
const NINE = 57

/** Rule 1: the PRI at `start` of `bytes` (before `end`), or undefined when there is no valid one. */
export function priorityOfBytes(bytes: Uint8Array, start: number, end: number): number | undefined {
  if (start >= end || bytes[start] !== LESS_THAN) return undefined
  let value = 0
  let at = start + 1
  for (; at < end && at <= start + 4; at++) {
    const code = bytes[at] as number
    if (code === GREATER_THAN) break
    if (code < ZERO || code > NINE) return undefined
    value = value * 10 + (code - ZERO)
  }
  const digits = at - start - 1
  if (at >= end || bytes[at] !== GREATER_THAN || digits === 0 || digits > 3) return undefined
  if (digits > 1 && bytes[start + 1] === ZERO) return undefined
  return value > MAX_PRIORITY ? undefined : value
}

/** Rules 1-2: whether the frame in `bytes[start, end)` may page under rules whose lowest level is `lowest`. */
export function mayPage(bytes: Uint8Array, start: number, end: number, lowest: number): boolean {
  const priority = priorityOfBytes(bytes, start, end)
  return priority === undefined || fromSyslogPriority(priority) >= lowest
}
