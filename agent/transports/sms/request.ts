// Pure: a rendered SMS delivery -> the messaging client's SendSmsInput.
import type { Delivery } from '../../../alerts'
import type { SendSmsInput } from '../../messaging'
import type { OutgoingRequest } from '../shared/alert-target'
import type { SmsOptions } from './options'

export function buildSmsRequests(options: SmsOptions, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'sms') return []
  const request: SendSmsInput = { numbers: options.numbers, text: delivery.message.text }
  if (options.senderId !== undefined) request.senderId = options.senderId
  if (options.route !== undefined) request.route = options.route
  if (options.templateId !== undefined) request.templateId = options.templateId
  return [{ kind: 'sms', request, summary: delivery.message.text }]
}
