// The typed client of the `/api/v1/` operations: one method per operation of the spec.

import { createConnection, parseUrlOption, type ConnectionOptions } from './connection'
import { MessagingValidationError, type ValidationProblem } from './errors'
import type { CallOptions } from './http-call'
import type { ParsedBody } from './outcome'
import { iteratePages, readPage, type ListQuery, type RecordPage } from './paging'
import {
  buildChatSend,
  buildMailSend,
  buildSmsSend,
  buildVoiceBroadcast,
  type ChatGroupQuery,
  type SendChatInput,
  type SendMailInput,
  type SendSmsInput,
  type VoiceBroadcastInput,
} from './request-builders'
import {
  validateChatGroupBody,
  validateChatGroupQuery,
  validateChatSend,
  validateMailSend,
  validatePagingQuery,
  validateSearchQuery,
  validateSmsSend,
  validateVoiceBroadcast,
} from './validate'
import {
  OPERATIONS,
  PAGING,
  type OperationName,
  type WireChatGroup,
  type WireChatRecord,
  type WireInstance,
  type WireMailRecord,
  type WireMissedCallRecord,
  type WireObdRecord,
  type WireSmsRecord,
  type WireSocialProfile,
  type WireSocialRecord,
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

function check(operation: OperationName, problems: ValidationProblem[]): void {
  if (problems.length > 0) throw new MessagingValidationError(operation, problems)
}

function sendResult(body: ParsedBody): SendResult {
  let id: string | undefined
  let status: string | undefined
  if (body.type === 'json' && typeof body.value === 'object' && body.value !== null) {
    const obj = body.value as Record<string, unknown>
    const data =
      typeof obj['data'] === 'object' && obj['data'] !== null ? (obj['data'] as Record<string, unknown>) : obj
    const rawId = data['id'] ?? obj['id'] ?? obj['request_id'] ?? obj['message_id']
    if (typeof rawId === 'string' || typeof rawId === 'number') id = String(rawId)
    const rawStatus = data['status'] ?? obj['status']
    if (typeof rawStatus === 'string') status = rawStatus
  }
  return { id, status, body }
}

function pagingValues(query: ListQuery): Record<string, string | undefined> {
  return {
    per_page: query.perPage === undefined ? undefined : String(query.perPage),
    limit: query.limit === undefined ? undefined : String(query.limit),
    page: query.page === undefined ? undefined : String(query.page),
  }
}

export function createMessagingClient(options: MessagingClientOptions): MessagingClient {
  const base = parseUrlOption('baseUrl', options.baseUrl)
  const conn = createConnection(options, [options.apiKey], ['apikey'])

  function urlFor(operation: OperationName, query: Record<string, string | undefined>): URL {
    const spec = OPERATIONS[operation]
    // Resolve against the base path so a base like https://host/prefix keeps its prefix.
    const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`
    const url = new URL(base.toString())
    url.pathname = `${basePath}${(spec.path ?? '/').replace(/^\//, '')}`
    url.search = ''
    if (spec.apirequest !== undefined) url.searchParams.set('apirequest', spec.apirequest)
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v)
    return url
  }

  // Send URLs never change: build them once, not per alert.
  const sendUrls = new Map<OperationName, URL>()

  async function send(
    operation: OperationName,
    body: unknown,
    callOptions: CallOptions | undefined,
  ): Promise<SendResult> {
    let url = sendUrls.get(operation)
    if (url === undefined) {
      url = urlFor(operation, {})
      sendUrls.set(operation, url)
    }
    const result = await conn.call(
      {
        operation,
        method: 'POST',
        url,
        headers:
          callOptions?.idempotencyKey === undefined
            ? { apikey: options.apiKey, 'content-type': 'application/json' }
            : {
                apikey: options.apiKey,
                'content-type': 'application/json',
                'idempotency-key': callOptions.idempotencyKey,
              },
        body: JSON.stringify(body),
        secretUrl: false,
        sends: true,
      },
      callOptions,
    )
    return sendResult(result.body)
  }

  async function listPage<T>(
    operation: OperationName,
    query: Record<string, string | undefined>,
    page: number,
    perPage: number,
    callOptions: CallOptions | undefined,
  ): Promise<RecordPage<T>> {
    const result = await conn.call(
      {
        operation,
        method: 'GET',
        url: urlFor(operation, query),
        headers: { apikey: options.apiKey },
        secretUrl: false,
        sends: false,
      },
      callOptions,
    )
    return readPage<T>(operation, result.body, page, perPage)
  }

  function listing<T>(operation: OperationName) {
    const one = async (query: ListQuery = {}, callOptions?: CallOptions): Promise<RecordPage<T>> => {
      const values = pagingValues(query)
      check(operation, validatePagingQuery(values))
      return listPage<T>(operation, values, query.page ?? 1, query.perPage ?? PAGING.defaultPerPage, callOptions)
    }
    // Validation errors surface from the first next(), like every other failure of an iterator. A
    // page that fails ends the iteration with its error (one attempt, like any call): the caller
    // may start again from `page`.
    async function* all(query: ListQuery = {}, callOptions?: CallOptions): AsyncGenerator<T, void, undefined> {
      check(operation, validatePagingQuery(pagingValues(query)))
      yield* iteratePages((page) => one({ ...query, page }, callOptions), query.page ?? 1)
    }
    return [one, all] as const
  }

  const [listSmsRecords, iterateSmsRecords] = listing<WireSmsRecord>('sms_record')
  const [listMailRecords, iterateMailRecords] = listing<WireMailRecord>('mail_record')
  const [listChatRecords, iterateChatRecords] = listing<WireChatRecord>('chat_record')
  const [listObdRecords, iterateObdRecords] = listing<WireObdRecord>('obd_record')
  const [listMissedCallRecords, iterateMissedCallRecords] = listing<WireMissedCallRecord>('missed_record')
  const [listProfileSearchRecords, iterateProfileSearchRecords] = listing<WireSocialRecord>('social_record')
  const [listInstanceIds, iterateInstanceIds] = listing<WireInstance>('get_instance_id')

  async function searchProfiles(
    query: ProfileSearchQuery,
    callOptions?: CallOptions,
  ): Promise<RecordPage<WireSocialProfile>> {
    const values = { ...pagingValues(query), keyword: query.keyword }
    check('social_search', validateSearchQuery(values))
    return listPage('social_search', values, query.page ?? 1, query.perPage ?? PAGING.defaultPerPage, callOptions)
  }

  return {
    async sendSms(input, callOptions) {
      const body = buildSmsSend(input)
      check('send_sms', validateSmsSend(body))
      return send('send_sms', body, callOptions)
    },
    async sendMail(input, callOptions) {
      const body = buildMailSend(input)
      check('send_mail', validateMailSend(body))
      return send('send_mail', body, callOptions)
    },
    async sendChat(input, callOptions) {
      const body = buildChatSend(input)
      check('send_chat', validateChatSend(body))
      return send('send_chat', body, callOptions)
    },
    async voiceBroadcast(input, callOptions) {
      const body = buildVoiceBroadcast(input)
      check('voice_broadcast', validateVoiceBroadcast(body))
      return send('voice_broadcast', body, callOptions)
    },
    listSmsRecords,
    iterateSmsRecords,
    listMailRecords,
    iterateMailRecords,
    listChatRecords,
    iterateChatRecords,
    listObdRecords,
    iterateObdRecords,
    listMissedCallRecords,
    iterateMissedCallRecords,
    listProfileSearchRecords,
    iterateProfileSearchRecords,
    listInstanceIds,
    iterateInstanceIds,
    searchProfiles,
    async *iterateProfileSearch(query, callOptions) {
      check('social_search', validateSearchQuery({ ...pagingValues(query), keyword: query.keyword }))
      yield* iteratePages((page) => searchProfiles({ ...query, page }, callOptions), query.page ?? 1)
    },
    async getChatGroups(query, callOptions) {
      const values = { instance_id: query.instanceId }
      check('getChatGroup', [...validateChatGroupQuery(values), ...validateChatGroupBody(query.body)])
      const withBody = query.body !== undefined
      const result = await conn.call(
        {
          operation: 'getChatGroup',
          method: 'GET',
          url: urlFor('getChatGroup', values),
          headers: withBody
            ? { apikey: options.apiKey, 'content-type': 'application/json' }
            : { apikey: options.apiKey },
          ...(withBody ? { body: JSON.stringify(query.body) } : {}),
          secretUrl: false,
          sends: false,
        },
        callOptions,
      )
      return readPage<WireChatGroup>('getChatGroup', result.body, 1, Number.MAX_SAFE_INTEGER).records
    },
    close: () => conn.close(),
  }
}
