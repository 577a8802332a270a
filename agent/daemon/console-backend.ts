// The console's and the command line's view of the running agent: its open incidents (from the
// engine), their history (the timeline), the silences of the config and those made at run time, and
// the changes people make, all through the alert path's incident actions; and who is on call, from
// the config's schedules.
import type { FieldMatch, IncidentSnapshot, IncidentView, SilenceConfig } from '../../alerts'
import type { FleetIncident } from '../cluster/types'
import type { AgentConfig } from '../config/types'
import type { AlertPath } from '../acknowledge/with-actions'
import type { RuntimeSilence } from '../incidents/runtime-silences'
import type { ActionResult, ConsoleBackend, IncidentDetail, IncidentSummary, SilenceSummary } from './console/types'
import type { TestPageBackend } from './console/test-page-types'
import { scheduleViews } from './schedule-views'

/** An incident's short id: the start of its hash (a key is `<rule>:<hash>`), enough to tell it apart. */
export function shortIdOf(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1, key.lastIndexOf(':') + 9)
}

function summaryOf(
  key: string,
  rule: string,
  incident: Pick<IncidentSnapshot, 'title' | 'status' | 'count' | 'firstSeen' | 'lastSeen' | 'step' | 'ack'>,
  paged: string[],
): IncidentSummary {
  const { ack } = incident
  return {
    id: key,
    shortId: shortIdOf(key),
    rule,
    title: incident.title,
    state: incident.status,
    count: incident.count,
    firstSeen: incident.firstSeen,
    lastSeen: incident.lastSeen,
    step: incident.step,
    paged: paged.sort(),
    ack: ack === undefined ? undefined : { by: ack.by, via: ack.via, at: ack.at },
  }
}

const summary = (s: IncidentSnapshot): IncidentSummary => summaryOf(s.key, s.rule, s, Object.keys(s.pagedTo))
const viewSummary = (v: IncidentView): IncidentSummary => summaryOf(v.key, v.rule.name, v, [...v.pagedTo.keys()])

/** An incident as the fleet saw it: its counts and times are the fleet's, with each host's part. */
function withFleet(summary: IncidentSummary, fleet: FleetIncident | undefined): IncidentSummary {
  if (fleet === undefined) return summary
  return {
    ...summary,
    count: Math.max(summary.count, fleet.count),
    firstSeen: Math.min(summary.firstSeen, fleet.first),
    lastSeen: Math.max(summary.lastSeen, fleet.last),
    hosts: fleet.hosts,
  }
}

/** An incident only other agents of the fleet hold. */
function fleetOnly(fleet: FleetIncident): IncidentSummary {
  const ack = fleet.ack
  return {
    id: fleet.key,
    shortId: shortIdOf(fleet.key),
    rule: fleet.rule,
    title: fleet.title,
    state: ack !== undefined ? 'acknowledged' : 'firing',
    count: fleet.count,
    firstSeen: fleet.first,
    lastSeen: fleet.last,
    step: 0,
    paged: [],
    ack,
    hosts: fleet.hosts,
  }
}

/** In a fleet: the incidents of the whole fleet as last read, and reading them again (agent/daemon/fleet.ts). */
export interface FleetView {
  view(): ReadonlyMap<string, FleetIncident>
  refreshView(): Promise<void>
}

const written = (match: FieldMatch): string => (match.kind === 'regex' ? String(match.regex) : String(match.value))

function configSilences(silences: readonly SilenceConfig[], loadedAt: number, now: number): SilenceSummary[] {
  // The engine names a config silence without an id by its place: silence-1, silence-2...
  return silences
    .map((s, i) => ({
      id: s.id ?? `silence-${i + 1}`,
      matchers: Object.fromEntries(s.matchers.map((m) => [m.path, written(m)])),
      startsAt: s.startsAt ?? loadedAt,
      endsAt: s.endsAt,
      comment: s.comment,
      createdBy: undefined,
      origin: 'config' as const,
    }))
    .filter((s) => s.endsAt > now)
}

const runtimeSummary = (s: RuntimeSilence): SilenceSummary => ({ ...s, origin: 'runtime' })

/** What a kept summary was made of: the summary holds while none of it changed. */
interface KeptSummary {
  count: number
  lastSeen: number
  status: string
  step: number
  ackAt: number | undefined
  paged: number
  summary: IncidentSummary
}

const stillFits = (kept: KeptSummary, view: IncidentView): boolean =>
  kept.count === view.count &&
  kept.lastSeen === view.lastSeen &&
  kept.status === view.status &&
  kept.step === view.step &&
  kept.ackAt === view.ack?.at &&
  kept.paged === view.pagedTo.size

