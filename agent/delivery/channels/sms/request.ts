// SMS: one request for every recipient of the channel.
// Pure: the rendered delivery (alerts/) -> the messaging client's input; the client maps it to the
// wire body (agent/messaging/request-builders.ts, which the client itself needs).
import type { Delivery } from '../../../../alerts'
import type { SendSmsInput } from '../../../messaging'
import type { ChannelOf, OutgoingRequest } from '../types'

export function buildSmsRequests(channel: ChannelOf<'sms'>, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'sms') return []
  const request: SendSmsInput = { numbers: channel.numbers, text: delivery.message.text }
  if (channel.senderId !== undefined) request.senderId = channel.senderId
  if (channel.route !== undefined) request.route = channel.route
  if (channel.templateId !== undefined) request.templateId = channel.templateId
  return [{ kind: 'sms', request, summary: delivery.message.text }]
}
