// An alert's level, from its severity label. Pure. The rules, in order:
// 1. the label's value (trimmed, any case) named in the source's `severity_levels` takes that level;
// 2. else the built-in table: critical, fatal -> fatal; error, high, major -> error; warning, warn,
//    medium, minor -> warn; info, informational, low -> info; none -> info;
// 3. an alert without the label, or with a value neither knows, is an error.
// Why `none` is info: kube-prometheus gives it to Watchdog, the alert that always fires to prove the
// pipeline works; it should not page with the default rules (level error and above). Why an
// unknown value is an error rather than info: a team's own spelling (`p1`, `sev2`) must not keep a
// real alert from paging; `severity_levels` says what it means.
import { LEVELS } from '../../../alerts'

export const DEFAULT_SEVERITY_LABEL = 'severity'
export const UNKNOWN_SEVERITY_LEVEL = LEVELS.error as number

const BUILT_IN: Readonly<Record<string, number>> = Object.freeze({
  critical: LEVELS.fatal as number,
  fatal: LEVELS.fatal as number,
  error: LEVELS.error as number,
  high: LEVELS.error as number,
  major: LEVELS.error as number,
  warning: LEVELS.warn as number,
  warn: LEVELS.warn as number,
  medium: LEVELS.warn as number,
  minor: LEVELS.warn as number,
  info: LEVELS.info as number,
  informational: LEVELS.info as number,
  low: LEVELS.info as number,
  none: LEVELS.info as number,
})

/** The built-in table (rule 2), for the docs and the tests. */
export const BUILT_IN_SEVERITY_LEVELS: Readonly<Record<string, number>> = BUILT_IN

/** `configured`: the source's `severity_levels`, keys lowercase, levels as numbers. */
export function severityLevel(value: string | undefined, configured: ReadonlyMap<string, number>): number {
  if (value === undefined) return UNKNOWN_SEVERITY_LEVEL
  const name = value.trim().toLowerCase()
  const own = configured.get(name)
  if (own !== undefined) return own
  return Object.hasOwn(BUILT_IN, name) ? (BUILT_IN[name] as number) : UNKNOWN_SEVERITY_LEVEL
}
