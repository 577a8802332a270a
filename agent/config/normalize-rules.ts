// rules: written -> normalized, plus the checks that need the whole config: names unique, sources
// and channels declared, escalation steps in order.
import { levelFromName } from '../../alerts'
import type { CheckContext } from './check-context'
import { formatPath } from './config-path'
import { parseDuration } from './duration'
import { ConfigErrorCodes } from './errors'
import { toFieldMatches } from './field-match'
import { resolveNames } from './references'
import { parseRegex } from './regex-literal'
import type { EscalationConfig, RuleConfig } from './types'
import { createNameRegistry } from './unique-names'
import { listItems } from './written-list'
import type { DurationInput, RuleInput } from './written-types'
import type { Segment } from './yaml-source'

export const DEFAULT_MIN_LEVEL = 50
export const DEFAULT_REPEAT_INTERVAL_MS = 3_600_000

export interface Declared {
  sources: readonly string[]
  channels: readonly string[]
}

const ms = (value: DurationInput | undefined): number | undefined => (value === undefined ? undefined : parseDuration(value))

function minLevel(level: string | number | undefined): number {
  if (level === undefined) return DEFAULT_MIN_LEVEL
  return typeof level === 'number' ? level : levelFromName(level) ?? DEFAULT_MIN_LEVEL
}

function escalation(rule: RuleInput, path: readonly Segment[], declared: Declared, ctx: CheckContext): EscalationConfig[] {
  const steps: EscalationConfig[] = []
  let previous: { afterMs: number; path: readonly Segment[]; written: DurationInput } | undefined
  for (const { value: step, path: at } of listItems(rule.escalate, [...path, 'escalate'])) {
    const afterMs = ms(step.after)
    const notify = resolveNames(step.notify, [...at, 'notify'], 'channel', declared.channels, ctx)
    if (afterMs === undefined) continue
    if (afterMs === 0) {
      ctx.report(ConfigErrorCodes.VALUE, [...at, 'after'], 'must be later than 0 (the first notice goes to the rule\'s notify)')
    } else if (previous !== undefined && afterMs <= previous.afterMs) {
      ctx.report(ConfigErrorCodes.VALUE, [...at, 'after'], `must be later than ${formatPath(previous.path)}.after (${String(previous.written)})`)
    }
    previous = { afterMs, path: at, written: step.after }
    steps.push({ afterMs, notify })
  }
  return steps
}

function normalizeRule(rule: RuleInput, index: number, path: readonly Segment[], declared: Declared, ctx: CheckContext): RuleConfig {
  const message = rule.message === undefined ? undefined : parseRegex(rule.message, true)
  const threshold = rule.threshold
  const withinMs = ms(threshold?.within)
  if (withinMs === 0) ctx.report(ConfigErrorCodes.VALUE, [...path, 'threshold', 'within'], 'must be longer than 0')
  return {
    name: rule.name ?? `rule-${index}`,
    sources: rule.source === undefined ? undefined : resolveNames(rule.source, [...path, 'source'], 'source', declared.sources, ctx),
    minLevel: minLevel(rule.level),
    match: toFieldMatches(rule.match),
    message: message?.ok === true ? message.regex : undefined,
    groupBy: rule.group_by?.filter((p) => p !== undefined),
    groupWaitMs: ms(rule.group_wait) ?? 0,
    repeatIntervalMs: ms(rule.repeat_interval) ?? DEFAULT_REPEAT_INTERVAL_MS,
    resolveAfterMs: ms(rule.resolve_after),
    sendResolved: rule.send_resolved ?? false,
    threshold: threshold?.count !== undefined && withinMs !== undefined ? { count: threshold.count, withinMs } : undefined,
    notify: rule.notify === undefined ? [...declared.channels] : resolveNames(rule.notify, [...path, 'notify'], 'channel', declared.channels, ctx),
    escalate: escalation(rule, path, declared, ctx),
    incident: rule.incident ?? false,
    title: rule.title,
  }
}

/** No rules written means one: error and fatal lines from every source to every channel. */
export function normalizeRules(written: RuleInput[] | undefined, declared: Declared, ctx: CheckContext): RuleConfig[] {
  if (written === undefined) return [normalizeRule({ name: 'default' }, 0, ['rules', 0], declared, ctx)]
  const register = createNameRegistry('rule', ctx)
  return listItems(written, ['rules']).map(({ value: rule, path }) => {
    const index = path[path.length - 1] as number
    const normalized = normalizeRule(rule, index, path, declared, ctx)
    register(normalized.name, rule.name === undefined ? path : [...path, 'name'])
    return normalized
  })
}
