// The one duration grammar, for the YAML config and the transport targets' options alike: a
// number of milliseconds (finite, not negative), or unit parts, largest unit first, each a number
// and a unit with optional white space between them: `500ms`, `30s`, `30 s`, `1.5h`, `1h30m`,
// `1d2h3m4s5ms`. Parts follow each other directly (`1h 30m` is refused, as `10` and `10 seconds`
// are), and `30m1h` is refused as the typo it most likely is.

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
]
const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/y

/** The same grammar for editors (JSON Schema); the order of units is not expressed there. */
export const DURATION_PATTERN = '^\\s*(?:\\d+(?:\\.\\d+)?\\s*(?:ms|s|m|h|d))+\\s*$'

export const DURATION_HINT = 'a duration like "500ms", "10s", "30m" or "1h30m" (or milliseconds)'

/** Milliseconds, or undefined when the value is not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (text === '') return undefined
  let total = 0
  let at = 0
  let lastRank = -1
  while (at < text.length) {
    PART.lastIndex = at
    const m = PART.exec(text)
    if (m === null) return undefined
    const rank = UNITS.findIndex(([unit]) => unit === m[2])
    if (rank <= lastRank) return undefined
    lastRank = rank
    total += Number(m[1]) * (UNITS[rank] as readonly [string, number])[1]
    at = PART.lastIndex
  }
  return Number.isFinite(total) ? Math.round(total) : undefined
}
