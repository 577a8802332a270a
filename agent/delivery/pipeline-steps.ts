// What the pipeline does, each a function of its state: put a setup's engine in place (a start or a
// reload), take a line, and hand what the engine decided to the dispatcher and the incident state.
import {
  createAlertEngine,
  lowestLevel,
  type AlertEngine,
  type AlertLine,
  type Delivery,
  type SelectedLine,
  type SilenceConfig,
} from '../../alerts'
import type { RuleConfig } from '../config/types'
import type { IncidentState } from '../incidents/incident-state'
import { keptLine } from '../incidents/kept-line'
import { dropRepages, pageRecords } from '../incidents/page-record'
import { restoredSnapshot, storedIncident } from '../incidents/stored-incident'
import type { StoredIncident } from '../incidents/types'
import { engineOptionsOfSetup, incidentRulesOf } from './alert-setup'
import { createAbsenceRecord, createEvictionLog, pendingLines } from './pipeline-upkeep'
import type { AlertSetup, DeliveryLog, Dispatcher } from './types'

export interface AlertPipelineOptions {
  setup: AlertSetup
  state: IncidentState
  dispatcher: Dispatcher
  log: DeliveryLog
  now: number
  /** The engine of `setup`, when the caller built it already (to know the setup is valid first). */
  engine?: AlertEngine | undefined
  /** Silences made at run time (not in the setup): every new engine gets them too. */
  runtimeSilences?: (now: number) => readonly SilenceConfig[]
  /** Sees every notice that goes out (the incidents' timeline). */
  onDeliveries?: (deliveries: readonly Delivery[], now: number) => void
  /** Sees every line a rule selected, once it is in the engine (a fleet counts it, agent/cluster). */
  onSelected?: (selected: SelectedLine, now: number) => void
}

/** What the pipeline reads of the setup in place, made once per setup. */
interface SetupView {
  rulesByName: Map<string, RuleConfig>
  incidentRules: Set<string>
  /** Whether the recording channel's notices reach the CRM (incident notes). */
  notes: boolean
  lowest: number
}

export interface PipelineState {
  readonly options: AlertPipelineOptions
  readonly state: IncidentState
  readonly evictions: ReturnType<typeof createEvictionLog>
  readonly absence: ReturnType<typeof createAbsenceRecord>
  engine: AlertEngine | undefined
  setup: SetupView
  readonly counts: { matches: number; suppressedRepages: number; failedLines: number; inhibitedBefore: number }
}

export function createPipelineState(options: AlertPipelineOptions): PipelineState {
  return {
    options,
    state: options.state,
    evictions: createEvictionLog(options.log),
    absence: createAbsenceRecord(options.state),
    engine: undefined,
    setup: { rulesByName: new Map(), incidentRules: new Set(), notes: false, lowest: Infinity },
    counts: { matches: 0, suppressedRepages: 0, failedLines: 0, inhibitedBefore: 0 },
  }
}

export function current(p: PipelineState): AlertEngine {
  return p.engine as AlertEngine
}

export function stored(p: PipelineState, key: string): StoredIncident | undefined {
  const incident = current(p).incident(key)
  return incident === undefined ? undefined : storedIncident(incident)
}

