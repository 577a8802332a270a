// Inhibition: while a cause is firing (db-down), the pages of its consequences (api-errors on the
// same host) are muted. Pure: the caller passes the open incidents. `InhibitRule` is the normalized
// form agent/config makes from `inhibit:`; the engine turns a muted notice into an `inhibited` one
// naming the source, so nothing is muted silently. The rules, in order:
// 1. A rule links a source incident to a target incident when the target matches all of its
//    `target` matchers, the source all of its `source` matchers, and rule 4 holds. Matchers are the
//    silences' (`FieldMatch`) on the same labels (labels.ts: the last line's fields, plus `rule`,
//    `fingerprint`, `title`); an empty list matches every incident.
// 2. Only a firing or acknowledged source mutes. A pending one paged nobody and may never fire (a
//    threshold not reached), so its consequences must still page; an acknowledged one is being
//    worked on, and its consequences stay quiet.
// 3. An incident never mutes itself (same key), even when it matches both sides of a rule.
// 4. `equal`: every path has a value on both incidents, and the same one. The paths are read on the
//    labels of rule 1, so on the last lines (what each incident says now). Missing, null and '' are
//    no value: never equal. Alertmanager takes a label missing on both as equal (both empty); then
//    `equal: [host]` on lines that carry no host would mute every target of the rule, and we would
//    rather page. Values compare by type and value (1 is not "1"); objects by their JSON text.
// 5. Peers do not mute each other: when the target, firing or acknowledged, could mute the source as
//    well (some rule links them the other way round), neither mutes the other and both page. So with
//    `source: { level: fatal }, target: {}, equal: [host]`, two fatal incidents on one host do not
//    silence each other (Alertmanager: an alert matching both sides of a rule is not inhibited by
//    alerts that do too; this is that, across rules as well). Longer cycles (a -> b -> c -> a) are
//    not detected here.
// 6. Several rules: any rule may link. The answer is the first linked source in the order the
//    sources are given (the engine gives the open incidents most recently seen first), so the lead
//    can say which incident muted the page. Neither the target's status nor the notice's kind is
//    looked at: the engine decides which notices may be muted.
//
// Cost: mutedBy runs per target notice, over every open incident. Matchers are compiled once; rules
// are indexed by the rule name their `target` (and `source`) matchers require, so a notice of a rule
// no inhibit rule targets costs one map lookup, and a source of another rule costs one more.
import { compilePath, type PathGetter } from './dot-path'
import { incidentLabels } from './labels'
import { compileFieldMatch, matchField, type FieldMatch, type FieldMatcher } from './matcher'
import type { IncidentSnapshot, IncidentStatus } from './notice'

export interface InhibitRule {
  /** The incident that mutes (the cause). */
  source: FieldMatch[]
  /** The incidents whose notices it mutes (the consequences). */
  target: FieldMatch[]
  /** Dot paths whose values must be equal on both incidents' last lines (rule 4). */
  equal: string[]
}

export interface Inhibitor {
  /** The first of `sources` that mutes `target` (rules 1-6), or undefined: the notice goes out. */
  mutedBy(target: IncidentSnapshot, sources: Iterable<IncidentSnapshot>): IncidentSnapshot | undefined
}

interface CompiledRule {
  source: readonly FieldMatcher[]
  target: readonly FieldMatcher[]
  equal: readonly PathGetter[]
  /** The rule name the `source` matchers require (`rule: db-down`), if they do: an index key. */
  sourceRule: string | undefined
  targetRule: string | undefined
}

const MUTING: ReadonlySet<IncidentStatus> = new Set<IncidentStatus>(['firing', 'acknowledged'])

function requiredRule(matchers: readonly FieldMatch[]): string | undefined {
  for (const m of matchers) if (m.kind === 'equals' && m.path === 'rule' && typeof m.value === 'string') return m.value
  return undefined
}

