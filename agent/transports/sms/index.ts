// logx-sms-alert: a transport target that turns alerting lines into SMS.
import type { Writable } from 'node:stream'
import { secretsOf, startAlertTarget, withCleanup } from '../shared/alert-target'
import { normalizeSmsOptions, TARGET } from './options'
import { buildSmsRequests } from './request'
import { createSmsSender } from './sender'

export type { SmsOptionsInput } from './options'

export default async function smsAlert(raw: unknown): Promise<Writable> {
  const options = normalizeSmsOptions(raw)
  const sender = createSmsSender(options)
  return withCleanup(sender.close, () => startAlertTarget({
    target: TARGET,
    common: options.common,
    crm: options.crm,
    secrets: secretsOf([options.api.apiKey, options.crm?.activityToken, options.crm?.leadWebhook]),
    adapter: {
      channel: options.channel,
      build: (delivery) => buildSmsRequests(options, delivery),
      send: sender.send,
      close: sender.close,
    },
  }))
}
