// I/O: sends built SMS requests through the messaging client.
import type { SendSmsInput } from '../../messaging'
import { createApiClient } from '../shared/api-sender'
import type { SmsOptions } from './options'

export function createSmsSender(options: SmsOptions): { send(kind: string, request: unknown): Promise<void>; close(): Promise<void> } {
  const client = createApiClient(options.api, options.common)
  return {
    async send(_kind, request) {
      await client.sendSms(request as SendSmsInput)
    },
    close: () => client.close(),
  }
}
