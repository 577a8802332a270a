// The messaging client of a target, built from its normalized options.
import { createMessagingClient, type MessagingClient } from '../../messaging'
import type { ApiOptions, CommonOptions } from './common-options'

export function createApiClient(api: ApiOptions, common: CommonOptions): MessagingClient {
  return createMessagingClient({
    baseUrl: api.messagingUrl,
    apiKey: api.apiKey,
    ...(common.timeoutMs !== undefined ? { timeoutMs: common.timeoutMs } : {}),
    ...(common.retry !== undefined ? { retry: common.retry } : {}),
  })
}
