// The alerting pipeline assembled: select a rule -> incident state machine -> silences -> route to
// channels -> budget -> render. Pure: the caller brings lines, time and the tick; the engine brings
// back the messages to send. The agent's transports and the daemon both drive one of these, on
// rules, channels and silences agent/config normalized and checked (nothing is checked again here).
// Acknowledging, un-acknowledging and resolving by hand go through the same pipeline
// (acknowledgement.ts has the rules); restore() hands a restarted engine the incidents it had.
// Absence rules (absence.ts) watch the lines they select and own none; their incidents open at a tick.
import { createAbsenceWatch, type AbsenceEntry } from './absence'
import { peoplePaged, type AckRefusal } from './acknowledgement'
import type { RedactPath } from './dot-path'
import { compileChannels, type Channel, type ChannelDefinition, type ChannelType } from './channels'
import { createBudgetStage } from './budget'
import { createInhibitStage } from './inhibit-stage'
import { createInhibitor, type InhibitRule } from './inhibition'
import { createReach } from './reach'
import type { ScheduleConfig } from './schedule'
import { createIncidentTable, type FleetSeen, type IncidentChange, type IncidentView } from './incidents'
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
  /** Most group keys each absence rule watches; default 10 000. */
  maxAbsenceKeys?: number | undefined
  /** On-call schedules that channels and escalation steps may name (`oncall`). */
  schedules?: readonly ScheduleConfig[] | undefined
  /** Pages muted while a matching source incident fires (they become `inhibited` notices for the trail). */
  inhibit?: readonly InhibitRule[] | undefined
}

