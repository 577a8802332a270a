// logx-incident options: written (what users pass) -> normalized. Needs only the CRM webhooks.
import type { ChannelInput } from '../../../alerts'
import { rejectUnknown } from '../shared/check'
import { COMMON_KEYS, normalizeCommon, normalizeCrm, type CommonOptions, type CommonOptionsInput, type CrmOptions } from '../shared/common-options'

export const TARGET = 'logx-incident'

export type IncidentOptionsInput = Omit<CommonOptionsInput, 'messagingUrl' | 'apiKey' | 'incident'>

export interface IncidentOptions {
  common: CommonOptions
  crm: CrmOptions
  channel: ChannelInput
}

const KEYS = new Set([...COMMON_KEYS].filter((k) => k !== 'messagingUrl' && k !== 'apiKey' && k !== 'incident'))

export function normalizeIncidentOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): IncidentOptions {
  const { written, common } = normalizeCommon(TARGET, raw)
  rejectUnknown(TARGET, written, KEYS)
  return {
    common,
    crm: normalizeCrm(TARGET, written, env),
    channel: { type: 'incident', name: 'incident', ...(common.maxPerHour !== undefined ? { max_per_hour: common.maxPerHour } : {}) },
  }
}
