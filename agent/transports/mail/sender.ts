// I/O: sends built e-mail requests through the messaging client.
import type { SendMailInput } from '../../messaging'
import { createApiClient } from '../shared/api-sender'
import type { MailOptions } from './options'

export function createMailSender(options: MailOptions): { send(kind: string, request: unknown): Promise<void>; close(): Promise<void> } {
  const client = createApiClient(options.api, options.common)
  return {
    async send(_kind, request) {
      await client.sendMail(request as SendMailInput)
    },
    close: () => client.close(),
  }
}
