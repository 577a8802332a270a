// Pure: a rendered chat delivery -> one SendChatInput per recipient (the API takes one number).
import type { Delivery } from '../../../alerts'
import type { SendChatInput } from '../../messaging'
import type { OutgoingRequest } from '../shared/alert-target'
import type { ChatOptions } from './options'

export function buildChatRequests(options: ChatOptions, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'chat') return []
  const variables = delivery.message.variables
  return options.numbers.map((number) => {
    const request: SendChatInput = { templateId: options.templateId, number, variables }
    if (options.attachment !== undefined) request.attachment = options.attachment
    return { kind: 'chat', request, summary: variables.join(' | ') }
  })
}
