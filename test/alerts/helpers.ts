import { parseLine, type AlertLine } from '../../alerts/line'

/** A JSON log line as logx writes it. */
export function jsonLine(fields: Record<string, unknown>): AlertLine {
  return parseLine(JSON.stringify({ level: 50, time: 0, msg: 'boom', ...fields }))
}

/** A fake clock: tests move time explicitly. */
export function createClock(start = 1_700_000_000_000): { now(): number; advance(ms: number): number } {
  let t = start
  return {
    now: () => t,
    advance(ms: number) {
      t += ms
      return t
    },
  }
}