/** An acknowledge, unacknowledge or resolve: what to send and the incident after it, or why not. */
export type AckOutcome =
  { ok: true; deliveries: Delivery[]; incident: IncidentSnapshot } | { ok: false; reason: AckRefusal }

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
  /** Pages muted by an inhibit rule (each became an `inhibited` notice). */
  inhibited: number
  suppressed: number
  digests: number
  deliveries: number
  /** Absence incidents open (absence.ts). */
  absenceIncidents: number
  /** Group keys the absence rules watch, and how many were dropped past the bound. */
  absenceKeys: number
  absenceEvicted: number
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
  /**
   * The absence rules' part of a line (ingest() does it): every absence rule that selects it records
   * its key; returns the resolved notices of absence incidents whose lines came back. A caller of
   * select() calls this too, with every line it gives select(), before it.
   */
  observeAbsence(line: AlertLine, now: number): Delivery[]
  /** The keys the absence rules watch, to keep across a restart (JSON-safe). */
  absenceState(): AbsenceEntry[]
  /**
   * Puts watched keys back, each last seen at max(saved, resumedAt): after a restart pass now, so
   * the time the agent was down never counts as silence; after a reload (the agent kept reading)
   * pass 0. Keys of rules gone, no longer absence rules or grouping by other fields are dropped.
   */
  restoreAbsence(state: readonly AbsenceEntry[], resumedAt: number): number
  /**
   * A fleet's agents share what they see of each incident (agent/cluster): the table takes the
   * fleet's last-seen time and threshold count of an incident it holds (incidents.ts, seenElsewhere).
   */
  seenElsewhere(key: string, seen: FleetSeen, now: number): Delivery[]
  /** Timers' work: group_wait, repeat, escalation, resolve, digests, absence. Call it every second or so (the absence rules' precision). */
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
  let inhibited = 0
  const route = createRouteStage(
    channels.map((c) => c.name),
    channels.filter((c) => c.type === 'incident').map((c) => c.name),
  )
  // Alertmanager's order: inhibition, then silences, then routing and the budget.
  const notify: Stage =
    options.inhibit === undefined || options.inhibit.length === 0
      ? sequence(silences.stage, route, budget.stage)
      : sequence(
          createInhibitStage(
            createInhibitor(options.inhibit),
            () => incidents.list().filter((i) => i.status !== 'pending'),
            () => inhibited++,
          ),
          silences.stage,
          route,
          budget.stage,
        )
  const reach = createReach(byName, options.schedules ?? [])
  let lines = 0
  let selectedCount = 0
  let deliveries = 0

  const release: Stage = sequence(notify, budget.release)
  const rendering: RenderOptions = { ackHint: options.acknowledge?.hint, ackAudio: options.acknowledge?.voiceAudio }

  function deliver(now: number, notices: Notice[], pipeline: Stage = notify): Delivery[] {
    // Most selected lines change an incident without a notice: of the stages, only the budget has
    // anything to say then (digests it owes), and silences and routes need not run.
    const routed =
      notices.length === 0 && pipeline === notify ? budget.stage({ now }, notices) : pipeline({ now }, notices)
    const out: Delivery[] = []
    for (const routedNotice of routed) {
      const channel = routedNotice.channel === undefined ? undefined : channelByName.get(routedNotice.channel)
      if (channel === undefined) continue
      // Active hours and on-call schedules: whom this channel's copy reaches, now.
      const notice = reach(routedNotice, channel, now)
      if (notice === undefined) continue
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

  function acknowledgeFor(
    person: string,
    actor: Actor,
    now: number,
    all: boolean,
  ): { keys: string[]; deliveries: Delivery[] } {
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
      if (rule !== undefined && rule.absent === undefined) return rule
    }
    return selectRule(rules, line)
  }

  // ---- absence rules (absence.ts): a watch beside the table; nothing per line without one ----
  const absence = createAbsenceWatch(rules, {
    maxKeys: options.maxAbsenceKeys,
    isOpen: (key) => incidents.get(key) !== undefined,
    clean: censor,
  })

  /** The resolved notices of the absence incidents `line` ends; undefined (no array made) when none. */
  function observeAbsence(line: AlertLine, now: number): Delivery[] | undefined {
    const back = absence.seen(line, now)
    if (back === undefined) return undefined
    const notices: Notice[] = []
    for (const key of back) {
      const change = incidents.resolve(key, undefined, now)
      if (change.ok) notices.push(...change.notices)
    }
    return notices.length === 0 ? undefined : deliver(now, notices)
  }

  function openAbsent(now: number): Notice[] {
    const notices: Notice[] = []
    for (const due of absence.due(now)) notices.push(...incidents.observe(due.rule, due.line, now, due.key))
    return notices
  }

  function resolve(key: string, actor: Actor, now: number): AckOutcome {
    const change = incidents.resolve(key, actor, now)
    // By hand: the key is no longer watched (a host taken out of service stops paging).
    if (change.ok && byName.get(change.incident.rule)?.absent !== undefined) absence.forget(key)
    return changed(change, now)
  }

  return {
    rules,
    channels,
    ingest(input, now, source) {
      lines++
      const line = typeof input === 'string' ? parseLine(input, source) : input
      const back = absence.active ? observeAbsence(line, now) : undefined
      const rule = ruleFor(line)
      // Digests owed by the budget go out on tick(); an unselected line costs nothing more.
      if (rule === undefined) return back ?? []
      const out = ingestSelected(selected(rule, line), now)
      return back === undefined ? out : [...back, ...out]
    },
    select(input, source) {
      lines++
      const line = typeof input === 'string' ? parseLine(input, source) : input
      const rule = selectRule(rules, line)
      return rule === undefined ? undefined : selected(rule, line)
    },
    ingestSelected,
    observeAbsence: (line, now) => (absence.active ? (observeAbsence(line, now) ?? []) : []),
    absenceState: () => absence.state(),
    restoreAbsence: (state, resumedAt) => absence.restore(state, resumedAt),
    seenElsewhere: (key, seen, now) => deliver(now, incidents.seenElsewhere(key, seen, now)),
    tick: (now) => deliver(now, [...incidents.tick(now), ...openAbsent(now)]),
    flush: (now) => deliver(now, [...incidents.tick(now), ...incidents.flush(now)], release),
    addSilence: (config, now) => silences.add(config, now),
    removeSilence: (id) => silences.remove(id),
    acknowledge: (key, actor, now) => changed(incidents.acknowledge(key, actor, now), now),
    unacknowledge: (key, actor, now) => changed(incidents.unacknowledge(key, actor, now), now),
    resolve,
    acknowledgeFor,
    incidents: (limit, status) => incidents.list(limit, status),
    incidentViews: (limit, status) => incidents.views(limit, status),
    countIncidents: (status) => incidents.count(status),
    incident: (key) => incidents.get(key),
    restore: (snapshots) => restore(snapshots),
    stats() {
      const i = incidents.stats()
      const b = budget.stats()
      const a = absence.stats()
      let absenceIncidents = 0
      // From the table, not the watch: an incident restored without its watched key counts too.
      if (absence.active)
        for (const v of incidents.views()) if (byName.get(v.rule.name)?.absent !== undefined) absenceIncidents++
      return {
        lines,
        selected: selectedCount,
        openIncidents: i.open,
        firingIncidents: i.firing,
        acknowledgedIncidents: i.acknowledged,
        evicted: i.evicted,
        silenced: silences.muted(),
        inhibited,
        suppressed: b.suppressed,
        digests: b.digests,
        deliveries,
        absenceIncidents,
        absenceKeys: a.keys,
        absenceEvicted: a.evicted,
      }
    },
  }
}
