// I/O: sends built chat requests through the messaging client.
import type { SendChatInput } from '../../messaging'
import { createApiClient } from '../shared/api-sender'
import type { ChatOptions } from './options'

export function createChatSender(options: ChatOptions): { send(kind: string, request: unknown): Promise<void>; close(): Promise<void> } {
  const client = createApiClient(options.api, options.common)
  return {
    async send(_kind, request) {
      await client.sendChat(request as SendChatInput)
    },
    close: () => client.close(),
  }
}
