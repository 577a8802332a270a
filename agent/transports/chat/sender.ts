// I/O: sends built chat requests through the messaging client.
import type { SendChatInput } from '../../messaging'
import { createApiClient, type ChannelSender } from '../shared/api-sender'
import type { ChatOptions } from './options'

export function createChatSender(options: ChatOptions): ChannelSender {
  const client = createApiClient(options.api, options.common)
  return {
    async send(request, idempotencyKey) {
      await client.sendChat(request as SendChatInput, { idempotencyKey })
    },
    close: () => client.close(),
  }
}
