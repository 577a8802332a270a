// logx-incident options: written (what users pass) -> normalized. Needs only the CRM webhooks: it
// sends nothing, and records every incident's notices on a recording channel the alert path adds.
import { rejectUnknown } from '../shared/check'
import {
  COMMON_KEYS,
  normalizeCommon,
  normalizeCrm,
  type CommonOptions,
  type CommonOptionsInput,
  type CrmOptions,
} from '../shared/common-options'

export const TARGET = 'logx-incident'

export type IncidentOptionsInput = Omit<CommonOptionsInput, 'messagingUrl' | 'apiKey' | 'incident'>

export interface IncidentOptions {
  common: CommonOptions
  crm: CrmOptions
}

const KEYS = new Set([...COMMON_KEYS].filter((k) => k !== 'messagingUrl' && k !== 'apiKey' && k !== 'incident'))

export function normalizeIncidentOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): IncidentOptions {
  // No channel of its own: a rule without `notify` notifies none, and the recording channel hears every notice.
  const { written, common } = normalizeCommon(TARGET, raw, [])
  rejectUnknown(TARGET, written, KEYS)
  return { common, crm: normalizeCrm(TARGET, written, env) }
}
