// logx-chat-alert: a transport target that turns alerting lines into template chat messages.
// Everything but its options is the shared alert path (agent/delivery).
import { alertTarget } from '../shared/alert-target'
import { normalizeChatOptions, TARGET } from './options'

export type { ChatOptionsInput } from './options'

export default alertTarget(TARGET, (raw) => normalizeChatOptions(raw))
