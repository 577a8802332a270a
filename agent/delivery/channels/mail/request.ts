// E-mail: one request for every recipient, HTML or text body as the channel says.
// Pure: the rendered delivery (alerts/) -> the messaging client's input; the client maps it to the
// wire body (agent/messaging/request-builders.ts, which the client itself needs).
import type { Delivery } from '../../../../alerts'
import type { SendMailInput } from '../../../messaging'
import type { ChannelOf, OutgoingRequest } from '../types'

export function buildMailRequests(channel: ChannelOf<'mail'>, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'mail') return []
  const { subject, html, text } = delivery.message
  const request: SendMailInput = {
    from: channel.from,
    to: channel.to,
    subject,
    message: channel.format === 'html' ? html : text,
  }
  return [{ kind: 'mail', request, summary: subject }]
}
