// logx-voice-alert: a transport target that places voice broadcasts for alerting lines.
import type { Writable } from 'node:stream'
import { secretsOf, startAlertTarget, withCleanup } from '../shared/alert-target'
import { normalizeVoiceOptions, TARGET } from './options'
import { buildVoiceRequests } from './request'
import { createVoiceSender } from './sender'

export type { VoiceOptionsInput } from './options'

export default async function voiceAlert(raw: unknown): Promise<Writable> {
  const options = normalizeVoiceOptions(raw)
  const sender = createVoiceSender(options)
  return withCleanup(sender.close, () =>
    startAlertTarget({
      target: TARGET,
      common: options.common,
      crm: options.crm,
      secrets: secretsOf([options.api.apiKey, options.crm?.activityToken, options.crm?.leadWebhook]),
      adapter: { channel: options.channel, build: buildVoiceRequests, send: sender.send, close: sender.close },
    }),
  )
}
