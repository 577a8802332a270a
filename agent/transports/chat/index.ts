// logx-chat-alert: a transport target that turns alerting lines into template chat messages.
import type { Writable } from 'node:stream'
import { secretsOf, startAlertTarget, withCleanup } from '../shared/alert-target'
import { normalizeChatOptions, TARGET } from './options'
import { buildChatRequests } from './request'
import { createChatSender } from './sender'

export type { ChatOptionsInput } from './options'

export default async function chatAlert(raw: unknown): Promise<Writable> {
  const options = normalizeChatOptions(raw)
  const sender = createChatSender(options)
  return withCleanup(sender.close, () =>
    startAlertTarget({
      target: TARGET,
      common: options.common,
      crm: options.crm,
      secrets: secretsOf([options.api.apiKey, options.crm?.activityToken, options.crm?.leadWebhook]),
      adapter: { channel: options.channel, build: (d) => buildChatRequests(options, d), send: sender.send, close: sender.close },
    }),
  )
}
