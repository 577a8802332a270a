// logx-incident: records every incident as a lead with an activity trail (no messages sent).
import type { Writable } from 'node:stream'
import { secretsOf, startAlertTarget } from '../shared/alert-target'
import { normalizeIncidentOptions, TARGET } from './options'
import { incidentActivities } from './request'

export type { IncidentOptionsInput } from './options'

export default async function incidentTarget(raw: unknown): Promise<Writable> {
  const options = normalizeIncidentOptions(raw)
  return startAlertTarget({
    target: TARGET,
    common: options.common,
    crm: options.crm,
    secrets: secretsOf([options.crm.activityToken, options.crm.leadWebhook]),
    adapter: {
      channel: options.channel,
      build: () => [],
      send: async () => {},
      close: async () => {},
      record: incidentActivities,
    },
  })
}
