// Public surface of the messaging client: re-exports only (the types live in types.ts).

export { createMessagingClient } from './client'
export type {
  CallOptions,
  ConnectionOptions,
  DebugEvent,
  MessagingClient,
  MessagingClientOptions,
  ProfileSearchQuery,
  SendResult,
} from './types'
export { createLeadWebhookClient } from './webhook-client'
export type { LeadCreated, LeadWebhookClient, LeadWebhookClientOptions } from './webhook-client'
export { parseRetryAfter } from './retry-after'
export { detectOutcome, parseBody } from './outcome'
export type { Outcome, ParsedBody } from './outcome'
export type { ListQuery, RecordPage } from './paging'
export * from './errors'
export * from './request-builders'
export * from './wire'
