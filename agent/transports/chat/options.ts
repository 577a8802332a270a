// logx-chat-alert options: written (what users pass) -> normalized.
import type { ChannelInput } from '../../../alerts'
import { optionalString, rejectUnknown, stringList } from '../shared/check'
import {
  COMMON_KEYS, normalizeApi, normalizeCommon, optionalCrm,
  type ApiOptions, type CommonOptions, type CommonOptionsInput, type CrmOptions,
} from '../shared/common-options'
import { optionError } from '../shared/errors'

export const TARGET = 'logx-chat-alert'

export interface ChatOptionsInput extends CommonOptionsInput {
  /** The approved chat template (required). */
  templateId: number
  /** Recipients with country prefix, e.g. "+919800000001" (required). */
  numbers: string[]
  /** Templates of the template's variables; default [status, title, count, rule]. */
  variables?: string[]
  /** URL of a file attached to every message. */
  attachment?: string
}

export interface ChatOptions {
  common: CommonOptions
  api: ApiOptions
  crm: CrmOptions | undefined
  templateId: number
  numbers: string[]
  attachment: string | undefined
  channel: ChannelInput
}

const KEYS = new Set([...COMMON_KEYS, 'templateId', 'numbers', 'variables', 'attachment'])

export function normalizeChatOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): ChatOptions {
  const { written, common } = normalizeCommon(TARGET, raw)
  rejectUnknown(TARGET, written, KEYS)
  const templateId = written.templateId
  if (templateId === undefined) throw optionError(TARGET, 'templateId', 'is required (the chat template identifier)')
  if (typeof templateId !== 'number' || !Number.isInteger(templateId) || templateId < 0) {
    throw optionError(TARGET, 'templateId', 'expected an integer template identifier')
  }
  const numbers = stringList(TARGET, written, 'numbers', true) as string[]
  numbers.forEach((n, i) => {
    if (!/^\+\d[\d\s-]{4,}$/.test(n)) throw optionError(TARGET, `numbers[${i}]`, `expected a number with country prefix like "+919800000001", got "${n}"`)
  })
  const variables = stringList(TARGET, written, 'variables', false)
  return {
    common,
    api: normalizeApi(TARGET, written, env),
    crm: optionalCrm(TARGET, written, env),
    templateId,
    numbers,
    attachment: optionalString(TARGET, written, 'attachment'),
    channel: {
      type: 'chat',
      name: 'chat',
      ...(variables !== undefined ? { variables } : {}),
      ...(common.maxPerHour !== undefined ? { max_per_hour: common.maxPerHour } : {}),
    },
  }
}
