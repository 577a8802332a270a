// logx-chat-alert options: written (what users pass) -> normalized. The channel keys are the YAML
// chat channel's (agent/config), spelt as options: `templateId` for `template_id`.
import { normalizeChannelTarget, type ChannelTargetOptions, type CommonOptionsInput } from '../shared/common-options'

export const TARGET = 'logx-chat-alert'

export interface ChatOptionsInput extends CommonOptionsInput {
  /** The approved chat template (required). */
  templateId: number
  /** Recipients with country prefix, e.g. "+919800000001" (required). */
  numbers: string[] | string
  /** Templates of the template's variables; default [status, title, count, rule]. */
  variables?: string[]
  /** URL of a file attached to every message. */
  attachment?: string
}

export type ChatOptions = ChannelTargetOptions<'chat'>

export function normalizeChatOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): ChatOptions {
  return normalizeChannelTarget(TARGET, 'chat', raw, env)
}
