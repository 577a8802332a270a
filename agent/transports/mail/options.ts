// logx-mail-alert options: written (what users pass) -> normalized. The channel keys are the YAML
// mail channel's (agent/config), spelt as options.
import type { KindTemplates } from '../../config/types'
import { normalizeChannelTarget, type ChannelTargetOptions, type CommonOptionsInput } from '../shared/common-options'

export const TARGET = 'logx-mail-alert'

export interface MailOptionsInput extends CommonOptionsInput {
  /** Sender address (required). */
  from: string
  /** Recipient addresses (required). */
  to: string[] | string
  /** Subject template, or one per kind: { firing, resolved, digest }. */
  subject?: string | Partial<KindTemplates>
  /** Body sent as `message`: the HTML rendering (default) or the plain-text one. */
  format?: 'html' | 'text'
}

export type MailOptions = ChannelTargetOptions<'mail'>

export function normalizeMailOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): MailOptions {
  return normalizeChannelTarget(TARGET, 'mail', raw, env)
}
