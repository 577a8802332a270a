// The messaging client of a target, built from its normalized options.
import { createMessagingClient, type MessagingClient } from '../../messaging'
import type { ApiOptions, CommonOptions } from './common-options'

/** The I/O half of a channel: sends one built request. */
export interface ChannelSender {
  /** `idempotencyKey` is the outbox item's id: every resend of one notification carries the same. */
  send(request: unknown, idempotencyKey: string): Promise<void>
  close(): Promise<void>
}

export function createApiClient(api: ApiOptions, common: CommonOptions): MessagingClient {
  return createMessagingClient({
    baseUrl: api.messagingUrl,
    apiKey: api.apiKey,
    ...(common.timeoutMs !== undefined ? { timeoutMs: common.timeoutMs } : {}),
    ...(common.retry !== undefined ? { retry: common.retry } : {}),
  })
}
