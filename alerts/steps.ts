// An incident's escalation steps: whose channels a notice goes to, and which step applies at an
// instant. A step outside its active hours is skipped, not delayed (Alertmanager's active time
// intervals): when it comes due, the first later step active at that moment applies at once.
import { isActive } from './active-hours'
import type { Rule } from './rule'

export function stepChannels(rule: Rule, step: number): readonly string[] | undefined {
  return rule.escalation[step]?.channels
}

/** A resolve goes to everyone who heard about the incident: the union of the steps reached. */
export function reachedChannels(rule: Rule, step: number): readonly string[] | undefined {
  const all = new Set<string>()
  for (let i = 0; i <= step; i++) {
    const channels = stepChannels(rule, i)
    if (channels === undefined) return undefined
    for (const c of channels) all.add(c)
  }
  return [...all]
}

/** The first step from `step` on that is active at `now`; undefined when none of them is. */
export function activeStepFrom(rule: Rule, step: number, now: number): number | undefined {
  for (let i = step; i < rule.escalation.length; i++) if (isActive(rule.escalation[i]?.activeHours, now)) return i
  return undefined
}
