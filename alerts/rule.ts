// The rule model. `RuleConfig` is the normalized rule (durations in ms, regexes compiled, names
// resolved, defaults filled in): agent/config makes it from the YAML and from the transport
// targets' options alike, and checks it there. `compileRule` adds what matching every line needs
// (compiled dot paths and title) without checking anything again.
import type { ActiveHours } from './active-hours'
import { compilePath, type PathGetter } from './dot-path'
import { AlertsError, AlertsErrorCodes } from './errors'
import type { KindRuleConfig } from './kinds/kind-rules-config'
import { defaultKindTitle } from './kinds/kind-vars'
import { compileFieldMatch, type FieldMatch, type FieldMatcher } from './matcher'
import type { OncallRef } from './schedule'
import { compileTemplate, type Template } from './template'

export const DEFAULT_MIN_LEVEL = 50
export const DEFAULT_REPEAT_INTERVAL_MS = 3_600_000
export const DEFAULT_TITLE = '{{msg}}'

/** A later notification step: `after` counts from when the incident first fired. */
export interface EscalationConfig {
  afterMs: number
  notify: string[]
  /** Person names this step pages on its channels instead of the channels' recipients; undefined: the channels' own. */
  people?: string[] | undefined
  /**
   * Whoever is on call in this schedule (layer) when the step's notice is sent, instead of the
   * channels' recipients.
   */
  oncall?: OncallRef | undefined
  /** Outside these hours the step is skipped (the next one applies at once). */
  activeHours?: ActiveHours[] | undefined
}

export interface RuleConfig {
  name: string
  /** Source names; undefined: every source. */
  sources: string[] | undefined
  minLevel: number
  match: FieldMatch[]
  message: RegExp | undefined
  groupBy: string[] | undefined
  groupWaitMs: number
  repeatIntervalMs: number
  resolveAfterMs: number | undefined
  sendResolved: boolean
  threshold: { count: number; withinMs: number } | undefined
  /** Channels of the first notice, named explicitly (the normalizer fills in "every channel"). */
  notify: string[]
  /** Later steps, `afterMs` increasing and above 0. */
  escalate: EscalationConfig[]
  /** Record each incident as a CRM lead (the agent's concern; the engine ignores it). */
  incident: boolean
  /** Title template; undefined: `{{msg}}`. */
  title: string | undefined
  /** An acknowledged incident still firing this long after the ack goes back to unacknowledged; undefined: never. */
  ackTimeoutMs: number | undefined
  /**
   * An absence rule (absence.ts): an incident opens per group key silent for `forMs`, and the key's
   * next line resolves it. Its lines are watched, never owned (they still reach the other rules).
   * undefined: an ordinary rule.
   */
  absent: { forMs: number } | undefined
  /** A rule on kinds (alerts/kinds/kind-rules.ts): it takes a line only when its decision says so. */
  kinds?: KindRuleConfig | undefined
}

export interface EscalationStep {
  afterMs: number
  /** Channel names notified from this step on; undefined: every channel. */
  channels: readonly string[] | undefined
  /** Who this step pages on its channels (instead of the channels' recipients); undefined: the channels' own. */
  people: readonly string[] | undefined
  oncall: OncallRef | undefined
  activeHours: readonly ActiveHours[] | undefined
}

/** A rule as the engine runs it. */
export interface Rule {
  name: string
  minLevel: number
  match: readonly FieldMatcher[]
  message: RegExp | undefined
  sources: ReadonlySet<string> | undefined
  groupBy: readonly string[] | undefined
  /** `groupBy` compiled, in the same order (the key is computed on every selected line). */
  groupByGetters: readonly PathGetter[] | undefined
  groupWaitMs: number
  repeatIntervalMs: number
  threshold: { count: number; withinMs: number } | undefined
  resolveAfterMs: number | undefined
  sendResolved: boolean
  ackTimeoutMs: number | undefined
  /** Step 0 is the first notice (`notify`); later steps escalate. */
  escalation: readonly EscalationStep[]
  title: Template
  /** An absence rule: its threshold and resolve_after do not apply (both undefined here). */
  absent: { forMs: number } | undefined
  kinds: KindRuleConfig | undefined
}

const titleOf = (config: RuleConfig): string =>
  config.kinds === undefined ? DEFAULT_TITLE : defaultKindTitle(config.kinds)

export function compileRule(config: RuleConfig, path = config.name): Rule {
  // An absence incident has no lines to count or to fall quiet: only the key's next line ends it.
  const absent = config.absent === undefined ? undefined : { forMs: config.absent.forMs }
  return {
    name: config.name,
    minLevel: config.minLevel,
    match: config.match.map(compileFieldMatch),
    message: config.message,
    sources: config.sources === undefined ? undefined : new Set(config.sources),
    groupBy: config.groupBy,
    groupByGetters: config.groupBy?.map(compilePath),
    groupWaitMs: config.groupWaitMs,
    repeatIntervalMs: config.repeatIntervalMs,
    threshold: absent === undefined ? config.threshold : undefined,
    resolveAfterMs: absent === undefined ? config.resolveAfterMs : undefined,
    sendResolved: config.sendResolved,
    ackTimeoutMs: config.ackTimeoutMs,
    escalation: [
      { afterMs: 0, channels: config.notify, people: undefined, oncall: undefined, activeHours: undefined },
      ...config.escalate.map((s) => ({
        afterMs: s.afterMs,
        channels: s.notify,
        people: s.people,
        oncall: s.oncall,
        activeHours: s.activeHours,
      })),
    ],
    title: compileTemplate(config.title ?? titleOf(config), `${path}.title`),
    absent,
    kinds: config.kinds,
  }
}

/** Rules in order; a name used twice is a caller's bug (the config checks names first). */
export function compileRules(configs: readonly RuleConfig[]): Rule[] {
  const seen = new Set<string>()
  return configs.map((config, i) => {
    if (seen.has(config.name))
      throw new AlertsError(AlertsErrorCodes.INVALID_RULE, `rules[${i}].name`, `duplicate rule name "${config.name}"`)
    seen.add(config.name)
    return compileRule(config, `rules[${i}]`)
  })
}
