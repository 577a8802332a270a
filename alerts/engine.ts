// The alerting pipeline assembled: select a rule -> incident state machine -> silences -> route to
// channels -> budget -> render. Pure: the caller brings lines, time and the tick; the engine brings
// back the messages to send. The agent's transports and the daemon both drive one of these, on
// rules, channels and silences agent/config normalized and checked (nothing is checked again here).
import type { RedactPath } from './dot-path'
import { compileChannels, type Channel, type ChannelDefinition, type ChannelType } from './channels'
import { createBudgetStage } from './budget'
import { createIncidentTable } from './incidents'
import { parseLine, type AlertLine } from './line'
import type { Notice } from './notice'
import { renderMessage, scrubSecrets, type RenderedMessage } from './render'
import { createRouteStage } from './route'
import { fingerprint } from './fingerprint'
import { compileRules, type Rule, type RuleConfig } from './rule'
import { selectRule } from './select'
import { createCensor, usableSecrets } from './secrets'
import { createSilenceSet, type Silence, type SilenceConfig } from './silences'
import { sequence, type Stage } from './stage'

/** The field logx-tail-filter adds to a line it passes: the name of the rule that selected it. */
export const RULE_ANNOTATION = 'logx_rule'

export interface AlertEngineOptions {
  /** Tried in order; the first rule that selects a line owns it. */
  rules: readonly RuleConfig[]
  channels: readonly ChannelDefinition[]
  silences?: readonly SilenceConfig[] | undefined
  /** Paths (as segments, `*` for every key) censored in every selected line before anything is built from it. */
  redact?: readonly RedactPath[] | undefined
  /** Literal strings (API keys, tokens) that must never appear in a rendered message. */
  secrets?: readonly string[] | undefined
  maxIncidents?: number | undefined
  /** When the initial silences without a start begin. */
  now?: number
}

export interface Delivery {
  notice: Notice & { channel: string }
  channelType: ChannelType
  message: RenderedMessage
}

export interface AlertEngineStats {
  lines: number
  selected: number
  openIncidents: number
  firingIncidents: number
  evicted: number
  silenced: number
  suppressed: number
  digests: number
  deliveries: number
}

/** A line a rule selected, as the engine keeps it: censored, with its incident key. */
export interface SelectedLine {
  rule: Rule
  /** The line after `redact` and `secrets`: what incidents, messages and keys are made of. */
  line: AlertLine
  /** The incident key (`fingerprint(rule, line)`). */
  key: string
}

export interface AlertEngine {
  readonly rules: readonly Rule[]
  readonly channels: readonly Channel[]
  /** One line (raw text or already parsed); returns what to send now. */
  ingest(line: string | AlertLine, now: number, source?: string): Delivery[]
  /**
   * ingest() in two steps, for a caller that needs the incident key before the incident changes
   * (the daemon records it first): the rule that selects the line by its content (the `logx_rule`
   * annotation is ingest()'s only), the line censored and its key; undefined when no rule takes it.
   * Changes nothing but the line counters.
   */
  select(line: string | AlertLine, source?: string): SelectedLine | undefined
  /** The second step: what select() returned, into the incident table; returns what to send now. */
  ingestSelected(selected: SelectedLine, now: number): Delivery[]
  /** Timers' work: group_wait, repeat, escalation, resolve, digests. Call it every second or so. */
  tick(now: number): Delivery[]
  /** At shutdown: fire incidents still waiting in group_wait, and send digests the budget still owes. */
  flush(now: number): Delivery[]
  addSilence(config: SilenceConfig, now: number): Silence
  removeSilence(id: string): boolean
  stats(): AlertEngineStats
}

export function createAlertEngine(options: AlertEngineOptions): AlertEngine {
  const rules = compileRules(options.rules)
  const byName = new Map(rules.map((r) => [r.name, r]))
  const channels = compileChannels(options.channels)
  const channelByName = new Map(channels.map((c) => [c.name, c]))
  const redact = options.redact ?? []
  const secrets = usableSecrets(options.secrets ?? [])
  const incidents = createIncidentTable({ maxIncidents: options.maxIncidents })
  const silences = createSilenceSet(options.silences ?? [], options.now ?? 0)
  const budget = createBudgetStage(Object.fromEntries(channels.map((c) => [c.name, c.maxPerHour])))
  const notify: Stage = sequence(silences.stage, createRouteStage(
      channels.map((c) => c.name),
      channels.filter((c) => c.type === 'incident').map((c) => c.name),
    ), budget.stage)
  let lines = 0
  let selectedCount = 0
  let deliveries = 0

  const release: Stage = sequence(notify, budget.release)

  function deliver(now: number, notices: Notice[], pipeline: Stage = notify): Delivery[] {
    // Most selected lines change an incident without a notice: of the stages, only the budget has
    // anything to say then (digests it owes), and silences and routes need not run.
    const routed = notices.length === 0 && pipeline === notify ? budget.stage({ now }, notices) : pipeline({ now }, notices)
    const out: Delivery[] = []
    for (const notice of routed) {
      const channel = notice.channel === undefined ? undefined : channelByName.get(notice.channel)
      if (channel === undefined) continue
      out.push({
        notice: notice as Notice & { channel: string },
        channelType: channel.type,
        message: scrubSecrets(renderMessage(channel, notice), secrets),
      })
    }
    deliveries += out.length
    return out
  }

  const censor = createCensor(redact, secrets)

  function selected(rule: Rule, line: AlertLine): SelectedLine {
    selectedCount++
    const clean = censor(line)
    return { rule, line: clean, key: fingerprint(rule, clean) }
  }

  function ingestSelected(s: SelectedLine, now: number): Delivery[] {
    return deliver(now, incidents.observe(s.rule, s.line, now, s.key))
  }

  function ruleFor(line: AlertLine): Rule | undefined {
    const annotated = line.record[RULE_ANNOTATION]
    if (typeof annotated === 'string') {
      const rule = byName.get(annotated)
      if (rule !== undefined) return rule
    }
    return selectRule(rules, line)
  }

  return {
    rules,
    channels,
    ingest(input, now, source) {
      lines++
      const line = typeof input === 'string' ? parseLine(input, source) : input
      const rule = ruleFor(line)
      // Digests owed by the budget go out on tick(); an unselected line costs nothing more.
      if (rule === undefined) return []
      return ingestSelected(selected(rule, line), now)
    },
    select(input, source) {
      lines++
      const line = typeof input === 'string' ? parseLine(input, source) : input
      const rule = selectRule(rules, line)
      return rule === undefined ? undefined : selected(rule, line)
    },
    ingestSelected,
    tick: (now) => deliver(now, incidents.tick(now)),
    flush: (now) => deliver(now, [...incidents.tick(now), ...incidents.flush(now)], release),
    addSilence: (config, now) => silences.add(config, now),
    removeSilence: (id) => silences.remove(id),
    stats() {
      const i = incidents.stats()
      const b = budget.stats()
      return {
        lines,
        selected: selectedCount,
        openIncidents: i.open,
        firingIncidents: i.firing,
        evicted: i.evicted,
        silenced: silences.muted(),
        suppressed: b.suppressed,
        digests: b.digests,
        deliveries,
      }
    },
  }
}