/**
 * Each incident's summary, kept until the incident changes: the page polls every 3 s, and 10,000
 * summaries made anew per request are garbage that a small young generation promotes
 * (bench/console.js). An engine's incident is one object for its life, so it keys the copy.
 */
function createSummaryCache(): (view: IncidentView) => IncidentSummary {
  const summaries = new WeakMap<IncidentView, KeptSummary>()
  return (view) => {
    const kept = summaries.get(view)
    if (kept !== undefined && stillFits(kept, view)) return kept.summary
    const summary = viewSummary(view)
    const { count, lastSeen, status, step } = view
    summaries.set(view, { count, lastSeen, status, step, ackAt: view.ack?.at, paged: view.pagedTo.size, summary })
    return summary
  }
}

type IncidentList = ReturnType<ConsoleBackend['incidents']>

/** The engine's incidents, most recently seen first, with what the fleet knows merged in. */
function listIncidents(
  pipeline: AlertPath['pipeline'],
  summaryOfView: (view: IncidentView) => IncidentSummary,
  fleet: FleetView | undefined,
  { state, limit }: Parameters<ConsoleBackend['incidents']>[0],
): IncidentList {
  if (state === 'resolved') return { items: [], total: 0 }
  // The engine lists the most recently seen first.
  const local = pipeline.incidentViews(limit, state).map(summaryOfView)
  const seen = fleet?.view()
  if (seen === undefined || seen.size === 0) return { items: local, total: pipeline.countIncidents(state) }
  const merged = local.map((s) => withFleet(s, seen.get(s.id)))
  const here = new Set(local.map((s) => s.id))
  const elsewhere = [...seen.values()]
    .filter((f) => !here.has(f.key) && pipeline.incident(f.key) === undefined)
    .map(fleetOnly)
    .filter((s) => state === undefined || s.state === state)
  const items = [...merged, ...elsewhere].sort((a, b) => b.lastSeen - a.lastSeen).slice(0, limit ?? Infinity)
  return { items, total: pipeline.countIncidents(state) + elsewhere.length }
}

export function createConsoleBackend(
  path: AlertPath,
  config: () => AgentConfig,
  loadedAt: () => number,
  now: () => number,
  fleet?: FleetView,
  testPages?: TestPageBackend,
): ConsoleBackend {
  const { actions, pipeline, timeline } = path
  const detail = (incident: IncidentSnapshot): IncidentDetail => ({
    ...summary(incident),
    timeline: timeline.of(incident.key),
  })
  const summaryOfView = createSummaryCache()

  return {
    ...(fleet === undefined ? {} : { refresh: () => fleet.refreshView() }),
    incidents: (query) => listIncidents(pipeline, summaryOfView, fleet, query),
    incident(id) {
      const found = actions.find(id)
      return found === undefined || found === 'ambiguous'
        ? found
        : { ...detail(found), ...withFleet(summary(found), fleet?.view().get(found.key)) }
    },
    act(id, action, by, via): ActionResult {
      const found = actions.find(id)
      if (found === undefined) return { ok: false, status: 404, error: `no open incident ${id}` }
      if (found === 'ambiguous')
        return { ok: false, status: 409, error: `${id} names several incidents: give more of the id` }
      const outcome = actions.act(found.key, action, { by, via }, now())
      if (!outcome.ok) return outcome
      const result = detail(outcome.incident)
      return { ok: true, incident: outcome.resolved ? { ...result, state: 'resolved' } : result }
    },
    silences() {
      const at = now()
      return [...configSilences(config().silences, loadedAt(), at), ...actions.silences(at).map(runtimeSummary)]
    },
    addSilence(input) {
      const added = actions.addSilence(input, now())
      return added.ok ? { ok: true, silence: runtimeSummary(added.silence) } : added
    },
    expireSilence(id) {
      if (configSilences(config().silences, loadedAt(), now()).some((s) => s.id === id)) {
        return { ok: false, status: 409, error: `silence ${id} is set in ${config().file}: remove it there` }
      }
      const removed = actions.expireSilence(id, now())
      return removed === undefined
        ? { ok: false, status: 404, error: `no silence ${id}` }
        : { ok: true, silence: { ...runtimeSummary(removed), endsAt: now() } }
    },
    people: () => config().people.map((p) => p.name),
    // From the config of the moment: a reload that changes a rotation shows at the next poll.
    schedules: (at) => scheduleViews(config().schedules, at),
    testPages,
  }
}
