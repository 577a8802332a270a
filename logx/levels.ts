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
export function createLevelMapping(customLevels: Record<string, number> | null | undefined, useOnlyCustomLevels = false): LevelMapping {
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

/** Validates the customLevels option itself: names are identifiers-ish, values are finite integers. */
export function assertCustomLevels(customLevels: unknown, optionPath = 'customLevels'): asserts customLevels is Record<string, number> {
  if (typeof customLevels !== 'object' || customLevels === null || Array.isArray(customLevels)) {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${optionPath} must be an object of level names to numbers`, optionPath)
  }
  const seen = new Map<number, string>()
  for (const [label, value] of Object.entries(customLevels as Record<string, unknown>)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${optionPath}.${label} must be a finite number, got ${String(value)}`, `${optionPath}.${label}`)
    }
    const previous = seen.get(value)
    if (previous !== undefined) {
      throw new LogxError(LogxErrorCodes.LEVEL_COLLISION, `${optionPath}.${label}: level value ${value} is already used by ${previous}`, `${optionPath}.${label}`)
    }
    seen.set(value, label)
  }
}

/** A custom level may neither rename a level that exists nor reuse its number. */
export function assertNoLevelCollisions(levels: LevelMapping, customLevels: Record<string, number>, optionPath = 'customLevels'): void {
  for (const label of Object.keys(customLevels)) {
    if (label in levels.values) {
      throw new LogxError(LogxErrorCodes.LEVEL_COLLISION, `levels cannot be overridden: ${optionPath}.${label} redefines an existing level`, `${optionPath}.${label}`)
    }
    const value = customLevels[label] as number
    if (value in levels.labels) {
      throw new LogxError(
        LogxErrorCodes.LEVEL_COLLISION,
        `pre-existing level values cannot be used for new levels: ${optionPath}.${label} = ${value} is already ${levels.labels[value]}`,
        `${optionPath}.${label}`,
      )
    }
  }
}

/** The configured default level must exist in the (possibly custom-only) table. */
export function assertDefaultLevelFound(level: string | number, customLevels: Record<string, number> | null | undefined, useOnlyCustomLevels: boolean): void {
  const mapping = createLevelMapping(customLevels, useOnlyCustomLevels)
  const found = typeof level === 'number' ? level === Infinity || level in mapping.labels : level in mapping.values
  if (!found) {
    const known = Object.keys(mapping.values).concat('silent').join(', ')
    throw new LogxError(
      LogxErrorCodes.DEFAULT_LEVEL_NOT_FOUND,
      `default level:${String(level)} must be included in custom levels (known levels: ${known})`,
      'level',
    )
  }
}

export function createLevelComparison(comparison: LevelComparison | undefined): (current: number, expected: number) => boolean {
  if (comparison === undefined || comparison === 'ASC') return (current, expected) => current >= expected
  if (comparison === 'DESC') return (current, expected) => current <= expected
  if (typeof comparison === 'function') return comparison
  throw new LogxError(LogxErrorCodes.INVALID_OPTION, `levelComparison must be 'ASC', 'DESC' or a function, got ${String(comparison)}`, 'levelComparison')
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
