// The alert engine in-process, between the tailers and the dispatcher. It adds what a long-lived
// engine alone cannot promise across restarts and reloads (alerts/ is pure and keeps incidents in
// memory): the incident state file, consulted so an incident that already paged is not paged again
// by a fresh engine, and written before the lines behind it are committed.
import { createAlertEngine, fingerprint, lowestLevel, selectRule, type AlertEngine, type AlertLine, type Delivery } from '../../alerts'
import { toAlertEngineOptions } from '../config/engine-options'
import type { AgentConfig, RuleConfig } from '../config/types'
import { toAlertLine } from './alert-line'
import { INCIDENT_CHANNEL, type Dispatcher } from './dispatcher'
import type { IncidentState } from './incident-state'
import type { AgentLogger } from './logger'

export interface PipelineStats {
  matches: number
  suppressedRepages: number
  openIncidents: number
  firingIncidents: number
}

export interface AlertPipeline {
  /** The lowest level any rule takes: the byte pre-filter's threshold. */
  lowestLevel(): number
  ingest(line: AlertLine, now: number): void
  tick(now: number): void
  /** Shutdown: incidents still in group_wait fire now rather than never. */
  flush(now: number): void
  /** Reload: new rules, channels and silences; what already paged stays paged. */
  replace(config: AgentConfig, now: number): void
  stats(): PipelineStats
}

export interface AlertPipelineOptions {
  config: AgentConfig
  state: IncidentState
  dispatcher: Dispatcher
  log: AgentLogger
  /** Extra strings kept out of every message (the endpoint's secrets). */
  secrets: readonly string[]
  now: number
}

// Pending entries of incidents that never fired are kept at most this long past their window.
const PENDING_SLACK_MS = 60_000

export function createAlertPipeline(options: AlertPipelineOptions): AlertPipeline {
  const { state, dispatcher, log } = options
  let rulesByName = new Map<string, RuleConfig>()
  let incidentRules = new Set<string>()
  let engine: AlertEngine
  let lowest = Infinity
  let matches = 0
  let suppressedRepages = 0

  function build(config: AgentConfig, now: number): void {
    const engineOptions = toAlertEngineOptions(config, now)
    engineOptions.secrets = [...(engineOptions.secrets ?? []), ...options.secrets]
    if (config.rules.some((r) => r.incident)) engineOptions.channels.push({ type: 'incident', name: INCIDENT_CHANNEL })
    engine = createAlertEngine(engineOptions)
    rulesByName = new Map(config.rules.map((r) => [r.name, r]))
    incidentRules = new Set(config.rules.filter((r) => r.incident).map((r) => r.name))
    lowest = lowestLevel(engine.rules)
    dispatcher.setChannels(config.channels)
    // Incidents that were waiting out group_wait when the previous engine stopped start over here.
    for (const p of state.pending()) {
      const { line } = toAlertLine(p.raw, p.format, p.source)
      handle(engine.ingest(line, now), now)
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

  build(options.config, options.now)

  return {
    lowestLevel: () => lowest,
    ingest(line, now) {
      const rule = selectRule(engine.rules, line)
      if (rule === undefined) return
      matches++
      const key = fingerprint(rule, line)
      // Without group_wait or threshold the engine decides in this call: nothing waits to be replayed.
      const firesNow = rule.groupWaitMs === 0 && rule.threshold === undefined
      state.observe(key, { rule: rule.name, raw: line.raw, source: line.source ?? '', format: line.json ? 'json' : 'text', since: now }, now, firesNow)
      handle(engine.ingest(line, now), now)
    },
    tick(now) {
      handle(engine.tick(now), now)
      // An incident that paged before a restart and went quiet resolves here, not in the engine.
      for (const key of state.expire(now, keep)) dispatcher.closeLead(key)
      state.save()
    },
    flush(now) {
      handle(engine.flush(now), now)
      state.save()
    },
    replace(config, now) {
      build(config, now)
    },
    stats() {
      const s = engine.stats()
      return { matches, suppressedRepages, openIncidents: s.openIncidents, firingIncidents: s.firingIncidents }
    },
  }
}
