// `logx-agent oncall --at TIME` read, and times written in a schedule's zone. Pure: the zone
// arithmetic is alerts/zoned-time.ts's; nothing here reads the clock.
//
// TIME is one of:
//   2026-03-08T09:00, 2026-03-08 09:00:30, 2026-03-08   a wall time in each schedule's own zone (what
//                                                      a rota says: "Monday 09:00 in Kolkata")
//   2026-03-08T03:30Z, 2026-03-08T09:00+05:30          one instant, the same for every schedule
//   1772940600000                                      epoch milliseconds
import { localParts, zonedInstant, type WallTime as ZonedWallTime } from '../../alerts'

/** A wall time as `--at` gives it: alerts' wall time, to the second. */
export type WallTime = ZonedWallTime & { second: number }

export type AtTime = { kind: 'instant'; at: number } | { kind: 'wall'; wall: WallTime }

const WALL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/
const ZONED = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/i
const EPOCH_MS = /^\d{1,15}$/

export const AT_HELP =
  "a wall time in the schedule's zone (2026-03-08T09:00, 2026-03-08), " +
  'an instant with Z or an offset (2026-03-08T03:30Z, 2026-03-08T09:00+05:30), or epoch milliseconds'

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

function wallOf(match: RegExpExecArray): WallTime | undefined {
  const [year, month, day, hour, minute, second] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  return { year, month, day, hour, minute, second }
}

/** `--at` as written; a string is why it is refused. */
export function parseAt(text: string): AtTime | string {
  const written = text.trim()
  const refused = `--at "${written.slice(0, 60)}": expected ${AT_HELP}`
  if (EPOCH_MS.test(written)) return { kind: 'instant', at: Number(written) }
  const wall = WALL.exec(written)
  if (wall !== null) {
    const parts = wallOf(wall)
    return parts === undefined ? refused : { kind: 'wall', wall: parts }
  }
  const zoned = ZONED.exec(written)
  // Checked before Date.parse, which reads 2026-02-31 as March 3rd.
  if (zoned !== null && wallOf(zoned) !== undefined) {
    const at = Date.parse(written.replace(' ', 'T'))
    return Number.isNaN(at) ? refused : { kind: 'instant', at }
  }
  return refused
}

/** The instant `at` names for a schedule kept in `timeZone`. A wall time skipped by DST moves forward by the gap. */
export function instantIn(at: AtTime, timeZone: string): number {
  if (at.kind === 'instant') return at.at
  const { second, ...minute } = at.wall
  return zonedInstant(minute, timeZone) + second * 1000
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const
const pad2 = (n: number): string => String(n).padStart(2, '0')

/** `Mon 2026-03-09 09:00`: the wall clock of `timeZone` at `at`. */
export function formatZoned(at: number, timeZone: string): string {
  const p = localParts(at, timeZone)
  return `${WEEKDAYS[p.weekday] ?? ''} ${p.year}-${pad2(p.month)}-${pad2(p.day)} ${pad2(p.hour)}:${pad2(p.minute)}`
}
