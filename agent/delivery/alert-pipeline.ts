// The alert engine in-process, between the tailers and the dispatcher. It adds what a long-lived
// engine alone cannot promise across restarts and reloads (alerts/ is pure and keeps incidents in
// memory): the incident state file, consulted so an incident that already paged is not paged again
// by a fresh engine, and written before the lines behind it are committed.
import {
  createAlertEngine,
  lowestLevel,
  type FleetSeen,
  RULE_ANNOTATION,
  type AlertEngine,
  type AlertLine,
  type Delivery,
  type IncidentSnapshot,
  type IncidentStatus,
  type IncidentView,
  type SelectedLine,
  type SilenceConfig,
} from '../../alerts'
import type { RuleConfig } from '../config/types'
import { keptLine, lineOfKept } from '../incidents/kept-line'
import { engineOptionsOfSetup, incidentRulesOf, type AlertSetup } from './alert-setup'
import type { DeliveryLog, Dispatcher } from './dispatcher'
import type { IncidentState } from '../incidents/incident-state'
import { dropRepages, pageRecords, retentionOf } from '../incidents/page-record'
import { restoredSnapshot, storedIncident } from '../incidents/stored-incident'

export interface PipelineStats {
  matches: number
  suppressedRepages: number
  openIncidents: number
  firingIncidents: number
  /** Incidents dropped because the engine or the state file held its maximum (least recently seen first). */
  evictedIncidents: number
  /** Lines the engine threw on (a bug): skipped and logged, so one line cannot stop a source. */
  failedLines: number
  /** Pages muted by an inhibit rule, across reloads. */
  inhibited: number
  /** Group keys absence rules watch, and the absence incidents open. */
  absenceKeys: number
  absenceIncidents: number
}

export interface AlertPipeline {
  /** The lowest level any rule takes: the byte pre-filter's threshold. */
  lowestLevel(): number
  ingest(line: AlertLine, now: number): void
  tick(now: number): void
  /** Shutdown: incidents still in group_wait fire now rather than never. */
  flush(now: number): void
  /** Reload: new rules, channels and silences; what already paged stays paged. */
  replace(setup: AlertSetup, now: number): void
  /**
   * A change people make to incidents (acknowledge, resolve, silence), run on the engine; what it
   * decides to send goes the way of every notice (outbox, incident state, timeline).
   */
  change<T>(now: number, act: (engine: AlertEngine) => { deliveries: Delivery[]; result: T }): T
  /** What the other agents of a fleet saw of incidents (agent/cluster): counted here too; what it fires goes out. */
  seenElsewhere(seen: readonly (FleetSeen & { key: string })[], now: number): void
  /** The open incidents (pending, firing, acknowledged), the most recently seen first: at most `limit`, of `status`. */
  incidents(limit?: number, status?: IncidentStatus): IncidentSnapshot[]
  /** incidents() as live read-only views (no snapshot): for the console's lists. */
  incidentViews(limit?: number, status?: IncidentStatus): IncidentView[]
  countIncidents(status?: IncidentStatus): number
  incident(key: string): IncidentSnapshot | undefined
  stats(): PipelineStats
}

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

/**
 * Incidents that were waiting out group_wait when the previous engine stopped, to start over in a
 * new one. Their lines are kept censored, so a rule matching a redacted field would not select them
 * again: the rule that took them is named on the replayed line.
 */
function pendingLines(state: IncidentState): AlertLine[] {
  return state.pending().map((p) => {
    const line = lineOfKept({
      raw: p.raw,
      format: p.format === 'json' ? 'json' : 'text',
      source: p.source,
      ...(p.fields === undefined ? {} : { fields: p.fields }),
    })
    return line.json ? { ...line, record: { ...line.record, [RULE_ANNOTATION]: p.rule } } : line
  })
}

/**
 * What the state keeps of the keys absence rules watch: written when the set of keys changed, and
 * at least once a minute (their last-seen times then; they only matter after a reload, not a restart).
 */
