// Level names and numbers as the logger writes them (pino's table), plus the names that plain-text
// formats use for the same severities.
import { AlertsError, AlertsErrorCodes } from './errors'

export const LEVELS: Readonly<Record<string, number>> = Object.freeze({
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
})

// Syslog and Java/Apache spellings folded onto the six levels.
const ALIASES: Readonly<Record<string, number>> = Object.freeze({
  ...LEVELS,
  finest: 10,
  finer: 10,
  fine: 20,
  verbose: 20,
  notice: 30,
  information: 30,
  warning: 40,
  err: 50,
  severe: 50,
  crit: 60,
  critical: 60,
  alert: 60,
  emerg: 60,
  emergency: 60,
  panic: 60,
})

/** The level number of a name in any common spelling, or undefined. */
export function levelFromName(name: string): number | undefined {
  const key = name.toLowerCase()
  // Own keys only: `constructor` or `toString` must not read Object.prototype.
  return Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined
}

/** Every name levelFromName knows (lowercase), with its level: what byte pre-filters search for. */
export function levelNames(): ReadonlyArray<readonly [string, number]> {
  return Object.entries(ALIASES)
}

export function levelLabel(level: number | undefined): string {
  if (level === undefined) return 'unknown'
  let label = 'trace'
  for (const [name, value] of Object.entries(LEVELS)) if (level >= value) label = name
  return label
}

/** A rule's `level`: a name or a number; `path` names the key in errors. */
export function parseLevel(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string') {
    const level = levelFromName(value)
    if (level !== undefined) return level
  }
  throw new AlertsError(
    AlertsErrorCodes.INVALID_RULE,
    path,
    `expected a level name (${Object.keys(LEVELS).join(', ')}) or number, got ${JSON.stringify(value)}`,
  )
}
