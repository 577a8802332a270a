// The rule model: the written form (what YAML and transport options hold, snake_case like
// Alertmanager) and the normalized form (compiled regexes, durations in ms, defaults filled in).
// Unknown keys are errors, and every error names its path.
import { compilePath, type PathGetter } from './dot-path'
import { parseDuration, type DurationInput } from './duration'
import { AlertsError, AlertsErrorCodes } from './errors'
import { parseLevel } from './levels'
import { compileFieldMatchers, compileRegex, type FieldMatcher, type FieldMatcherInput } from './matcher'
import { compileTemplate, type Template } from './template'

export interface EscalationStepInput {
  /** Time since the incident first fired. */
  after: DurationInput
  /** Channel names notified from this step on. */
  channels: string[]
}

export interface RuleInput {
  name?: string
  /** Minimum level; default `error` (so error and fatal lines alert). */
  level?: string | number
  /** Dot path -> value (equality) or `{ regex, flags? }`. All must match. */
  fields?: Record<string, FieldMatcherInput>
  /** Regular expression on the message. */
  msg?: string | { regex: string; flags?: string }
  /** Exact source names (file path or app name) this rule applies to. */
  source?: string | string[]
  /** Fields whose values make the incident key; default: error type + top frame + masked message. */
  group_by?: string[]
  group_wait?: DurationInput
  repeat_interval?: DurationInput
  /** Fire only once `count` lines arrived within `within`. */
  threshold?: { count: number; within: DurationInput }
  /** Resolve after this long without a matching line. */
  resolve_after?: DurationInput
  send_resolved?: boolean
  /** Channels notified when there is no escalation; default all. */
  channels?: string[]
  escalation?: EscalationStepInput[]
  /** Incident title template; default `{{msg}}`. */
  title?: string
}

export interface EscalationStep {
  afterMs: number
  channels: readonly string[] | undefined
}

export interface Rule {
  name: string
  minLevel: number
  fields: readonly FieldMatcher[]
  msg: RegExp | undefined
  sources: ReadonlySet<string> | undefined
  groupBy: readonly string[] | undefined
  /** `groupBy` compiled, in the same order (the key is computed on every selected line). */
  groupByGetters: readonly PathGetter[] | undefined
  groupWaitMs: number
  repeatIntervalMs: number
  threshold: { count: number; withinMs: number } | undefined
  resolveAfterMs: number | undefined
  sendResolved: boolean
  /** Step 0 is the initial notification; later steps escalate. */
  escalation: readonly EscalationStep[]
  title: Template
}

export const DEFAULT_MIN_LEVEL = 50
export const DEFAULT_REPEAT_INTERVAL_MS = 3_600_000

const RULE_KEYS = new Set([
  'name', 'level', 'fields', 'msg', 'source', 'group_by', 'group_wait', 'repeat_interval', 'threshold',
  'resolve_after', 'send_resolved', 'channels', 'escalation', 'title',
])

function fail(path: string, message: string): never {
  throw new AlertsError(AlertsErrorCodes.INVALID_RULE, path, message)
}

function stringList(value: unknown, path: string): string[] {
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string' && v !== '')) {
    fail(path, 'expected a non-empty list of non-empty strings')
  }
  return list as string[]
}

function optionalDuration(value: unknown, path: string): number | undefined {
  return value === undefined ? undefined : parseDuration(value, path)
}

