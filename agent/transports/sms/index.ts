// logx-sms-alert: a transport target that turns alerting lines into SMS.
// Everything but its options is the shared alert path (agent/delivery).
import { alertTarget } from '../shared/alert-target'
import { normalizeSmsOptions, TARGET } from './options'

export type { SmsOptionsInput } from './options'

export default alertTarget(TARGET, (raw) => normalizeSmsOptions(raw))
