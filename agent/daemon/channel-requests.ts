// Pure: a rendered delivery -> what to send, through the same request builders the transport
// targets use (agent/transports/<channel>/request.ts). Those builders take the target's options but
// read only the recipient fields; the config's channel gives exactly those.
import type { Delivery } from '../../alerts'
import type { ChannelConfig } from '../config/types'
import type { OutgoingRequest } from '../transports/shared/alert-target'
import { buildChatRequests } from '../transports/chat/request'
import type { ChatOptions } from '../transports/chat/options'
import { buildMailRequests } from '../transports/mail/request'
import type { MailOptions } from '../transports/mail/options'
import { buildSmsRequests } from '../transports/sms/request'
import type { SmsOptions } from '../transports/sms/options'
import { buildVoiceRequests } from '../transports/voice/request'

type SmsRecipients = Pick<SmsOptions, 'numbers' | 'senderId' | 'route' | 'templateId'>
type ChatRecipients = Pick<ChatOptions, 'numbers' | 'templateId' | 'attachment'>
type MailRecipients = Pick<MailOptions, 'from' | 'to' | 'format'>

export function buildChannelRequests(channel: ChannelConfig, delivery: Delivery): OutgoingRequest[] {
  switch (channel.type) {
    case 'sms': {
      const recipients: SmsRecipients = { numbers: channel.numbers, senderId: channel.senderId, route: channel.route, templateId: channel.templateId }
      return buildSmsRequests(recipients as SmsOptions, delivery)
    }
    case 'chat': {
      const recipients: ChatRecipients = { numbers: channel.numbers, templateId: channel.templateId, attachment: channel.attachment }
      return buildChatRequests(recipients as ChatOptions, delivery)
    }
    case 'mail': {
      const recipients: MailRecipients = { from: channel.from, to: channel.to, format: channel.format }
      return buildMailRequests(recipients as MailOptions, delivery)
    }
    case 'voice':
      return buildVoiceRequests(delivery)
  }
}
