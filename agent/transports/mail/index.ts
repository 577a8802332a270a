// logx-mail-alert: a transport target that turns alerting lines into e-mail.
// Everything but its options is the shared alert path (agent/delivery).
import { alertTarget } from '../shared/alert-target'
import { normalizeMailOptions, TARGET } from './options'

export type { MailOptionsInput } from './options'

export default alertTarget(TARGET, (raw) => normalizeMailOptions(raw))
