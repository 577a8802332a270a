// An event whose sender says its incident is over (`resolves`: Alertmanager's `status: resolved`),
// applied to the alert path: the incident its line keys (the rule that selects the line, its key)
// resolves as resolve_after would resolve it, with no actor.
// 1. With a resolver (the daemon's incident actions, agent/acknowledge/source-resolves.ts), the resolve
//    goes the way of a resolve by hand: resolved here if open, and one action on the fleet's stream
//    keyed by the incident key, so the agent that got the firing resolves it even when the resolved
//    webhook reached another agent behind the same address; its notice is claimed, so RESOLVED goes
//    out once for the fleet. The resolve is remembered with the alert's endsAt.
// 2. Without one (no actions on the path), it resolves here only.
// 3. Nothing open under that key (never fired here, resolved already, a resend of the resolve):
//    nothing changes here (the fleet still hears of it, rule 1).
// 4. A firing event whose alert started at or before a remembered resolve's end (a late webhook, or an
//    HA peer's resend) is stale: the sink drops it (staleFiring), so it does not page for an alert that
//    is over. An alert that fires again gets a new startsAt from Alertmanager and pages.
import type { AlertEngine } from '../../../alerts'
import type { AlertPipeline } from '../../delivery/types'
import type { IncidentState } from '../../incidents/incident-state'
import type { IntakeEvent } from '../types'

export interface EndOutcome {
  /** The incident's key, when one was open here and is now resolved. */
  resolved: string | undefined
}

/** What the intake asks of the incident actions (agent/acknowledge implements it; the daemon wires it). */
export interface IntakeResolver {
  sourceResolved(resolve: { key: string; notify: boolean; endedAt: number; at: number }, now: number): boolean
  staleFiring(key: string, startedAt: number | undefined, now: number): boolean
  /** Resolves remembered: with none, no firing is stale and its key is not looked up. */
  rememberedResolves(): number
}

/** An RFC 3339 field of the event's record (`startsAt`, `endsAt`) as epoch ms. */
function timeOf(event: IntakeEvent, field: 'startsAt' | 'endsAt'): number | undefined {
  const value = event.line.record?.[field]
  const ms = typeof value === 'string' ? Date.parse(value) : NaN
  return Number.isFinite(ms) ? ms : undefined
}

function keyOf(pipeline: AlertPipeline, event: IntakeEvent, now: number): string | undefined {
  return pipeline.change(now, (engine: AlertEngine) => ({ deliveries: [], result: engine.select(event.line)?.key }))
}

export function endIncident(
  pipeline: AlertPipeline,
  state: IncidentState,
  event: IntakeEvent,
  now: number,
  resolver?: IntakeResolver,
): EndOutcome {
  const notify = event.notifyResolved ?? true
  if (resolver !== undefined) {
    const key = keyOf(pipeline, event, now)
    if (key === undefined) return { resolved: undefined }
    const endedAt = timeOf(event, 'endsAt') ?? now
    const resolved = resolver.sourceResolved({ key, notify, endedAt, at: now }, now)
    return { resolved: resolved ? key : undefined }
  }
  const key = pipeline.change(now, (engine) => {
    const selected = engine.select(event.line)
    if (selected === undefined) return { deliveries: [], result: undefined }
    const outcome = engine.resolve(selected.key, undefined, now, notify)
    return outcome.ok ? { deliveries: outcome.deliveries, result: selected.key } : { deliveries: [], result: undefined }
  })
  // A pending incident resolves without a notice: its waiting line must not be replayed at a restart.
  if (key !== undefined) state.resolved(key)
  return { resolved: key }
}

/** Rule 4: a firing event of an alert a remembered resolve ended. */
export function staleFiring(
  pipeline: AlertPipeline,
  resolver: IntakeResolver | undefined,
  event: IntakeEvent,
  now: number,
): boolean {
  if (resolver === undefined || resolver.rememberedResolves() === 0) return false
  const startedAt = timeOf(event, 'startsAt')
  if (startedAt === undefined) return false
  const key = keyOf(pipeline, event, now)
  return key !== undefined && resolver.staleFiring(key, startedAt, now)
}
