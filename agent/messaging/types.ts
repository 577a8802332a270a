// The messaging client's types: what the alert path, the acknowledge folder and the daemon name
// (a leaf: nothing of this folder imports back through it, and index.ts only re-exports).
import type { ConnectionOptions } from './connection'
import type { CallOptions } from './http-call'
import type { ParsedBody } from './outcome'
import type { ListQuery, RecordPage } from './paging'
import type {
  ChatGroupQuery,
  SendChatInput,
  SendMailInput,
  SendSmsInput,
  VoiceBroadcastInput,
} from './request-builders'
import type {
  WireChatGroup,
  WireChatRecord,
  WireInstance,
  WireMailRecord,
  WireMissedCallRecord,
  WireObdRecord,
  WireSmsRecord,
  WireSocialProfile,
  WireSocialRecord,
} from './wire'

export interface MessagingClientOptions extends ConnectionOptions {
  /** Base URL of the real API or of the sandbox, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string | URL
  /** Sent as the `apikey` header on every `/api/v1/` call; never reported. */
  apiKey: string
}

/** What an accepted send returns. `id` is absent when the service's body names none. */
export interface SendResult {
  id: string | undefined
  status: string | undefined
  /** The body as received, for callers that know more about the real service than the spec does. */
  body: ParsedBody
}

export interface ProfileSearchQuery {
  keyword: string
  page?: number
  perPage?: number
  limit?: number
}

export interface MessagingClient {
  sendSms(input: SendSmsInput, options?: CallOptions): Promise<SendResult>
  sendMail(input: SendMailInput, options?: CallOptions): Promise<SendResult>
  sendChat(input: SendChatInput, options?: CallOptions): Promise<SendResult>
  voiceBroadcast(input: VoiceBroadcastInput, options?: CallOptions): Promise<SendResult>

  listSmsRecords(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireSmsRecord>>
  iterateSmsRecords(query?: ListQuery, options?: CallOptions): AsyncGenerator<WireSmsRecord, void, undefined>
  listMailRecords(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireMailRecord>>
  iterateMailRecords(query?: ListQuery, options?: CallOptions): AsyncGenerator<WireMailRecord, void, undefined>
  listChatRecords(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireChatRecord>>
  iterateChatRecords(query?: ListQuery, options?: CallOptions): AsyncGenerator<WireChatRecord, void, undefined>
  listObdRecords(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireObdRecord>>
  iterateObdRecords(query?: ListQuery, options?: CallOptions): AsyncGenerator<WireObdRecord, void, undefined>
  listMissedCallRecords(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireMissedCallRecord>>
  iterateMissedCallRecords(
    query?: ListQuery,
    options?: CallOptions,
  ): AsyncGenerator<WireMissedCallRecord, void, undefined>
  listProfileSearchRecords(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireSocialRecord>>
  iterateProfileSearchRecords(
    query?: ListQuery,
    options?: CallOptions,
  ): AsyncGenerator<WireSocialRecord, void, undefined>
  listInstanceIds(query?: ListQuery, options?: CallOptions): Promise<RecordPage<WireInstance>>
  iterateInstanceIds(query?: ListQuery, options?: CallOptions): AsyncGenerator<WireInstance, void, undefined>

  searchProfiles(query: ProfileSearchQuery, options?: CallOptions): Promise<RecordPage<WireSocialProfile>>
  iterateProfileSearch(
    query: ProfileSearchQuery,
    options?: CallOptions,
  ): AsyncGenerator<WireSocialProfile, void, undefined>

  /** Chat groups of an instance; `body` is the optional JSON body one sample of the spec sends. */
  getChatGroups(query: ChatGroupQuery, options?: CallOptions): Promise<WireChatGroup[]>

  /** Waits for exchanges under way, then closes the keep-alive sockets (unless an `agent` was passed in). */
  close(): Promise<void>
}