export function normalizeRule(input: unknown, path: string, index = 0): Rule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) fail(path, 'expected an object')
  const written = input as Record<string, unknown>
  for (const key of Object.keys(written)) if (!RULE_KEYS.has(key)) fail(`${path}.${key}`, 'unknown key')

  const name = written.name ?? `rule-${index}`
  if (typeof name !== 'string' || name === '') fail(`${path}.name`, 'expected a non-empty string')

  let msg: RegExp | undefined
  if (typeof written.msg === 'object' && written.msg !== null) {
    const { regex, flags } = written.msg as { regex?: unknown; flags?: unknown }
    msg = compileRegex(regex, `${path}.msg.regex`, flags)
  } else if (written.msg !== undefined) {
    msg = compileRegex(written.msg, `${path}.msg`)
  }

  let threshold: Rule['threshold']
  if (written.threshold !== undefined) {
    const t = written.threshold as { count?: unknown; within?: unknown }
    if (typeof t !== 'object' || t === null) fail(`${path}.threshold`, 'expected { count, within }')
    if (!Number.isInteger(t.count) || (t.count as number) < 1) fail(`${path}.threshold.count`, 'expected an integer >= 1')
    threshold = { count: t.count as number, withinMs: parseDuration(t.within, `${path}.threshold.within`) }
  }

  const channels = written.channels === undefined ? undefined : stringList(written.channels, `${path}.channels`)
  let escalation: EscalationStep[] = [{ afterMs: 0, channels }]
  if (written.escalation !== undefined) {
    if (!Array.isArray(written.escalation) || written.escalation.length === 0) fail(`${path}.escalation`, 'expected a non-empty list of { after, channels }')
    let previous = -1
    escalation = written.escalation.map((step: unknown, i: number) => {
      const at = `${path}.escalation[${i}]`
      if (typeof step !== 'object' || step === null) fail(at, 'expected { after, channels }')
      const s = step as { after?: unknown; channels?: unknown }
      const afterMs = parseDuration(s.after ?? 0, `${at}.after`)
      if (afterMs <= previous) fail(`${at}.after`, 'steps must be in increasing order of `after`')
      previous = afterMs
      return { afterMs, channels: stringList(s.channels, `${at}.channels`) }
    })
    if ((escalation[0] as EscalationStep).afterMs !== 0) escalation.unshift({ afterMs: 0, channels: [] })
  }

  if (written.send_resolved !== undefined && typeof written.send_resolved !== 'boolean') {
    fail(`${path}.send_resolved`, 'expected true or false')
  }
  if (written.title !== undefined && typeof written.title !== 'string') fail(`${path}.title`, 'expected a template string')

  // In the order the keys are checked (the first invalid one is the error reported).
  const minLevel = written.level === undefined ? DEFAULT_MIN_LEVEL : parseLevel(written.level, `${path}.level`)
  const fields = compileFieldMatchers(written.fields, `${path}.fields`)
  const sources = written.source === undefined ? undefined : new Set(stringList(written.source, `${path}.source`))
  const groupBy = written.group_by === undefined ? undefined : stringList(written.group_by, `${path}.group_by`)
  return {
    name,
    minLevel,
    fields,
    msg,
    sources,
    groupBy,
    groupByGetters: groupBy?.map(compilePath),
    groupWaitMs: optionalDuration(written.group_wait, `${path}.group_wait`) ?? 0,
    repeatIntervalMs: optionalDuration(written.repeat_interval, `${path}.repeat_interval`) ?? DEFAULT_REPEAT_INTERVAL_MS,
    threshold,
    resolveAfterMs: optionalDuration(written.resolve_after, `${path}.resolve_after`),
    sendResolved: written.send_resolved === true,
    escalation,
    title: compileTemplate((written.title as string | undefined) ?? '{{msg}}', `${path}.title`),
  }
}

/** Rules in order; none given means one default rule: error and fatal lines. */
export function normalizeRules(input: unknown, path = 'rules'): Rule[] {
  if (input === undefined) return [normalizeRule({ name: 'default' }, `${path}[0]`)]
  if (!Array.isArray(input) || input.length === 0) fail(path, 'expected a non-empty list of rules')
  const rules = input.map((rule: unknown, i: number) => normalizeRule(rule, `${path}[${i}]`, i))
  const seen = new Set<string>()
  rules.forEach((rule, i) => {
    if (seen.has(rule.name)) fail(`${path}[${i}].name`, `duplicate rule name "${rule.name}"`)
    seen.add(rule.name)
  })
  return rules
}
