// Durations are written as milliseconds or as unit strings, compound ones included (`1h30m`).
// Units must come largest first so `30m1h` is rejected as the typo it most likely is.

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
]
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y

export const DURATION_HINT = 'a duration like "500ms", "10s", "30m" or "1h30m" (or milliseconds)'

/** Milliseconds, or undefined when the value is not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || value === '') return undefined
  let total = 0
  let at = 0
  let lastRank = -1
  while (at < value.length) {
    PART.lastIndex = at
    const m = PART.exec(value)
    if (m === null) return undefined
    const rank = UNITS.findIndex(([unit]) => unit === m[2])
    if (rank <= lastRank) return undefined
    lastRank = rank
    total += Number(m[1]) * (UNITS[rank] as readonly [string, number])[1]
    at = PART.lastIndex
  }
  return Number.isFinite(total) ? Math.round(total) : undefined
}
