// The messaging client's types: what the alert path, the acknowledge folder and the daemon name
// and the files of this folder share: one call, its options and result, the debug events, the
// connection's options (a leaf: it imports no file that imports it, and index.ts only re-exports).
import type { ParsedBody } from './outcome'
import type { ListQuery, RecordPage } from './paging'
import type {
  ChatGroupQuery,
  SendChatInput,
  SendMailInput,
  SendSmsInput,
  VoiceBroadcastInput,
} from './request-builders'
import type { HttpAgent } from './transport'
import type {
  HttpMethod,
  OperationName,
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

export interface CallSpec {
  operation: OperationName
  method: HttpMethod
  url: URL
  /** May hold secrets (apikey, X-O-TOKEN): they are sent but never reported. */
  headers: Record<string, string>
  body?: string
  /** The URL itself is a credential (per-account webhook): report only its origin. */
  secretUrl: boolean
  /** The operation changes state remotely: a failure after the request left is `ambiguous`. */
  sends: boolean
}

export interface CallOptions {
  /** Cancels the call (its one HTTP attempt). */
  signal?: AbortSignal
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number
  /**
   * Sent as the `Idempotency-Key` header of a send (the caller repeats it on every retry), so the far end can
   * tell a resend of one notification from a new one. The spec does not name the header: an API
   * that ignores it loses nothing; the sandbox records it.
   */
  idempotencyKey?: string
}

export interface CallResult {
  status: number
  body: ParsedBody
}

/** What the optional debug hook sees. Secret headers are masked and secret URLs reduced to their origin. */
export type DebugEvent =
  | {
      type: 'request'
      operation: OperationName
      method: HttpMethod
      url: string
      headers: Record<string, string>
    }
  | { type: 'response'; operation: OperationName; status: number; durationMs: number; body: string }
  | {
      type: 'failure'
      operation: OperationName
      code: string
      message: string
      recoverable: boolean
      retryAfterMs: number | undefined
    }

export interface ConnectionOptions {
  /** Per-call timeout (a call is one HTTP attempt); default 10 s. */
  timeoutMs?: number
  /** How long an idle keep-alive socket is kept; default 30 s. */
  keepAliveTimeoutMs?: number
  /** Sockets per origin; default 16. */
  connections?: number
  /**
   * Bring your own `http.Agent` (http: URLs) or `https.Agent` (https: URLs; custom `ca`, proxies
   * through `createConnection`...). `close()` then leaves it open; the options above that shape
   * the client's own agents (`keepAliveTimeoutMs`, `connections`) do not apply to it.
   */
  agent?: HttpAgent
  /** Sees every request, response and failure, with secrets masked. */
  onDebug?: (event: DebugEvent) => void
}
