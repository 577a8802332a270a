// logx-sms-alert options: written (what users pass) -> normalized.
import type { ChannelInput, KindTemplates } from '../../../alerts'
import { rejectUnknown, optionalPositive, optionalString } from '../shared/check'
import {
  COMMON_KEYS, normalizeApi, normalizeCommon, optionalCrm,
  type ApiOptions, type CommonOptions, type CommonOptionsInput, type CrmOptions,
} from '../shared/common-options'
import { optionError } from '../shared/errors'

export const TARGET = 'logx-sms-alert'

export interface SmsOptionsInput extends CommonOptionsInput {
  /** Recipients (required). */
  numbers: (number | string)[]
  senderId?: string
  route?: string
  templateId?: string
  /** Text template, or one per kind: { firing, resolved, digest }. */
  template?: string | KindTemplates
  /** Longest text sent; default 160. */
  maxLength?: number
}

export interface SmsOptions {
  common: CommonOptions
  api: ApiOptions
  crm: CrmOptions | undefined
  numbers: (number | string)[]
  senderId: string | undefined
  route: string | undefined
  templateId: string | undefined
  channel: ChannelInput
}

const KEYS = new Set([...COMMON_KEYS, 'numbers', 'senderId', 'route', 'templateId', 'template', 'maxLength'])

function phoneNumbers(value: unknown): (number | string)[] {
  if (value === undefined) throw optionError(TARGET, 'numbers', 'is required (a non-empty list of phone numbers)')
  if (!Array.isArray(value) || value.length === 0) throw optionError(TARGET, 'numbers', 'expected a non-empty list of phone numbers')
  value.forEach((n, i) => {
    const ok =
      (typeof n === 'number' && Number.isInteger(n) && n > 0) ||
      (typeof n === 'string' && /^\+?[\d\s\-().]{5,}$/.test(n))
    if (!ok) throw optionError(TARGET, `numbers[${i}]`, `expected a phone number, got ${JSON.stringify(n)}`)
  })
  return value as (number | string)[]
}

export function normalizeSmsOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): SmsOptions {
  const { written, common } = normalizeCommon(TARGET, raw)
  rejectUnknown(TARGET, written, KEYS)
  const numbers = phoneNumbers(written.numbers)
  const maxLength = optionalPositive(TARGET, written, 'maxLength')
  return {
    common,
    api: normalizeApi(TARGET, written, env),
    crm: optionalCrm(TARGET, written, env),
    numbers,
    senderId: optionalString(TARGET, written, 'senderId'),
    route: optionalString(TARGET, written, 'route'),
    templateId: optionalString(TARGET, written, 'templateId'),
    channel: {
      type: 'sms',
      name: 'sms',
      ...(written.template !== undefined ? { template: written.template as string | KindTemplates } : {}),
      ...(maxLength !== undefined ? { max_length: maxLength } : {}),
      ...(common.maxPerHour !== undefined ? { max_per_hour: common.maxPerHour } : {}),
    },
  }
}
