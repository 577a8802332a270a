// Durations in rules are written as ms numbers or short strings; everything inside is ms.
import { AlertsError, AlertsErrorCodes } from './errors'

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/

export type DurationInput = number | string

export function parseDuration(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value
  if (typeof value === 'string') {
    const m = PATTERN.exec(value.trim())
    if (m) return Math.round(Number(m[1]) * (UNITS[m[2] as string] as number))
  }
  throw new AlertsError(
    AlertsErrorCodes.INVALID_DURATION,
    path,
    `expected milliseconds or a duration like "30s", "5m", "1h", got ${JSON.stringify(value)}`,
  )
}
