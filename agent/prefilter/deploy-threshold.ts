// The pre-filter's threshold for one source when regressed rules watch deploys. A deploy line
// (`deploys: { source, match }`) is usually info level, below every rule's level, and the filter
// would drop it before the engine's deploy watch saw it. A deploy matcher is treated as a rule's
// match with no level for the sources it names. The rules, in order:
// 1. a source some regressed rule's `deploys` watches (its `source` names it, or names none: any
//    source): every line is a candidate (ANY_LEVEL), whatever the rules' lowest level;
// 2. any other source: the rules' lowest level, as without deploys.
import type { RuleConfig } from '../../alerts'

/** A threshold no line's level is below: the filter keeps every line. */
export const ANY_LEVEL = 0

function watchesDeploysOf(rule: RuleConfig, source: string): boolean {
  const kinds = rule.kinds
  if (kinds?.type !== 'regressed' || kinds.deploys === undefined) return false
  return kinds.deploys.sources === undefined || kinds.deploys.sources.includes(source)
}

export function deployThreshold(rules: Iterable<RuleConfig>, source: string, lowest: number): number {
  for (const rule of rules) if (watchesDeploysOf(rule, source)) return Math.min(lowest, ANY_LEVEL)
  return lowest
}