/** A setup's engine in place of the previous one (a reload), or of none (a start). */
export function install(p: PipelineState, setup: AlertSetup, now: number, built?: AlertEngine): void {
  const { options, state, engine: previous } = p
  const next = built ?? createAlertEngine(engineOptionsOfSetup(setup, now))
  for (const silence of options.runtimeSilences?.(now) ?? []) next.addSilence(silence, now)
  // The incidents go on in the new engine as they were: the previous engine's when there is one
  // (a reload), else what the state kept of them (a restart).
  next.restore(previous !== undefined ? previous.incidents() : state.stored().map(restoredSnapshot), now)
  // The keys absence rules watch: after a reload with their clocks, after a restart from now (the
  // time the agent was down is not silence of theirs: what they wrote meanwhile is still to be read).
  next.restoreAbsence(
    previous !== undefined ? previous.absenceState() : state.absence(),
    previous === undefined ? now : 0,
  )
  if (previous !== undefined) {
    p.evictions.replaced(previous)
    p.counts.inhibitedBefore += previous.stats().inhibited
  }
  p.engine = next
  p.setup = {
    rulesByName: new Map(setup.rules.map((r) => [r.name, r])),
    incidentRules: incidentRulesOf(setup),
    notes: setup.incidentNotes !== undefined,
    lowest: lowestLevel(next.rules),
  }
  options.dispatcher.setChannels(setup.channels, setup.people ?? [])
  options.dispatcher.setRules(setup.rules)
  for (const line of pendingLines(state)) handle(p, next.ingest(line, now), now)
}

/** Drops notices of incidents a previous engine already paged, journals the rest, then records them. */
export function handle(p: PipelineState, deliveries: Delivery[], now: number): void {
  if (deliveries.length === 0) return
  const { options, state, setup } = p
  const { kept, suppressed } = dropRepages(
    deliveries,
    (key) => state.paged(key),
    (name) => setup.rulesByName.get(name),
    now,
  )
  for (const { key, rule } of suppressed) {
    options.log.info({ incident: key, rule }, 'incident already paged before this engine started; not paging again')
  }
  p.counts.suppressedRepages += suppressed.length
  const toSend = setup.notes ? kept : kept.filter((d) => d.channelType !== 'incident')
  options.dispatcher.dispatch(toSend, setup.incidentRules)
  // Recorded after the outbox has them: a crash in between repeats a page rather than losing one.
  for (const record of pageRecords(kept)) {
    if (record.kind === 'resolved') state.resolved(record.key)
    else if (record.kind === 'paged') state.notified(record.key, record.rule, now, stored(p, record.key))
    else {
      const incident = stored(p, record.key)
      if (incident !== undefined) state.changed(record.key, incident)
    }
  }
  options.onDeliveries?.(kept, now)
}

function failed(p: PipelineState, line: AlertLine, where: { rule?: string; incident?: string }, err: unknown): void {
  p.counts.failedLines++
  p.options.log.error(
    { source: line.source, rule: where.rule, incident: where.incident, error: (err as Error).message },
    'the alert engine failed on a line; the line is skipped',
  )
}

export function ingest(p: PipelineState, line: AlertLine, now: number): void {
  const engine = current(p)
  // The engine selects, censors and keys the line once: the key is recorded in the state file
  // before the incident changes, and what the state file keeps of a line (the censored text)
  // holds no secret and no redacted value.
  let selected: SelectedLine | undefined
  try {
    // Absence rules see every line they select first (a key that came back resolves its incident).
    handle(p, engine.observeAbsence(line, now), now)
    // With `now`: rules on kinds mine and decide here (alerts/kinds/kind-rules.ts).
    selected = engine.select(line, undefined, now)
  } catch (err) {
    failed(p, line, {}, err)
    return
  }
  if (selected === undefined) return
  p.counts.matches++
  const { rule, key } = selected
  // Without group_wait or threshold the engine decides in this call: nothing waits to be replayed.
  const firesNow = rule.groupWaitMs === 0 && rule.threshold === undefined
  const kept = { rule: rule.name, ...keptLine(selected.line), source: line.source ?? '', since: now }
  p.state.observe(key, kept, now, firesNow)
  // The engine is pure: if it throws, that line is the problem, and skipping it beats stopping the
  // source. State and outbox failures (handle) still propagate: those must stop the commits.
  let deliveries: Delivery[]
  try {
    deliveries = engine.ingestSelected(selected, now)
  } catch (err) {
    failed(p, line, { rule: rule.name, incident: key }, err)
    return
  }
  p.options.onSelected?.(selected, now)
  handle(p, deliveries, now)
}
