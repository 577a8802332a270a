// The alerting pipeline assembled: select a rule -> incident state machine -> silences -> route to
// channels -> budget -> render. Pure: the caller brings lines, time and the tick; the engine brings
// back the messages to send. The agent's transports and the daemon both drive one of these, on
// rules, channels and silences agent/config normalized and checked (nothing is checked again here).
// Acknowledging, un-acknowledging and resolving by hand go through the same pipeline
// (acknowledgement.ts has the rules); restore() hands a restarted engine the incidents it had.
// Absence rules (absence.ts) watch the lines they select and own none; their incidents open at a tick.
import type { AbsenceEntry } from './absence'
import { createAbsenceIncidents, type AbsenceIncidents } from './absence-incidents'
import type { RedactPath } from './dot-path'
import { compileChannels, type Channel, type ChannelDefinition } from './channels'
import { createPeopleActions, type AckOutcome } from './engine-actions'
import type { InhibitRule } from './inhibition'
import type { ScheduleConfig } from './schedule'
import { createIncidentTable, type FleetSeen } from './incidents'
import type { IncidentTable, IncidentView } from './incidents'
import { parseLine, type AlertLine } from './line'
import type { Actor, IncidentSnapshot, IncidentStatus } from './notice'
import { createNotifyPath, type Delivery } from './notify-path'
import { createKindPath, type KindEngineOptions, type RuleChoice } from './kinds/kind-rules-engine'
import type { KindTable } from './kinds/kind-table'
import { compileRules, type Rule, type RuleConfig } from './rule'
import { selectRule } from './select'
import { createCensor, usableSecrets } from './secrets'
import { createSilenceSet, type Silence, type SilenceConfig } from './silences'

export type { Delivery } from './notify-path'
export type { AckOutcome } from './engine-actions'

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
  /**
   * How pages of an unacknowledged incident say to acknowledge it: `hint` text, `voiceAudio` after
   * a voice page's audio.
   */
  acknowledge?: { hint?: string | undefined; voiceAudio?: string | undefined } | undefined
  /** Most group keys each absence rule watches; default 10 000. */
  maxAbsenceKeys?: number | undefined
  /** On-call schedules that channels and escalation steps may name (`oncall`). */
  schedules?: readonly ScheduleConfig[] | undefined
  /** Pages muted while a matching source incident fires (they become `inhibited` notices for the trail). */
  inhibit?: readonly InhibitRule[] | undefined
  /** Rules on kinds (alerts/kinds): the bound, the learning, the host, the miner and table handed in. */
  kinds?: KindEngineOptions | undefined
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
  select(line: string | AlertLine, source?: string, now?: number): SelectedLine | undefined
  /**
   * Rules on kinds (alerts/kinds/kind-rules.ts): their table (undefined without a kind rule, and then
   * nothing is mined). select() mines and counts a line some kind rule's selection takes, so it needs
   * `now`; without it, kind rules take no line.
   */
  readonly kinds: KindTable | undefined
  /** `n` lines of `source` were read, every line (ratio rules' denominator); nothing without kind rules. */
  countLines(source: string | undefined, n: number, now: number): void
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
  /**
   * Timers' work: group_wait, repeat, escalation, resolve, digests, absence. Call it every second
   * or so (the absence rules' precision).
   */
  tick(now: number): Delivery[]
  /** At shutdown: fire incidents still waiting in group_wait, and send digests the budget still owes. */
  flush(now: number): Delivery[]
  addSilence(config: SilenceConfig, now: number): Silence
  removeSilence(id: string): boolean
  /** firing -> acknowledged: no more repeats or escalation; the recording channels get the note. */
  acknowledge(key: string, actor: Actor, now: number): AckOutcome
  /** acknowledged -> firing: re-pages the step reached; escalation resumes from it. */
  unacknowledge(key: string, actor: Actor, now: number): AckOutcome
  /**
   * Any open incident -> forgotten; the next matching line opens a new one. By hand (`actor`), or
   * without an actor when the sender of its lines says it ended (Alertmanager's `resolved`): then the
   * resolved notice goes to the channels reached, or to the recording ones only when `notify` is false.
   */
  resolve(key: string, actor: Actor | undefined, now: number, notify?: boolean): AckOutcome
  /**
   * A missed call from `person` at `now`: acknowledges the most recent firing, unacknowledged
   * incident a page reached them for by `now` (every such incident with `all`). Nothing matched:
   * no keys and no deliveries.
   */
  acknowledgeFor(person: string, actor: Actor, now: number, all: boolean): { keys: string[]; deliveries: Delivery[] }
  /**
   * Open incidents (pending, firing, acknowledged), the most recently seen first: at most `limit`,
   * of `status` when given.
   */
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

/**
 * The order restore() puts snapshots back in: least recently seen first, as the table's recency
 * order wants (eviction drops the least recently seen); ties keep the order incidents() gave them
 * (most recent first).
 */
export function restoreOrder(snapshots: readonly IncidentSnapshot[]): IncidentSnapshot[] {
  return [...snapshots].reverse().sort((a, b) => a.lastSeen - b.lastSeen)
}

/** The rule a line's `logx_rule` annotation names (not an absence rule), else the first that selects it. */
export function ruleFor(rules: readonly Rule[], byName: ReadonlyMap<string, Rule>, line: AlertLine): Rule | undefined {
  return annotatedRule(byName, line) ?? selectRule(rules, line)
}

