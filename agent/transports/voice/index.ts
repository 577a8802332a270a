// logx-voice-alert: a transport target that turns alerting lines into voice broadcasts.
// Everything but its options is the shared alert path (agent/delivery).
import { alertTarget } from '../shared/alert-target'
import { normalizeVoiceOptions, TARGET } from './options'

export type { VoiceOptionsInput } from './options'

export default alertTarget(TARGET, (raw) => normalizeVoiceOptions(raw))
