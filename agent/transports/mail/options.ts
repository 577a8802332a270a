// logx-mail-alert options: written (what users pass) -> normalized.
import type { ChannelInput, KindTemplates } from '../../../alerts'
import { rejectUnknown, requiredString, stringList } from '../shared/check'
import {
  COMMON_KEYS, normalizeApi, normalizeCommon, optionalCrm,
  type ApiOptions, type CommonOptions, type CommonOptionsInput, type CrmOptions,
} from '../shared/common-options'
import { optionError } from '../shared/errors'

export const TARGET = 'logx-mail-alert'

export interface MailOptionsInput extends CommonOptionsInput {
  /** Sender address (required). */
  from: string
  /** Recipient addresses (required). */
  to: string[]
  /** Subject template, or one per kind: { firing, resolved, digest }. */
  subject?: string | KindTemplates
  /** Body sent as `message`: the HTML rendering (default) or the plain-text one. */
  format?: 'html' | 'text'
}

export interface MailOptions {
  common: CommonOptions
  api: ApiOptions
  crm: CrmOptions | undefined
  from: string
  to: string[]
  format: 'html' | 'text'
  channel: ChannelInput
}

const KEYS = new Set([...COMMON_KEYS, 'from', 'to', 'subject', 'format'])
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function normalizeMailOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): MailOptions {
  const { written, common } = normalizeCommon(TARGET, raw)
  rejectUnknown(TARGET, written, KEYS)
  const from = requiredString(TARGET, written, 'from', ' (the sender address)')
  if (!EMAIL.test(from)) throw optionError(TARGET, 'from', `expected an e-mail address, got "${from}"`)
  const to = stringList(TARGET, written, 'to', true) as string[]
  to.forEach((address, i) => {
    if (!EMAIL.test(address)) throw optionError(TARGET, `to[${i}]`, `expected an e-mail address, got "${address}"`)
  })
  const format = written.format ?? 'html'
  if (format !== 'html' && format !== 'text') throw optionError(TARGET, 'format', 'expected "html" or "text"')
  return {
    common,
    api: normalizeApi(TARGET, written, env),
    crm: optionalCrm(TARGET, written, env),
    from,
    to,
    format,
    channel: {
      type: 'mail',
      name: 'mail',
      ...(written.subject !== undefined ? { subject: written.subject as string | KindTemplates } : {}),
      ...(common.maxPerHour !== undefined ? { max_per_hour: common.maxPerHour } : {}),
    },
  }
}
