// Pure byte-level decisions, made before any JSON.parse (by logx-tail-filter and every alert
// target): most lines of a healthy app are below every rule's level and are dropped after reading
// a handful of bytes. logx (like pino) writes `"level"` first, so the common case is a fixed-offset
// compare and a few digit reads.
import { detectLevel, levelFromName } from '../../../alerts'

const LEVEL_KEY = Buffer.from('"level":')
const OPEN_BRACE = 0x7b
const QUOTE = 0x22
const SPACE = 0x20
const PLAIN_HEAD = 300

function readLevelValue(buf: Buffer, at: number, end: number): number | undefined {
  let i = at
  while (i < end && buf[i] === SPACE) i++
  const first = buf[i]
  if (first === undefined) return undefined
  if (first >= 0x30 && first <= 0x39) {
    let value = 0
    for (; i < end; i++) {
      const c = buf[i] as number
      if (c < 0x30 || c > 0x39) break
      value = value * 10 + (c - 0x30)
    }
    return value
  }
  if (first === QUOTE) {
    const close = buf.indexOf(QUOTE, i + 1)
    if (close === -1 || close > end || close - i > 20) return undefined
    return levelFromName(buf.toString('latin1', i + 1, close))
  }
  return undefined
}

function startsWithKey(buf: Buffer, at: number, end: number): boolean {
  if (end - at < LEVEL_KEY.length) return false
  for (let k = 0; k < LEVEL_KEY.length; k++) if (buf[at + k] !== LEVEL_KEY[k]) return false
  return true
}

/** The level of the line in buf[start, end) without parsing it; undefined when it names none. */
export function peekLevel(buf: Buffer, start: number, end: number): number | undefined {
  if (buf[start] === OPEN_BRACE) {
    if (startsWithKey(buf, start + 1, end)) return readLevelValue(buf, start + 1 + LEVEL_KEY.length, end)
    const at = buf.subarray(start, end).indexOf(LEVEL_KEY)
    return at === -1 ? undefined : readLevelValue(buf, start + at + LEVEL_KEY.length, end)
  }
  return detectLevel(buf.toString('utf8', start, Math.min(end, start + PLAIN_HEAD)))
}

/** Can any rule take this line? Rules never select below their level, so this is exact for "no". */
export function mayBeCandidate(buf: Buffer, start: number, end: number, lowestLevel: number): boolean {
  const level = peekLevel(buf, start, end)
  return level !== undefined && level >= lowestLevel
}
