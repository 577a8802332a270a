// Template chat messages: the API takes one number per request, so one request per recipient.
// Pure: the rendered delivery (alerts/) -> the messaging client's input; the client maps it to the
// wire body (agent/messaging/request-builders.ts, which the client itself needs).
import type { Delivery } from '../../../../alerts'
import type { SendChatInput } from '../../../messaging'
import type { ChannelOf, OutgoingRequest } from '../types'

export function buildChatRequests(channel: ChannelOf<'chat'>, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'chat') return []
  const variables = delivery.message.variables
  return channel.numbers.map((number) => {
    const request: SendChatInput = { templateId: channel.templateId, number, variables }
    if (channel.attachment !== undefined) request.attachment = channel.attachment
    return { kind: 'chat', request, summary: variables.join(' | ') }
  })
}