function compileInhibitRule(rule: InhibitRule): CompiledRule {
  return {
    source: rule.source.map(compileFieldMatch),
    target: rule.target.map(compileFieldMatch),
    equal: rule.equal.map(compilePath),
    sourceRule: requiredRule(rule.source),
    targetRule: requiredRule(rule.target),
  }
}

function matchesAll(matchers: readonly FieldMatcher[], labels: Readonly<Record<string, unknown>>): boolean {
  return matchers.every((m) => matchField(m, labels))
}

const hasValue = (value: unknown): boolean => value !== undefined && value !== null && value !== ''

function sameValue(a: unknown, b: unknown): boolean {
  if (!hasValue(a) || !hasValue(b)) return false
  if (typeof a === 'object' || typeof b === 'object')
    return typeof a === typeof b && JSON.stringify(a) === JSON.stringify(b)
  return a === b
}

function equalOn(
  rule: CompiledRule,
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): boolean {
  return rule.equal.every((get) => sameValue(get(a), get(b)))
}

/** Rule 1's link, the target's side already known to match. */
function sourceSideHolds(
  rule: CompiledRule,
  sourceLabels: Readonly<Record<string, unknown>>,
  targetLabels: Readonly<Record<string, unknown>>,
): boolean {
  return matchesAll(rule.source, sourceLabels) && equalOn(rule, sourceLabels, targetLabels)
}

export function createInhibitor(rules: readonly InhibitRule[]): Inhibitor {
  const compiled = rules.map(compileInhibitRule)
  const byTargetRule = new Map<string, CompiledRule[]>()
  const anyTarget: CompiledRule[] = []
  for (const rule of compiled) {
    if (rule.targetRule === undefined) anyTarget.push(rule)
    else byTargetRule.set(rule.targetRule, [...(byTargetRule.get(rule.targetRule) ?? []), rule])
  }

  /** The rules whose target side `incident` matches (rule 1). */
  function targeting(incident: IncidentSnapshot, labels: Readonly<Record<string, unknown>>): CompiledRule[] {
    const named = byTargetRule.get(incident.rule) ?? []
    return [...named, ...anyTarget].filter((rule) => matchesAll(rule.target, labels))
  }

  /** Whether `source` mutes `target` by some rule (rules 1-4), peers not considered. */
  function links(
    source: IncidentSnapshot,
    sourceLabels: Record<string, unknown>,
    target: IncidentSnapshot,
    targetLabels: Record<string, unknown>,
  ): boolean {
    if (!MUTING.has(source.status) || source.key === target.key) return false
    return targeting(target, targetLabels).some(
      (rule) =>
        (rule.sourceRule === undefined || rule.sourceRule === source.rule) &&
        sourceSideHolds(rule, sourceLabels, targetLabels),
    )
  }

  function mutedBy(target: IncidentSnapshot, sources: Iterable<IncidentSnapshot>): IncidentSnapshot | undefined {
    // Most notices belong to no rule an inhibit rule targets: one lookup, no labels built.
    if (anyTarget.length === 0 && !byTargetRule.has(target.rule)) return undefined
    const targetLabels = incidentLabels(target)
    const applicable = targeting(target, targetLabels)
    if (applicable.length === 0) return undefined
    const bySourceRule = new Map<string, CompiledRule[]>()
    const anySource: CompiledRule[] = []
    for (const rule of applicable) {
      if (rule.sourceRule === undefined) anySource.push(rule)
      else bySourceRule.set(rule.sourceRule, [...(bySourceRule.get(rule.sourceRule) ?? []), rule])
    }
    for (const source of sources) {
      if (!MUTING.has(source.status) || source.key === target.key) continue
      const named = bySourceRule.get(source.rule)
      if (named === undefined && anySource.length === 0) continue
      const sourceLabels = incidentLabels(source)
      const linked =
        (named ?? []).some((rule) => sourceSideHolds(rule, sourceLabels, targetLabels)) ||
        anySource.some((rule) => sourceSideHolds(rule, sourceLabels, targetLabels))
      if (linked && !links(target, targetLabels, source, sourceLabels)) return source
    }
    return undefined
  }

  return { mutedBy }
}
