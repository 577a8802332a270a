// The alert engine in-process, between the tailers and the dispatcher. It adds what a long-lived
// engine alone cannot promise across restarts and reloads (alerts/ is pure and keeps incidents in
// memory): the incident state file, consulted so an incident that already paged is not paged again
// by a fresh engine, and written before the lines behind it are committed. The pipeline's state is
// one object (`PipelineState`); each thing it does is a function of it (pipeline-steps.ts).
import { retentionOf } from '../incidents/page-record'
import { deployThreshold } from '../prefilter/deploy-threshold'
import {
  createPipelineState,
  current,
  handle,
  ingest,
  install,
  stored,
  type AlertPipelineOptions,
  type PipelineState,
} from './pipeline-steps'
import type { AlertPipeline, PipelineStats } from './types'

export type { AlertPipelineOptions } from './pipeline-steps'

function statsOf(p: PipelineState): PipelineStats {
  const s = current(p).stats()
  return {
    matches: p.counts.matches,
    suppressedRepages: p.counts.suppressedRepages,
    openIncidents: s.openIncidents,
    firingIncidents: s.firingIncidents,
    evictedIncidents: p.evictions.total(current(p), p.state),
    failedLines: p.counts.failedLines,
    inhibited: p.counts.inhibitedBefore + s.inhibited,
    absenceKeys: s.absenceKeys,
    absenceIncidents: s.absenceIncidents,
  }
}

export function createAlertPipeline(options: AlertPipelineOptions): AlertPipeline {
  const p = createPipelineState(options)
  const { state } = options
  install(p, options.setup, options.now, options.engine)

  return {
    lowestLevel: (source) =>
      source === undefined ? p.setup.lowest : deployThreshold(p.setup.rulesByName.values(), source, p.setup.lowest),
    ingest: (line, now) => ingest(p, line, now),
    countLines: (source, n, now) => current(p).countLines(source, n, now),
    seenElsewhere(seen, now) {
      const engine = current(p)
      handle(
        p,
        seen.flatMap((s) => engine.seenElsewhere(s.key, s, now)),
        now,
      )
    },
    tick(now) {
      const engine = current(p)
      handle(p, engine.tick(now), now)
      p.evictions.report(engine, state)
      // An incident that paged before a restart and went quiet resolves here, not in the engine.
      const expired = state.expire(now, (name) => retentionOf(p.setup.rulesByName.get(name)))
      for (const key of expired) options.dispatcher.closeLead(key)
      state.refresh((key) => stored(p, key))
      p.absence.record(engine, now)
      state.save()
    },
    flush(now) {
      handle(p, current(p).flush(now), now)
      state.refresh((key) => stored(p, key))
      p.absence.record(current(p), now, true)
      state.save()
    },
    replace: (setup, now) => install(p, setup, now),
    change(now, act) {
      const { deliveries, result } = act(current(p))
      handle(p, deliveries, now)
      state.save()
      return result
    },
    incidents: (limit, status) => current(p).incidents(limit, status),
    incidentViews: (limit, status) => current(p).incidentViews(limit, status),
    countIncidents: (status) => current(p).countIncidents(status),
    incident: (key) => current(p).incident(key),
    stats: () => statsOf(p),
  }
}
