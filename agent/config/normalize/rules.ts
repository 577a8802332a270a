// rules: written -> normalized, plus the checks that need the whole config: names unique, sources,
// channels, people and schedules declared, escalation steps in order, a step's people (or the
// people on call in its schedule) reachable on its channels, an absence rule without a threshold.
// The one rule normalizer: the YAML config's rules and a transport target's `rules` option both
// come through here.
import { DEFAULT_MIN_LEVEL, DEFAULT_REPEAT_INTERVAL_MS, levelFromName } from '../../../alerts'
import type { CheckContext } from '../load/check-context'
import { formatPath } from '../shape/config-path'
import { parseDuration } from '../values/duration'
import { ConfigErrorCodes } from '../errors'
import { toFieldMatches } from '../values/field-match'
import { normalizeActiveHours } from './active-hours'
import { normalizeKindRule } from './kinds'
import type { PeopleDirectory } from './people'
import type { ScheduleDirectory } from './schedules'
import { resolveNames } from './references'
import { parseRegex } from '../values/regex-literal'
import type { EscalationConfig, OncallRef, RuleConfig } from '../types'
import { createNameRegistry } from './unique-names'
import { listItems } from '../shape/written-list'
import type { DurationInput, EscalationInput, RuleInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

/** What a rule's names refer to. */
export interface RuleScope {
  /** Sources a rule may name; undefined: any name (a target's rules name its `source` option). */
  sources: readonly string[] | undefined
  /** The channels a rule without `notify` notifies. */
  channels: readonly string[]
  /** Whether `notify` must name one of `channels` (YAML); a target's rules may name other targets' channels. */
  checkChannels: boolean
  /** The YAML's people (escalation steps name them); a target has none, and its steps no `people` key. */
  people: PeopleDirectory | undefined
  /** The YAML's schedules (escalation steps' `oncall`); a target has none, and its steps no `oncall` key. */
  schedules: ScheduleDirectory | undefined
}

/** The shortest silence an absence rule waits for: less would fire between two lines of a busy log. */
const MIN_ABSENT_MS = 1000

const ms = (value: DurationInput | undefined): number | undefined =>
  value === undefined ? undefined : parseDuration(value)

function minLevel(level: string | number | undefined): number {
  if (level === undefined) return DEFAULT_MIN_LEVEL
  return typeof level === 'number' ? level : (levelFromName(level) ?? DEFAULT_MIN_LEVEL)
}

function channelNames(
  value: string | string[] | undefined,
  path: readonly Segment[],
  scope: RuleScope,
  ctx: CheckContext,
): string[] {
  return resolveNames(value, path, 'channel', scope.checkChannels ? scope.channels : undefined, ctx)
}

function escalation(
  rule: RuleInput,
  path: readonly Segment[],
  scope: RuleScope,
  ctx: CheckContext,
): EscalationConfig[] {
  const steps: EscalationConfig[] = []
  let previous: { afterMs: number; path: readonly Segment[]; written: DurationInput } | undefined
  for (const { value: step, path: at } of listItems(rule.escalate, [...path, 'escalate'])) {
    const afterMs = ms(step.after)
    const notify = channelNames(step.notify, [...at, 'notify'], scope, ctx)
    const people = stepPeople(step, at, notify, scope)
    const oncall = stepOncall(step, at, notify, scope, ctx)
    const activeHours = normalizeActiveHours(step.active_hours)
    if (afterMs === undefined) continue
    if (afterMs === 0) {
      ctx.report(
        ConfigErrorCodes.VALUE,
        [...at, 'after'],
        "must be later than 0 (the first notice goes to the rule's notify)",
      )
    } else if (previous !== undefined && afterMs <= previous.afterMs) {
      ctx.report(
        ConfigErrorCodes.VALUE,
        [...at, 'after'],
        `must be later than ${formatPath(previous.path)}.after (${String(previous.written)})`,
      )
    }
    previous = { afterMs, path: at, written: step.after }
    // Keys only when written: a step without them reads as it did before they existed.
    const normalized: EscalationConfig = { afterMs, notify }
    if (people !== undefined) normalized.people = people
    if (oncall !== undefined) normalized.oncall = oncall
    if (activeHours !== undefined) normalized.activeHours = activeHours
    steps.push(normalized)
  }
  return steps
}

/** A step's schedule: everyone who can be on call through it needs the address of each of the step's channels. */
function stepOncall(
  step: EscalationInput,
  at: readonly Segment[],
  notify: readonly string[],
  scope: RuleScope,
  ctx: CheckContext,
): OncallRef | undefined {
  const { schedules } = scope
  if (step.oncall === undefined || schedules === undefined) return undefined
  if (step.people !== undefined) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...at, 'oncall'],
      "give people or oncall, not both: either replaces the channels' recipients",
      'key',
    )
  }
  const ref = schedules.resolve(step.oncall, [...at, 'oncall'])
  if (ref !== undefined) for (const channel of notify) schedules.checkReach(ref, channel, [...at, 'oncall'])
  return ref
}