function createAbsenceRecord(state: IncidentState): {
  record(engine: AlertEngine, now: number, force?: boolean): void
} {
  let keys = -1
  let at = 0
  return {
    record(engine, now, force = false) {
      const { absenceKeys, absenceEvicted } = engine.stats()
      const count = absenceKeys + absenceEvicted
      if (!force && count === keys && now - at < 60_000) return
      if (absenceKeys === 0 && keys <= 0 && !force) return
      keys = count
      at = now
      state.setAbsence(engine.absenceState())
    },
  }
}

/** Incidents dropped to stay within the bounds, across the engines reloads replaced; said once per tick. */
function createEvictionLog(log: DeliveryLog): {
  replaced(engine: AlertEngine): void
  total(engine: AlertEngine, state: IncidentState): number
  report(engine: AlertEngine, state: IncidentState): void
} {
  let before = 0
  let logged = 0
  const total = (engine: AlertEngine, state: IncidentState): number => before + engine.stats().evicted + state.dropped
  return {
    replaced(engine) {
      before += engine.stats().evicted
    },
    total,
    report(engine, state) {
      const now = total(engine, state)
      if (now === logged) return
      log.warn(
        { evicted: now - logged, total: now, open: engine.stats().openIncidents },
        'too many open incidents: the least recently seen were dropped (at most 10000 are held)',
      )
      logged = now
    },
  }
}

