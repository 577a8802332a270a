// kinds: the agent's `kinds:` section (the bound and the learning of the kind table), and a rule's keys
// on kinds (`kind`, `min_count`, `within`, `quiet`, `deploys`, `spike`, `ratio`) made into one
// `KindRuleConfig`. The shape checked each key alone; here what takes more: one kind of rule per
// rule, the options of `kind: new` and `regressed` only with it, a percentage, a window shorter than
// its baseline, no absence rule on kinds.
import {
  DEFAULT_KINDS_LEARN_MS,
  DEFAULT_KINDS_MAX,
  DEFAULT_QUIET_MS,
  DEFAULT_SPIKE_WINDOW_MS,
  type KindRuleConfig,
} from '../../../alerts/kinds'
import type { DeployWatch } from '../../../alerts/kinds/kind-rules-config'
import type { CheckContext } from '../load/check-context'
import type { Segment } from '../load/yaml-source'
import { ConfigErrorCodes } from '../errors'
import { parseDuration } from '../values/duration'
import { toFieldMatches } from '../values/field-match'
import { resolveNames } from './references'
import type { KindsConfig } from '../types'
import type { AgentConfigInput, RuleInput } from '../shape/written-types'

const DEFAULT_MIN_LINES = 100

export function normalizeKinds(written: AgentConfigInput['kinds']): KindsConfig {
  const learn = written?.learn
  return {
    max: written?.max ?? DEFAULT_KINDS_MAX,
    learnMs: (learn === undefined ? undefined : parseDuration(learn)) ?? DEFAULT_KINDS_LEARN_MS,
  }
}

/** `5%`, `0.5%`: the fraction (0.05); undefined when not a percentage above 0 and below 100. */
export function parsePercent(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text)
  const value = match === null ? NaN : Number(match[1])
  return value > 0 && value < 100 ? value / 100 : undefined
}

const NEW_KEYS = ['min_count', 'within'] as const
const REGRESSED_KEYS = ['quiet', 'deploys'] as const

/** Options of one kind of rule written on a rule of another (or none). */
function misplaced(rule: RuleInput, path: readonly Segment[], ctx: CheckContext): void {
  // A kind the shape refused (a typo) says nothing of what its options belong to.
  if (rule.kind !== undefined && rule.kind !== 'new' && rule.kind !== 'regressed') return
  for (const key of NEW_KEYS) {
    if (rule[key] !== undefined && rule.kind !== 'new')
      ctx.report(ConfigErrorCodes.CONFLICT, [...path, key], `${key} is an option of kind: new`, 'key')
  }
  for (const key of REGRESSED_KEYS) {
    if (rule[key] !== undefined && rule.kind !== 'regressed')
      ctx.report(ConfigErrorCodes.CONFLICT, [...path, key], `${key} is an option of kind: regressed`, 'key')
  }
}

/** The keys that make a rule one on kinds, as written; more than one is a conflict. */
function kindKeys(rule: RuleInput, path: readonly Segment[], ctx: CheckContext): string[] {
  const given = (['kind', 'spike', 'ratio'] as const).filter((key) => rule[key] !== undefined)
  if (given.length > 1) {
    ctx.report(ConfigErrorCodes.CONFLICT, [...path, given[1] as string], `give one of kind, spike or ratio`, 'key')
  }
  if (given.length > 0 && rule.absent !== undefined) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...path, 'absent'],
      `an absence rule has no lines to mine: remove absent or ${given[0] as string}`,
      'key',
    )
  }
  return given
}

