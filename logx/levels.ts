// The level table: names <-> numbers, the precomputed `{"level":N` prefixes, and level validation.
import { LogxError, LogxErrorCodes } from './errors'

export const DEFAULT_LEVELS: Readonly<Record<string, number>> = Object.freeze({
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
})

export type LevelComparison = 'ASC' | 'DESC' | ((current: number, expected: number) => boolean)

export interface LevelMapping {
  /** value -> label, including Infinity -> 'silent' (non-enumerable). */
  labels: Record<number | string, string>
  /** label -> value, including silent -> Infinity (non-enumerable). */
  values: Record<string, number>
}

const DEFAULT_LABELS: Record<number, string> = {}
for (const [label, value] of Object.entries(DEFAULT_LEVELS)) DEFAULT_LABELS[value] = label

/** Builds the labels/values maps. `silent` is present but non-enumerable, so it never gets a prefix or method loop. */
export function createLevelMapping(
  customLevels: Record<string, number> | null | undefined,
  useOnlyCustomLevels = false,
): LevelMapping {
  const customLabels: Record<number, string> = {}
  if (customLevels) for (const label of Object.keys(customLevels)) customLabels[customLevels[label] as number] = label
  const labels = Object.assign(
    Object.create(Object.prototype, { Infinity: { value: 'silent' } }) as Record<number | string, string>,
    useOnlyCustomLevels ? null : DEFAULT_LABELS,
    customLabels,
  )
  const values = Object.assign(
    Object.create(Object.prototype, { silent: { value: Infinity } }) as Record<string, number>,
    useOnlyCustomLevels ? null : DEFAULT_LEVELS,
    customLevels,
  )
  return { labels, values }
}

export function isStandardLevel(label: string): boolean {
  return Object.prototype.hasOwnProperty.call(DEFAULT_LEVELS, label)
}

/** Validates the customLevels option itself: an object whose values are finite numbers. */
export function assertCustomLevels(
  customLevels: unknown,
  optionPath = 'customLevels',
): asserts customLevels is Record<string, number> {
  if (typeof customLevels !== 'object' || customLevels === null || Array.isArray(customLevels)) {
    const message = `${optionPath} must be an object of level names to numbers`
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, message, optionPath)
  }
  for (const [label, value] of Object.entries(customLevels as Record<string, unknown>)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      const message = `${optionPath}.${label} must be a finite number, got ${String(value)}`
      throw new LogxError(LogxErrorCodes.INVALID_OPTION, message, `${optionPath}.${label}`)
    }
  }
}

/**
 * A child's custom level may neither rename a level its parent has nor reuse a number (pino's
 * rule and words; the root may restate or renumber a built-in level, as in pino).
 */
export function assertNoLevelCollisions(
  levels: LevelMapping,
  customLevels: Record<string, number>,
  optionPath = 'customLevels',
): void {
  for (const label in customLevels) {
    if (label in levels.values) {
      throw new LogxError(LogxErrorCodes.LEVEL_COLLISION, 'levels cannot be overridden', `${optionPath}.${label}`)
    }
    if ((customLevels[label] as number) in levels.labels) {
      const message = 'pre-existing level values cannot be used for new levels'
      throw new LogxError(LogxErrorCodes.LEVEL_COLLISION, message, `${optionPath}.${label}`)
    }
  }
}

/** The configured default level must exist in the (possibly custom-only) table. */
export function assertDefaultLevelFound(
  level: string | number,
  customLevels: Record<string, number> | null | undefined,
  useOnlyCustomLevels: boolean,
): void {
  const mapping = createLevelMapping(customLevels, useOnlyCustomLevels)
  const found = typeof level === 'number' ? level === Infinity || level in mapping.labels : level in mapping.values
  if (!found) {
    const message = `default level:${String(level)} must be included in custom levels`
    throw new LogxError(LogxErrorCodes.DEFAULT_LEVEL_NOT_FOUND, message, 'level')
  }
}

export function createLevelComparison(
  comparison: LevelComparison | undefined,
): (current: number, expected: number) => boolean {
  if (comparison === undefined || comparison === 'ASC') return (current, expected) => current >= expected
  if (comparison === 'DESC') return (current, expected) => current <= expected
  if (typeof comparison === 'function') return comparison
  const message = 'Levels comparison should be one of "ASC", "DESC" or "function" type'
  throw new LogxError(LogxErrorCodes.INVALID_OPTION, message, 'levelComparison')
}

export type LevelFormatter = (label: string, value: number) => object

/** `{"level":30` (or the level formatter's object minus its closing brace) per level value. */
export function createLevelPrefixes(mapping: LevelMapping, formatLevel: LevelFormatter): Record<number, string> {
  const prefixes: Record<number, string> = {}
  for (const value of Object.keys(mapping.labels)) {
    const label = mapping.labels[value] as string
    const shape = formatLevel(label, Number(value))
    prefixes[Number(value)] = JSON.stringify(shape).slice(0, -1)
  }
  return prefixes
}
