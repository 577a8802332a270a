// SMS: one request for every recipient of the channel.
import type { SendSmsInput } from '../../messaging'
import type { ChannelKind, ChannelOf } from './channel-kind'

export const smsChannel: ChannelKind<ChannelOf<'sms'>> = {
  type: 'sms',
  build(channel, delivery) {
    if (delivery.message.type !== 'sms') return []
    const request: SendSmsInput = { numbers: channel.numbers, text: delivery.message.text }
    if (channel.senderId !== undefined) request.senderId = channel.senderId
    if (channel.route !== undefined) request.route = channel.route
    if (channel.templateId !== undefined) request.templateId = channel.templateId
    return [{ kind: 'sms', request, summary: delivery.message.text }]
  },
  async send(client, request, idempotencyKey) {
    await client.sendSms(request as SendSmsInput, { idempotencyKey })
  },
}
