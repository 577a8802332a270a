// Template chat messages: the API takes one number per request, so one request per recipient.
import type { SendChatInput } from '../../messaging'
import type { ChannelKind, ChannelOf } from './channel-kind'

export const chatChannel: ChannelKind<ChannelOf<'chat'>> = {
  type: 'chat',
  build(channel, delivery) {
    if (delivery.message.type !== 'chat') return []
    const variables = delivery.message.variables
    return channel.numbers.map((number) => {
      const request: SendChatInput = { templateId: channel.templateId, number, variables }
      if (channel.attachment !== undefined) request.attachment = channel.attachment
      return { kind: 'chat', request, summary: variables.join(' | ') }
    })
  },
  async send(client, request, idempotencyKey) {
    await client.sendChat(request as SendChatInput, { idempotencyKey })
  },
}