/** The spike's durations, each said where it is wrong: both longer than 0, the window shorter than the baseline. */
function spikeTimes(spike: NonNullable<RuleInput['spike']>, path: readonly Segment[], ctx: CheckContext) {
  const baselineMs = parseDuration(spike.baseline)
  const windowMs = spike.window === undefined ? DEFAULT_SPIKE_WINDOW_MS : parseDuration(spike.window)
  const at = (key: string): Segment[] => [...path, 'spike', key]
  // A duration the shape refused is reported already.
  if (baselineMs === undefined || windowMs === undefined) return undefined
  if (baselineMs <= 0) ctx.report(ConfigErrorCodes.VALUE, at('baseline'), 'must be longer than 0')
  if (windowMs <= 0) ctx.report(ConfigErrorCodes.VALUE, at('window'), 'must be longer than 0')
  if (baselineMs <= 0 || windowMs <= 0) return undefined
  if (windowMs < baselineMs) return { baselineMs, windowMs }
  if (spike.window === undefined) {
    ctx.report(ConfigErrorCodes.VALUE, at('baseline'), 'must be longer than the window (1m when not given)')
  } else {
    const baseline = ctx.show(at('baseline'), spike.baseline)
    ctx.report(ConfigErrorCodes.VALUE, at('window'), `must be shorter than the baseline (${baseline})`)
  }
  return undefined
}

function spikeOf(spike: NonNullable<RuleInput['spike']>, path: readonly Segment[], ctx: CheckContext) {
  const times = spikeTimes(spike, path, ctx)
  // A factor or min the shape refused is reported already.
  if (times === undefined || spike.factor === undefined) return undefined
  const config: KindRuleConfig = { type: 'spike', factor: spike.factor, ...times, min: spike.min ?? 1 }
  return config
}

function ratioOf(ratio: NonNullable<RuleInput['ratio']>, path: readonly Segment[], ctx: CheckContext) {
  const above = parsePercent(String(ratio.above))
  const withinMs = parseDuration(ratio.within) ?? 0
  if (above === undefined) {
    ctx.report(
      ConfigErrorCodes.VALUE,
      [...path, 'ratio', 'above'],
      'must be a percentage above 0 and below 100, like "5%"',
    )
  }
  if (withinMs <= 0) ctx.report(ConfigErrorCodes.VALUE, [...path, 'ratio', 'within'], 'must be longer than 0')
  if (above === undefined || withinMs <= 0) return undefined
  const config: KindRuleConfig = { type: 'ratio', above, withinMs, minLines: ratio.min_lines ?? DEFAULT_MIN_LINES }
  return config
}

/** A rule's keys on kinds; undefined: not a rule on kinds (or one whose problems were reported). */
export function normalizeKindRule(
  rule: RuleInput,
  path: readonly Segment[],
  ctx: CheckContext,
  sources: readonly string[] | undefined,
): KindRuleConfig | undefined {
  misplaced(rule, path, ctx)
  const given = kindKeys(rule, path, ctx)
  if (given.length !== 1) return undefined
  if (rule.spike !== undefined) return spikeOf(rule.spike, path, ctx)
  if (rule.ratio !== undefined) return ratioOf(rule.ratio, path, ctx)
  if (rule.kind === 'new') {
    const withinMs = rule.within === undefined ? undefined : parseDuration(rule.within)
    if (withinMs === 0) ctx.report(ConfigErrorCodes.VALUE, [...path, 'within'], 'must be longer than 0')
    return { type: 'new', minCount: rule.min_count ?? 1, withinMs: withinMs === 0 ? undefined : withinMs }
  }
  const quietMs = (rule.quiet === undefined ? undefined : parseDuration(rule.quiet)) ?? DEFAULT_QUIET_MS
  return { type: 'regressed', quietMs, deploys: deploysOf(rule.deploys, path, ctx, sources) }
}

/** `deploys:`: its sources must be declared ones, as a rule's `source` (references.ts says which are). */
function deploysOf(
  deploys: RuleInput['deploys'],
  path: readonly Segment[],
  ctx: CheckContext,
  sources: readonly string[] | undefined,
): DeployWatch | undefined {
  if (deploys === undefined) return undefined
  const at = [...path, 'deploys', 'source']
  const named = deploys.source === undefined ? undefined : resolveNames(deploys.source, at, 'source', sources, ctx)
  return { sources: named, match: toFieldMatches(deploys.match) }
}