/** The rule a line's `logx_rule` annotation names, unless an absence rule. */
function annotatedRule(byName: ReadonlyMap<string, Rule>, line: AlertLine): Rule | undefined {
  const annotated = line.record[RULE_ANNOTATION]
  if (typeof annotated !== 'string') return undefined
  const rule = byName.get(annotated)
  return rule !== undefined && rule.absent === undefined ? rule : undefined
}

/** Puts back the snapshots whose rule still exists, in restoreOrder; how many were restored. */
function restoreAll(
  incidents: IncidentTable,
  byName: ReadonlyMap<string, Rule>,
  snapshots: readonly IncidentSnapshot[],
): number {
  let restored = 0
  for (const snapshot of restoreOrder(snapshots)) {
    const rule = byName.get(snapshot.rule)
    if (rule !== undefined && incidents.restore(snapshot, rule)) restored++
  }
  return restored
}

function tableStats(incidents: IncidentTable) {
  const i = incidents.stats()
  const { open: openIncidents, firing: firingIncidents, acknowledged: acknowledgedIncidents, evicted } = i
  return { openIncidents, firingIncidents, acknowledgedIncidents, evicted }
}

function absenceStats(absence: AbsenceIncidents) {
  const a = absence.stats()
  return { absenceIncidents: absence.open(), absenceKeys: a.keys, absenceEvicted: a.evicted }
}

export function createAlertEngine(options: AlertEngineOptions): AlertEngine {
  const rules = compileRules(options.rules)
  const byName = new Map(rules.map((r) => [r.name, r]))
  const channels = compileChannels(options.channels)
  const secrets = usableSecrets(options.secrets ?? [])
  const censor = createCensor(options.redact ?? [], secrets)
  const incidents = createIncidentTable({ maxIncidents: options.maxIncidents })
  const silences = createSilenceSet(options.silences ?? [], options.now ?? 0)
  const path = createNotifyPath({
    ...{ channels, rules: byName, incidents, silences, secrets },
    ...{ inhibit: options.inhibit, schedules: options.schedules },
    rendering: { ackHint: options.acknowledge?.hint, ackAudio: options.acknowledge?.voiceAudio },
  })
  const absence = createAbsenceIncidents(rules, byName, incidents, { maxKeys: options.maxAbsenceKeys, clean: censor })
  const deliver = path.deliver
  const counts = { lines: 0, selected: 0 }
  const kinds = createKindPath(rules, options.kinds, (key) => incidents.get(key) !== undefined)
  const people = createPeopleActions(incidents, absence, deliver)

  function parsed(input: string | AlertLine, source: string | undefined): AlertLine {
    counts.lines++
    return typeof input === 'string' ? parseLine(input, source) : input
  }

  function selected(choice: RuleChoice, line: AlertLine): SelectedLine {
    counts.selected++
    return kinds.selected(choice, line, censor)
  }

  const ingestSelected = (s: SelectedLine, now: number): Delivery[] =>
    deliver(now, incidents.observe(s.rule, s.line, now, s.key))

  /** The deliveries of the absence incidents `line` ends; undefined when none. */
  function absenceBack(line: AlertLine, now: number): Delivery[] | undefined {
    const back = absence.active ? absence.seen(line, now) : undefined
    return back === undefined ? undefined : deliver(now, back)
  }

  return {
    rules,
    channels,
    ingest(input, now, source) {
      const line = parsed(input, source)
      const back = absenceBack(line, now)
      const choice = kinds.choose(line, now, annotatedRule(byName, line))
      // Digests owed by the budget go out on tick(); an unselected line costs nothing more.
      if (choice === undefined) return back ?? []
      const out = ingestSelected(selected(choice, line), now)
      return back === undefined ? out : [...back, ...out]
    },
    select(input, source, now) {
      const line = parsed(input, source)
      const choice = kinds.choose(line, now, undefined)
      return choice === undefined ? undefined : selected(choice, line)
    },
    ...{ ingestSelected, kinds: kinds.table, countLines: kinds.countLines },
    observeAbsence: (line, now) => absenceBack(line, now) ?? [],
    absenceState: () => absence.state(),
    restoreAbsence: (state, resumedAt) => absence.restore(state, resumedAt),
    seenElsewhere: (key, seen, now) => deliver(now, incidents.seenElsewhere(key, seen, now)),
    tick: (now) => deliver(now, kinds.afterTick(now, [...incidents.tick(now), ...absence.due(now)])),
    flush: (now) => path.drain(now, [...incidents.tick(now), ...incidents.flush(now)]),
    addSilence: (config, now) => silences.add(config, now),
    removeSilence: (id) => silences.remove(id),
    ...people,
    incidents: (limit, status) => incidents.list(limit, status),
    incidentViews: (limit, status) => incidents.views(limit, status),
    countIncidents: (status) => incidents.count(status),
    incident: (key) => incidents.get(key),
    restore: (snapshots) => restoreAll(incidents, byName, snapshots),
    stats: () => ({
      ...{ lines: counts.lines, selected: counts.selected },
      ...tableStats(incidents),
      silenced: silences.muted(),
      ...path.stats(),
      ...absenceStats(absence),
    }),
  }
}
