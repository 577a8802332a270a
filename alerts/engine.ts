// The alerting pipeline assembled: select a rule -> incident state machine -> silences -> route to
// channels -> budget -> render. Pure: the caller brings lines, time and the tick; the engine brings
// back the messages to send. The agent's transports and the daemon both drive one of these, on
// rules, channels and silences agent/config normalized and checked (nothing is checked again here).
// Acknowledging, un-acknowledging and resolving by hand go through the same pipeline
// (acknowledgement.ts has the rules); restore() hands a restarted engine the incidents it had.
import { peoplePaged, type AckRefusal } from './acknowledgement'
import type { RedactPath } from './dot-path'
import { compileChannels, type Channel, type ChannelDefinition, type ChannelType } from './channels'
import { createBudgetStage } from './budget'
import { createIncidentTable, type IncidentChange, type IncidentView } from './incidents'
import { parseLine, type AlertLine } from './line'
import type { Actor, IncidentSnapshot, IncidentStatus, Notice } from './notice'
import { renderMessage, scrubSecrets, type RenderedMessage, type RenderOptions } from './render'
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
  /** How pages of an unacknowledged incident say to acknowledge it: `hint` text, `voiceAudio` after a voice page's audio. */
  acknowledge?: { hint?: string | undefined; voiceAudio?: string | undefined } | undefined
}

/** An acknowledge, unacknowledge or resolve: what to send and the incident after it, or why not. */
export type AckOutcome =
  | { ok: true; deliveries: Delivery[]; incident: IncidentSnapshot }
  | { ok: false; reason: AckRefusal }

export interface Delivery {
  notice: Notice & { channel: string }
  channelType: ChannelType
  message: RenderedMessage
}

export interface AlertEngineStats {
  lines: number
  selected: number
  openIncidents: number
  /** Firing or acknowledged. */
  firingIncidents: number
  acknowledgedIncidents: number
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
  /** firing -> acknowledged: no more repeats or escalation; the recording channels get the note. */
  acknowledge(key: string, actor: Actor, now: number): AckOutcome
  /** acknowledged -> firing: re-pages the step reached; escalation resumes from it. */
  unacknowledge(key: string, actor: Actor, now: number): AckOutcome
  /** Any open incident -> forgotten; the next matching line opens a new one. */
  resolve(key: string, actor: Actor, now: number): AckOutcome
  /**
   * A missed call from `person` at `now`: acknowledges the most recent firing, unacknowledged
   * incident a page reached them for by `now` (every such incident with `all`). Nothing matched:
   * no keys and no deliveries.
   */
  acknowledgeFor(person: string, actor: Actor, now: number, all: boolean): { keys: string[]; deliveries: Delivery[] }
  /** Open incidents (pending, firing, acknowledged), the most recently seen first: at most `limit`, of `status` when given. */
  incidents(limit?: number, status?: IncidentStatus): IncidentSnapshot[]
  /** incidents() as live read-only views, no snapshot made: for listing thousands at once (the console). */
  incidentViews(limit?: number, status?: IncidentStatus): IncidentView[]
  /** How many open incidents (of `status`). */
  countIncidents(status?: IncidentStatus): number
  incident(key: string): IncidentSnapshot | undefined
  /**
   * After a restart or reload: puts firing and acknowledged incidents back as they were, so they do
   * not fire again, repeat and escalate on their old clocks and keep their acks. Pending ones (the
   * caller replays their lines), ones whose rule is gone and keys already open are skipped.
   * `snapshots` in any order; of two seen at the same time, the earlier in the list counts as the
   * more recent (as incidents() lists them).
   * Returns how many were restored. Sends nothing: the next tick does what is due.
   */
  restore(snapshots: readonly IncidentSnapshot[], now: number): number
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
  const rendering: RenderOptions = { ackHint: options.acknowledge?.hint, ackAudio: options.acknowledge?.voiceAudio }

  function deliver(now: number, notices: Notice[], pipeline: Stage = notify): Delivery[] {
    // Most selected lines change an incident without a notice: of the stages, only the budget has
    // anything to say then (digests it owes), and silences and routes need not run.
    const routed = notices.length === 0 && pipeline === notify ? budget.stage({ now }, notices) : pipeline({ now }, notices)
    const out: Delivery[] = []
    for (const notice of routed) {
      const channel = notice.channel === undefined ? undefined : channelByName.get(notice.channel)
      if (channel === undefined) continue
      // Only what came out of silences and budget reached anyone: a missed call may acknowledge it.
      const paged = peoplePaged(notice, channel)
      if (paged.length > 0) incidents.paged(notice.incident.key, paged, now)
      out.push({
        notice: notice as Notice & { channel: string },
        channelType: channel.type,
        message: scrubSecrets(renderMessage(channel, notice, rendering), secrets),
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

  function changed(change: IncidentChange, now: number): AckOutcome {
    if (!change.ok) return change
    const deliveries = deliver(now, change.notices)
    // Still open (not resolved): as the deliveries left it (whom the re-page reached).
    return { ok: true, deliveries, incident: incidents.get(change.incident.key) ?? change.incident }
  }

  function acknowledgeFor(person: string, actor: Actor, now: number, all: boolean): { keys: string[]; deliveries: Delivery[] } {
    const keys: string[] = []
    const notices: Notice[] = []
    for (const key of incidents.acknowledgeable(person, now, all)) {
      const change = incidents.acknowledge(key, actor, now)
      if (!change.ok) continue
      keys.push(key)
      notices.push(...change.notices)
    }
    return { keys, deliveries: keys.length === 0 ? [] : deliver(now, notices) }
  }

  function restore(snapshots: readonly IncidentSnapshot[]): number {
    let restored = 0
    // Least recently seen first: the table's order is its recency order (eviction drops the least
    // recently seen). Ties keep the order incidents() gave them (most recent first).
    for (const snapshot of [...snapshots].reverse().sort((a, b) => a.lastSeen - b.lastSeen)) {
      const rule = byName.get(snapshot.rule)
      if (rule !== undefined && incidents.restore(snapshot, rule)) restored++
    }
    return restored
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
    acknowledge: (key, actor, now) => changed(incidents.acknowledge(key, actor, now), now),
    unacknowledge: (key, actor, now) => changed(incidents.unacknowledge(key, actor, now), now),
    resolve: (key, actor, now) => changed(incidents.resolve(key, actor, now), now),
    acknowledgeFor,
    incidents: (limit, status) => incidents.list(limit, status),
    incidentViews: (limit, status) => incidents.views(limit, status),
    countIncidents: (status) => incidents.count(status),
    incident: (key) => incidents.get(key),
    restore: (snapshots) => restore(snapshots),
    stats() {
      const i = incidents.stats()
      const b = budget.stats()
      return {
        lines,
        selected: selectedCount,
        openIncidents: i.open,
        firingIncidents: i.firing,
        acknowledgedIncidents: i.acknowledged,
        evicted: i.evicted,
        silenced: silences.muted(),
        suppressed: b.suppressed,
        digests: b.digests,
        deliveries,
      }
    },
  }
}