export function createAlertPipeline(options: AlertPipelineOptions): AlertPipeline {
  const { state, dispatcher, log } = options
  let rulesByName = new Map<string, RuleConfig>()
  let incidentRules = new Set<string>()
  let notes = false
  let engine: AlertEngine | undefined
  let lowest = Infinity
  let matches = 0
  let suppressedRepages = 0
  let failedLines = 0
  let inhibitedBefore = 0
  const evictions = createEvictionLog(log)
  const absence = createAbsenceRecord(state)

  function build(setup: AlertSetup, now: number, built?: AlertEngine): void {
    const next = built ?? createAlertEngine(engineOptionsOfSetup(setup, now))
    for (const silence of options.runtimeSilences?.(now) ?? []) next.addSilence(silence, now)
    // The incidents go on in the new engine as they were: the previous engine's when there is one
    // (a reload), else what the state kept of them (a restart).
    next.restore(engine !== undefined ? engine.incidents() : state.stored().map(restoredSnapshot), now)
    // The keys absence rules watch: after a reload with their clocks, after a restart from now (the
    // time the agent was down is not silence of theirs: what they wrote meanwhile is still to be read).
    next.restoreAbsence(engine !== undefined ? engine.absenceState() : state.absence(), engine !== undefined ? 0 : now)
    if (engine !== undefined) {
      evictions.replaced(engine)
      inhibitedBefore += engine.stats().inhibited
    }
    engine = next
    rulesByName = new Map(setup.rules.map((r) => [r.name, r]))
    incidentRules = incidentRulesOf(setup)
    notes = setup.incidentNotes !== undefined
    lowest = lowestLevel(engine.rules)
    dispatcher.setChannels(setup.channels, setup.people ?? [])
    dispatcher.setRules(setup.rules)
    for (const line of pendingLines(state)) handle(engine.ingest(line, now), now)
  }

  /** Drops notices of incidents a previous engine already paged, journals the rest, then records them. */
  function handle(deliveries: Delivery[], now: number): void {
    if (deliveries.length === 0) return
    const { kept, suppressed } = dropRepages(
      deliveries,
      (key) => state.paged(key),
      (name) => rulesByName.get(name),
      now,
    )
    for (const { key, rule } of suppressed)
      log.info({ incident: key, rule }, 'incident already paged before this engine started; not paging again')
    suppressedRepages += suppressed.length
    dispatcher.dispatch(notes ? kept : kept.filter((d) => d.channelType !== 'incident'), incidentRules)
    // Recorded after the outbox has them: a crash in between repeats a page rather than losing one.
    for (const record of pageRecords(kept)) {
      if (record.kind === 'resolved') {
        state.resolved(record.key)
        continue
      }
      const incident = current().incident(record.key)
      if (record.kind === 'paged')
        state.notified(record.key, record.rule, now, incident === undefined ? undefined : storedIncident(incident))
      else if (incident !== undefined) state.changed(record.key, storedIncident(incident))
    }
    options.onDeliveries?.(kept, now)
  }

  function stored(key: string): ReturnType<typeof storedIncident> | undefined {
    const incident = current().incident(key)
    return incident === undefined ? undefined : storedIncident(incident)
  }

  function current(): AlertEngine {
    return engine as AlertEngine
  }

  function failed(line: AlertLine, rule: string | undefined, incident: string | undefined, err: unknown): void {
    failedLines++
    log.error(
      { source: line.source, rule, incident, error: (err as Error).message },
      'the alert engine failed on a line; the line is skipped',
    )
  }

  build(options.setup, options.now, options.engine)

  return {
    lowestLevel: () => lowest,
    ingest(line, now) {
      const e = current()
      // The engine selects, censors and keys the line once: the key is recorded in the state file
      // before the incident changes, and what the state file keeps of a line (the censored text)
      // holds no secret and no redacted value.
      let selected: SelectedLine | undefined
      try {
        // Absence rules see every line they select first (a key that came back resolves its incident).
        handle(e.observeAbsence(line, now), now)
        selected = e.select(line)
      } catch (err) {
        failed(line, undefined, undefined, err)
        return
      }
      if (selected === undefined) return
      matches++
      const { rule, key } = selected
      // Without group_wait or threshold the engine decides in this call: nothing waits to be replayed.
      const firesNow = rule.groupWaitMs === 0 && rule.threshold === undefined
      state.observe(
        key,
        { rule: rule.name, ...keptLine(selected.line), source: line.source ?? '', since: now },
        now,
        firesNow,
      )
      // The engine is pure: if it throws, that line is the problem, and skipping it beats stopping the
      // source. State and outbox failures (handle) still propagate: those must stop the commits.
      let deliveries: Delivery[]
      try {
        deliveries = e.ingestSelected(selected, now)
      } catch (err) {
        failed(line, rule.name, key, err)
        return
      }
      options.onSelected?.(selected, now)
      handle(deliveries, now)
    },
    seenElsewhere(seen, now) {
      const e = current()
      const deliveries: Delivery[] = []
      for (const s of seen) deliveries.push(...e.seenElsewhere(s.key, s, now))
      handle(deliveries, now)
    },
    tick(now) {
      const engine = current()
      handle(engine.tick(now), now)
      evictions.report(engine, state)
      // An incident that paged before a restart and went quiet resolves here, not in the engine.
      for (const key of state.expire(now, (name) => retentionOf(rulesByName.get(name)))) dispatcher.closeLead(key)
      state.refresh(stored)
      absence.record(engine, now)
      state.save()
    },
    flush(now) {
      handle(current().flush(now), now)
      state.refresh(stored)
      absence.record(current(), now, true)
      state.save()
    },
    replace(setup, now) {
      build(setup, now)
    },
    change(now, act) {
      const { deliveries, result } = act(current())
      handle(deliveries, now)
      state.save()
      return result
    },
    incidents: (limit, status) => current().incidents(limit, status),
    incidentViews: (limit, status) => current().incidentViews(limit, status),
    countIncidents: (status) => current().countIncidents(status),
    incident: (key) => current().incident(key),
    stats() {
      const s = current().stats()
      return {
        matches,
        suppressedRepages,
        openIncidents: s.openIncidents,
        firingIncidents: s.firingIncidents,
        evictedIncidents: evictions.total(current(), state),
        failedLines,
        inhibited: inhibitedBefore + s.inhibited,
        absenceKeys: s.absenceKeys,
        absenceIncidents: s.absenceIncidents,
      }
    },
  }
}
