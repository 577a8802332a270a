// The alert path as its callers (the daemon, the transport targets) use it: delivery's path with what
// people do to incidents on top. The actions run on the path's pipeline, state and silences, so they
// sit a floor above delivery; delivery knows nothing of them.
import { createDeliveryPath, type AlertPathOptions, type DeliveryPath } from '../delivery/alert-path'
import { createIncidentActions } from './incident-actions'
import type { IncidentActions } from './types'

export type { AlertPathOptions } from '../delivery/alert-path'

export interface AlertPath extends DeliveryPath {
  /** Acknowledge, resolve, silence: what people do to incidents. */
  readonly actions: IncidentActions
}

/** Opens delivery's path and adds the actions; a fleet hears of each action the agent takes. */
export function createAlertPath(options: AlertPathOptions): AlertPath {
  const path = createDeliveryPath(options)
  const { pipeline, state, silences } = path
  const actions = createIncidentActions({ pipeline, state, silences, log: options.log })
  if (options.fleet !== undefined) actions.onAction(options.fleet.published)
  return { ...path, actions }
}
