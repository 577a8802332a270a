// The alert engine in-process, between the tailers and the dispatcher. It adds what a long-lived
// engine alone cannot promise across restarts and reloads (alerts/ is pure and keeps incidents in
// memory): the incident state file, consulted so an incident that already paged is not paged again
// by a fresh engine, and written before the lines behind it are committed.
import { createAlertEngine, lowestLevel, RULE_ANNOTATION, type AlertEngine, type AlertLine, type Delivery, type SelectedLine } from '../../alerts'
import type { RuleConfig } from '../config/types'
import { toAlertLine } from './alert-line'
import { engineOptionsOfSetup, incidentRulesOf, type AlertSetup } from './alert-setup'
import type { DeliveryLog, Dispatcher } from './dispatcher'
import type { IncidentState } from './incident-state'

export interface PipelineStats {
  matches: number
  suppressedRepages: number
  openIncidents: number
  firingIncidents: number
  /** Incidents dropped because the engine or the state file held its maximum (least recently seen first). */
  evictedIncidents: number
  /** Lines the engine threw on (a bug): skipped and logged, so one line cannot stop a source. */
  failedLines: number
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
  stats(): PipelineStats
}

export interface AlertPipelineOptions {
  setup: AlertSetup
  state: IncidentState
  dispatcher: Dispatcher
  log: DeliveryLog
  now: number
}

// Pending entries of incidents that never fired are kept at most this long past their window.
const PENDING_SLACK_MS = 60_000

export function createAlertPipeline(options: AlertPipelineOptions): AlertPipeline {
  const { state, dispatcher, log } = options
  let rulesByName = new Map<string, RuleConfig>()
  let incidentRules = new Set<string>()
  let engine: AlertEngine | undefined
  let lowest = Infinity
  let matches = 0
  let suppressedRepages = 0
  let failedLines = 0
  // Evictions of engines replaced by a reload, plus those the current engine has reported so far.
  let evictedBefore = 0
  let evictedLogged = 0

  function build(setup: AlertSetup, now: number): void {
    const next = createAlertEngine(engineOptionsOfSetup(setup, now))
    if (engine !== undefined) evictedBefore += engine.stats().evicted
    engine = next
    rulesByName = new Map(setup.rules.map((r) => [r.name, r]))
    incidentRules = incidentRulesOf(setup)
    lowest = lowestLevel(engine.rules)
    dispatcher.setChannels(setup.channels)
    // Incidents that were waiting out group_wait when the previous engine stopped start over here.
    // Their lines are kept censored, so a rule matching a redacted field would not select them
    // again: the rule that took them is named on the replayed line.
    for (const p of state.pending()) {
      const { line } = toAlertLine(p.raw, p.format, p.source)
      const replayed = line.json ? { ...line, record: { ...line.record, [RULE_ANNOTATION]: p.rule } } : line
      handle(engine.ingest(replayed, now), now)
    }
  }

  /** Drops notices of incidents a previous engine already paged, then journals the rest. */
  function handle(deliveries: Delivery[], now: number): void {
    if (deliveries.length === 0) return
    const kept: Delivery[] = []
    const suppressed = new Set<string>()
    for (const delivery of deliveries) {
      const { notice } = delivery
      const key = notice.incident.key
      if (notice.kind === 'firing') {
        const paged = state.paged(key)
        const rule = rulesByName.get(notice.incident.rule)
        if (paged !== undefined && rule !== undefined && now < paged.notifiedAt + rule.repeatIntervalMs) {
          if (!suppressed.has(key)) {
            suppressed.add(key)
            suppressedRepages++
            log.info({ incident: key, rule: rule.name }, 'incident already paged before this engine started; not paging again')
          }
          continue
        }
      }
      kept.push(delivery)
    }
    dispatcher.dispatch(kept, incidentRules)
    // Recorded after the outbox has them: a crash in between repeats a page rather than losing one.
    const seen = new Set<string>()
    for (const { notice } of kept) {
      const key = notice.incident.key
      if (seen.has(key)) continue
      seen.add(key)
      if (notice.kind === 'firing' || notice.kind === 'repeat' || notice.kind === 'escalated') state.notified(key, notice.incident.rule, now)
      else if (notice.kind === 'resolved') state.resolved(key)
    }
  }

  function keep(ruleName: string): { pagedMs: number; pendingMs: number } {
    const rule = rulesByName.get(ruleName)
    if (rule === undefined) return { pagedMs: 0, pendingMs: 0 }
    return {
      pagedMs: rule.resolveAfterMs ?? Infinity,
      pendingMs: rule.groupWaitMs + (rule.threshold?.withinMs ?? 0) + PENDING_SLACK_MS,
    }
  }

  function current(): AlertEngine {
    return engine as AlertEngine
  }

  /** Says once per tick how many incidents were dropped to stay within the bounds. */
  function reportEvictions(e: AlertEngine): void {
    const total = evictedBefore + e.stats().evicted + state.dropped
    if (total === evictedLogged) return
    log.warn(
      { evicted: total - evictedLogged, total, open: e.stats().openIncidents },
      'too many open incidents: the least recently seen were dropped (at most 10000 are held)',
    )
    evictedLogged = total
  }

  function failed(line: AlertLine, rule: string | undefined, incident: string | undefined, err: unknown): void {
    failedLines++
    log.error({ source: line.source, rule, incident, error: (err as Error).message }, 'the alert engine failed on a line; the line is skipped')
  }

  build(options.setup, options.now)

  return {
    lowestLevel: () => lowest,
    ingest(line, now) {
      const e = current()
      // The engine selects, censors and keys the line once: the key is recorded in the state file
      // before the incident changes, and what the state file keeps of a line (the censored text)
      // holds no secret and no redacted value.
      let selected: SelectedLine | undefined
      try {
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
      state.observe(key, { rule: rule.name, raw: selected.line.raw, source: line.source ?? '', format: line.json ? 'json' : 'text', since: now }, now, firesNow)
      // The engine is pure: if it throws, that line is the problem, and skipping it beats stopping the
      // source. State and outbox failures (handle) still propagate: those must stop the commits.
      let deliveries: Delivery[]
      try {
        deliveries = e.ingestSelected(selected, now)
      } catch (err) {
        failed(line, rule.name, key, err)
        return
      }
      handle(deliveries, now)
    },
    tick(now) {
      const engine = current()
      handle(engine.tick(now), now)
      reportEvictions(engine)
      // An incident that paged before a restart and went quiet resolves here, not in the engine.
      for (const key of state.expire(now, keep)) dispatcher.closeLead(key)
      state.save()
    },
    flush(now) {
      handle(current().flush(now), now)
      state.save()
    },
    replace(setup, now) {
      build(setup, now)
    },
    stats() {
      const s = current().stats()
      return { matches, suppressedRepages, openIncidents: s.openIncidents, firingIncidents: s.firingIncidents, evictedIncidents: evictedBefore + s.evicted + state.dropped, failedLines }
    },
  }
}
