// The one table of channel types: a delivery's requests are built, and an outbox item is sent, here.
import type { Delivery } from '../../../alerts'
import type { ChannelConfig } from '../../config/types'
import type { MessagingClient } from '../../messaging'
import type { ChannelKind, OutgoingRequest } from './channel-kind'
import { chatChannel } from './chat'
import { mailChannel } from './mail'
import { smsChannel } from './sms'
import { voiceChannel } from './voice'

export type { ChannelKind, OutgoingRequest } from './channel-kind'

const KINDS: Readonly<Record<ChannelConfig['type'], ChannelKind>> = {
  sms: smsChannel as ChannelKind,
  chat: chatChannel as ChannelKind,
  mail: mailChannel as ChannelKind,
  voice: voiceChannel as ChannelKind,
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