/** `absent: { for }`: at least a second, and no threshold (an absence has no lines to count). */
function absence(rule: RuleInput, path: readonly Segment[], ctx: CheckContext): { forMs: number } | undefined {
  if (rule.absent === undefined) return undefined
  const forMs = ms(rule.absent.for)
  if (rule.threshold !== undefined) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...path, 'threshold'],
      'an absence rule (absent) fires when no line arrives, so it has no lines to count: remove threshold',
      'key',
    )
  }
  if (forMs === undefined) return undefined
  if (forMs < MIN_ABSENT_MS) {
    ctx.report(ConfigErrorCodes.VALUE, [...path, 'absent', 'for'], 'must be at least 1s')
    return undefined
  }
  return { forMs }
}

/** A step's people, each of whom needs the address every channel of the step sends to. */
function stepPeople(
  step: EscalationInput,
  at: readonly Segment[],
  notify: readonly string[],
  scope: RuleScope,
): string[] | undefined {
  const { people } = scope
  if (step.people === undefined || people === undefined) return undefined
  const listed = people.resolve(step.people, [...at, 'people'])
  for (const { value: person, path } of listed) for (const channel of notify) people.addressFor(person, channel, path)
  return listed.map(({ value }) => value)
}

function ackTimeout(rule: RuleInput, path: readonly Segment[], ctx: CheckContext): number | undefined {
  const timeoutMs = ms(rule.ack_timeout)
  if (timeoutMs !== 0) return timeoutMs
  // 0 would undo every acknowledgement at the next tick.
  ctx.report(
    ConfigErrorCodes.VALUE,
    [...path, 'ack_timeout'],
    'must be longer than 0 (omit it to keep acknowledgements until the incident resolves)',
  )
  return undefined
}

function checkWithin(withinMs: number | undefined, path: readonly Segment[], ctx: CheckContext): void {
  if (withinMs !== 0) return
  ctx.report(ConfigErrorCodes.VALUE, [...path, 'threshold', 'within'], 'must be longer than 0')
}

function normalizeRule(
  rule: RuleInput,
  index: number,
  path: readonly Segment[],
  scope: RuleScope,
  ctx: CheckContext,
): RuleConfig {
  const kinds = normalizeKindRule(rule, path, ctx, scope.sources)
  const message = rule.message === undefined ? undefined : parseRegex(rule.message, true)
  const threshold = rule.threshold
  const withinMs = ms(threshold?.within)
  checkWithin(withinMs, path, ctx)
  return {
    name: rule.name ?? `rule-${index}`,
    sources:
      rule.source === undefined
        ? undefined
        : resolveNames(rule.source, [...path, 'source'], 'source', scope.sources, ctx),
    minLevel: minLevel(rule.level),
    match: toFieldMatches(rule.match),
    message: message?.ok === true ? message.regex : undefined,
    groupBy: rule.group_by?.filter((p) => p !== undefined),
    groupWaitMs: ms(rule.group_wait) ?? 0,
    repeatIntervalMs: ms(rule.repeat_interval) ?? DEFAULT_REPEAT_INTERVAL_MS,
    resolveAfterMs: ms(rule.resolve_after),
    ackTimeoutMs: ackTimeout(rule, path, ctx),
    sendResolved: rule.send_resolved ?? false,
    threshold:
      threshold?.count !== undefined && withinMs !== undefined ? { count: threshold.count, withinMs } : undefined,
    notify:
      rule.notify === undefined ? [...scope.channels] : channelNames(rule.notify, [...path, 'notify'], scope, ctx),
    escalate: escalation(rule, path, scope, ctx),
    incident: rule.incident ?? false,
    title: rule.title,
    absent: absence(rule, path, ctx),
    // Only on a rule on kinds: others read as they did before kinds existed.
    ...(kinds === undefined ? {} : { kinds }),
  }
}

/** No rules written means one: error and fatal lines from every source to every channel. */
export function normalizeRules(written: RuleInput[] | undefined, scope: RuleScope, ctx: CheckContext): RuleConfig[] {
  if (written === undefined) return [normalizeRule({ name: 'default' }, 0, ['rules', 0], scope, ctx)]
  const register = createNameRegistry('rule', ctx)
  return listItems(written, ['rules']).map(({ value: rule, path }) => {
    const index = path[path.length - 1] as number
    const normalized = normalizeRule(rule, index, path, scope, ctx)
    register(normalized.name, rule.name === undefined ? path : [...path, 'name'])
    return normalized
  })
}
