// The typed client of the `/api/v1/` operations: one method per operation of the spec. The wire
// shapes of a call (URL, headers, what a send answers) are api-requests.ts's; record listings are
// record-listings.ts's.
import { operationUrl, pagingValues, requestHeaders, sendResult } from './api-requests'
import { createConnection, parseUrlOption, type Connection } from './connection'
import { MessagingValidationError, type ValidationProblem } from './errors'
import { urlSecretValues } from '../url-credentials'
import { iteratePages, readPage, type RecordPage } from './paging'
import { createRecordListings, type ListPage } from './record-listings'
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
import type {
  CallOptions,
  CallSpec,
  MessagingClient,
  MessagingClientOptions,
  ProfileSearchQuery,
  SendResult,
} from './types'
import {
  validateChatGroupBody,
  validateChatGroupQuery,
  validateChatSend,
  validateMailSend,
  validateSearchQuery,
  validateSmsSend,
  validateVoiceBroadcast,
} from './validate'
import { PAGING, type OperationName, type WireChatGroup, type WireSocialProfile } from './wire'

function check(operation: OperationName, problems: ValidationProblem[]): void {
  if (problems.length > 0) throw new MessagingValidationError(operation, problems)
}

/** One POST of a send; the URLs never change, so each is built once, not per alert. */
function createSender(conn: Connection, base: URL, apiKey: string) {
  const sendUrls = new Map<OperationName, URL>()
  return async (operation: OperationName, body: unknown, callOptions?: CallOptions): Promise<SendResult> => {
    let url = sendUrls.get(operation)
    if (url === undefined) {
      url = operationUrl(base, operation, {})
      sendUrls.set(operation, url)
    }
    const headers = requestHeaders(apiKey, true, callOptions?.idempotencyKey)
    const call: CallSpec = {
      operation,
      method: 'POST',
      url,
      headers,
      body: JSON.stringify(body),
      secretUrl: false,
      sends: true,
    }
    const result = await conn.call(call, callOptions)
    return sendResult(result.body)
  }
}

function createPageReader(conn: Connection, base: URL, apiKey: string): ListPage {
  return async (operation, query, page, perPage, callOptions) => {
    const url = operationUrl(base, operation, query)
    const headers = requestHeaders(apiKey, false, undefined)
    const result = await conn.call(
      { operation, method: 'GET', url, headers, secretUrl: false, sends: false },
      callOptions,
    )
    return readPage(operation, result.body, page, perPage)
  }
}

export function createMessagingClient(options: MessagingClientOptions): MessagingClient {
  const base = parseUrlOption('baseUrl', options.baseUrl)
  // Credentials a base URL given in code may carry are masked like the key (the config refuses them).
  const conn = createConnection(options, [options.apiKey, ...urlSecretValues(base)], ['apikey'])
  const send = createSender(conn, base, options.apiKey)
  const listPage = createPageReader(conn, base, options.apiKey)

  async function searchProfiles(
    query: ProfileSearchQuery,
    callOptions?: CallOptions,
  ): Promise<RecordPage<WireSocialProfile>> {
    const values = { ...pagingValues(query), keyword: query.keyword }
    check('social_search', validateSearchQuery(values))
    const perPage = query.perPage ?? PAGING.defaultPerPage
    return listPage<WireSocialProfile>('social_search', values, query.page ?? 1, perPage, callOptions)
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
    ...createRecordListings(listPage),
    searchProfiles,
    async *iterateProfileSearch(query, callOptions) {
      check('social_search', validateSearchQuery({ ...pagingValues(query), keyword: query.keyword }))
      yield* iteratePages((page) => searchProfiles({ ...query, page }, callOptions), query.page ?? 1)
    },
    async getChatGroups(query, callOptions) {
      const values = { instance_id: query.instanceId }
      check('getChatGroup', [...validateChatGroupQuery(values), ...validateChatGroupBody(query.body)])
      const withBody = query.body !== undefined
      const call: CallSpec = {
        operation: 'getChatGroup',
        method: 'GET',
        url: operationUrl(base, 'getChatGroup', values),
        headers: requestHeaders(options.apiKey, withBody, undefined),
        ...(withBody ? { body: JSON.stringify(query.body) } : {}),
        secretUrl: false,
        sends: false,
      }
      const result = await conn.call(call, callOptions)
      return readPage<WireChatGroup>('getChatGroup', result.body, 1, Number.MAX_SAFE_INTEGER).records
    },
    close: () => conn.close(),
  }
}
