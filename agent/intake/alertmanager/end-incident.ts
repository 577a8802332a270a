// An event whose sender says its incident is over (`resolves`: Alertmanager's `status: resolved`),
// applied to the alert path: the incident its line keys (the rule that selects the line, its key)
// resolves as resolve_after would resolve it, with no actor, so in a fleet every agent that got the
// alert names the same resolve notice and one of them sends it (agent/delivery/fleet). Nothing open
// under that key (never fired here, resolved already, or a resend of the resolve): nothing happens.
import type { AlertPipeline } from '../../delivery/types'
import type { IncidentState } from '../../incidents/incident-state'
import type { IntakeEvent } from '../types'

export interface EndOutcome {
  /** The incident's key, when one was open and is now resolved. */
  resolved: string | undefined
}

export function endIncident(
  pipeline: AlertPipeline,
  state: IncidentState,
  event: IntakeEvent,
  now: number,
): EndOutcome {
  const notify = event.notifyResolved ?? true
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
