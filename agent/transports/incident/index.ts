// logx-incident: a transport target that records every incident as a lead with an activity trail (sends nothing).
// Everything but its options is the shared alert path (agent/delivery).
import { alertTarget } from '../shared/alert-target'
import { normalizeIncidentOptions, TARGET } from './options'

export type { IncidentOptionsInput } from './options'

export default alertTarget(TARGET, (raw) => normalizeIncidentOptions(raw))
