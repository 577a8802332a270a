// What every channel type brings to the delivery path: a pure request builder and a sender (a leaf). The
// builder turns one rendered delivery (from alerts/) into the requests the messaging API takes;
// the sender makes one attempt at one of them (the outbox retries, nothing below it does).
import type { Delivery } from '../../../alerts'
import type { ChannelConfig } from '../../config/types'
import type { MessagingClient } from '../../messaging'

/** One thing to send for a delivery: the outbox item kind and the JSON-safe request. */
export interface OutgoingRequest {
  kind: ChannelConfig['type']
  request: unknown
  /** One line saying what was sent, for the CRM activity (never holds secrets). */
  summary: string
}

export interface ChannelKind<C extends ChannelConfig = ChannelConfig> {
  readonly type: C['type']
  /** Pure: nothing, one request, or one per recipient. */
  build(channel: C, delivery: Delivery): OutgoingRequest[]
  /** One attempt; throws the client's error (which says whether it is recoverable). */
  send(client: MessagingClient, request: unknown, idempotencyKey: string): Promise<void>
}

export type ChannelOf<T extends ChannelConfig['type']> = Extract<ChannelConfig, { type: T }>
