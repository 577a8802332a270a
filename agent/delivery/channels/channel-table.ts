// The one table of channel types: a delivery's requests are built, and an outbox item is sent, here.
import type { Delivery } from '../../../alerts'
import type { ChannelConfig } from '../../config/types'
import type { MessagingClient } from '../../messaging'
import { buildChatRequests, sendChat } from './chat'
import { buildMailRequests, sendMail } from './mail'
import { buildSmsRequests, sendSms } from './sms'
import type { ChannelKind, OutgoingRequest } from './types'
import { buildVoiceRequests, sendVoice } from './voice'

const KINDS: Readonly<Record<ChannelConfig['type'], ChannelKind>> = {
  sms: { type: 'sms', build: buildSmsRequests, send: sendSms } as ChannelKind,
  chat: { type: 'chat', build: buildChatRequests, send: sendChat } as ChannelKind,
  mail: { type: 'mail', build: buildMailRequests, send: sendMail } as ChannelKind,
  voice: { type: 'voice', build: buildVoiceRequests, send: sendVoice } as ChannelKind,
}

/** Pure: what `channel` sends for one delivery. */
export function buildChannelRequests(channel: ChannelConfig, delivery: Delivery): OutgoingRequest[] {
  return KINDS[channel.type].build(channel, delivery)
}

export function isChannelKind(kind: string): kind is ChannelConfig['type'] {
  return Object.hasOwn(KINDS, kind)
}

/** One attempt at sending an outbox item of a channel kind. */
export function sendChannelRequest(
  client: MessagingClient,
  kind: ChannelConfig['type'],
  request: unknown,
  idempotencyKey: string,
): Promise<void> {
  return KINDS[kind].send(client, request, idempotencyKey)
}
