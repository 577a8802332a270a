// Rule selection: the first rule that wants a line wins, as in Alertmanager's routing tree
// without nesting. Absence rules own no line (absence.ts watches theirs): selectRule passes over them.
import type { AlertLine } from './line'
import { matchField } from './matcher'
import type { Rule } from './rule'

export function ruleSelects(rule: Rule, line: AlertLine): boolean {
  if (line.level === undefined || line.level < rule.minLevel) return false
  if (rule.sources !== undefined && (line.source === undefined || !rule.sources.has(line.source))) return false
  if (rule.message !== undefined && !rule.message.test(line.msg)) return false
  for (const matcher of rule.match) if (!matchField(matcher, line.record)) return false
  return true
}

export function selectRule(rules: readonly Rule[], line: AlertLine): Rule | undefined {
  for (const rule of rules) if (rule.absent === undefined && ruleSelects(rule, line)) return rule
  return undefined
}

/**
 * The lowest level any rule accepts, absence rules' included: lines below it cannot be candidates (the
 * byte pre-filter).
 */
export function lowestLevel(rules: readonly Rule[]): number {
  let lowest = Infinity
  for (const rule of rules) if (rule.minLevel < lowest) lowest = rule.minLevel
  return lowest
}
