// I/O: sends built SMS requests through the messaging client.
import type { SendSmsInput } from '../../messaging'
import { createApiClient, type ChannelSender } from '../shared/api-sender'
import type { SmsOptions } from './options'

export function createSmsSender(options: SmsOptions): ChannelSender {
  const client = createApiClient(options.api, options.common)
  return {
    async send(request, idempotencyKey) {
      await client.sendSms(request as SendSmsInput, { idempotencyKey })
    },
    close: () => client.close(),
  }
}
