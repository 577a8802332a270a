// E-mail: one request for every recipient, HTML or text body as the channel says.
import type { SendMailInput } from '../../messaging'
import type { ChannelKind, ChannelOf } from './channel-kind'

export const mailChannel: ChannelKind<ChannelOf<'mail'>> = {
  type: 'mail',
  build(channel, delivery) {
    if (delivery.message.type !== 'mail') return []
    const { subject, html, text } = delivery.message
    const request: SendMailInput = {
      from: channel.from,
      to: channel.to,
      subject,
      message: channel.format === 'html' ? html : text,
    }
    return [{ kind: 'mail', request, summary: subject }]
  },
  async send(client, request, idempotencyKey) {
    await client.sendMail(request as SendMailInput, { idempotencyKey })
  },
}
