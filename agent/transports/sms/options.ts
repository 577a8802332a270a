// logx-sms-alert options: written (what users pass) -> normalized. The channel keys are the YAML
// sms channel's (agent/config), spelt as options: `senderId` for `sender_id`.
import type { KindTemplates } from '../../config/types'
import { normalizeChannelTarget, type ChannelTargetOptions, type CommonOptionsInput } from '../shared/common-options'

export const TARGET = 'logx-sms-alert'

export interface SmsOptionsInput extends CommonOptionsInput {
  /** Recipients (required). */
  numbers: (number | string)[] | number | string
  senderId?: string
  route?: string
  templateId?: string
  /** Text template, or one per kind: { firing, resolved, digest }. */
  template?: string | Partial<KindTemplates>
  /** Longest text sent; default 160. */
  maxLength?: number
}

export type SmsOptions = ChannelTargetOptions<'sms'>

export function normalizeSmsOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): SmsOptions {
  return normalizeChannelTarget(TARGET, 'sms', raw, env)
}
