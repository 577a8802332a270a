// Pure: a rendered mail delivery -> SendMailInput (one request, every recipient).
import type { Delivery } from '../../../alerts'
import type { SendMailInput } from '../../messaging'
import type { OutgoingRequest } from '../shared/alert-target'
import type { MailOptions } from './options'

export function buildMailRequests(options: MailOptions, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'mail') return []
  const { subject, html, text } = delivery.message
  const request: SendMailInput = { from: options.from, to: options.to, subject, message: options.format === 'html' ? html : text }
  return [{ kind: 'mail', request, summary: subject }]
}
