// logx-mail-alert: a transport target that turns alerting lines into e-mail.
import type { Writable } from 'node:stream'
import { secretsOf, startAlertTarget, withCleanup } from '../shared/alert-target'
import { normalizeMailOptions, TARGET } from './options'
import { buildMailRequests } from './request'
import { createMailSender } from './sender'

export type { MailOptionsInput } from './options'

export default async function mailAlert(raw: unknown): Promise<Writable> {
  const options = normalizeMailOptions(raw)
  const sender = createMailSender(options)
  return withCleanup(sender.close, () =>
    startAlertTarget({
      target: TARGET,
      common: options.common,
      crm: options.crm,
      secrets: secretsOf([options.api.apiKey, options.crm?.activityToken, options.crm?.leadWebhook]),
      adapter: { channel: options.channel, build: (d) => buildMailRequests(options, d), send: sender.send, close: sender.close },
    }),
  )
}
