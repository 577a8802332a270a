// I/O: sends built e-mail requests through the messaging client.
import type { SendMailInput } from '../../messaging'
import { createApiClient, type ChannelSender } from '../shared/api-sender'
import type { MailOptions } from './options'

export function createMailSender(options: MailOptions): ChannelSender {
  const client = createApiClient(options.api, options.common)
  return {
    async send(request, idempotencyKey) {
      await client.sendMail(request as SendMailInput, { idempotencyKey })
    },
    close: () => client.close(),
  }
}
