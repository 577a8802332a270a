// The `/api/v1/` operations: the `apirequest` dispatcher and one handler per operation.
// Every request is checked for `apikey` before anything else is looked at.

import type { ValidationProblem } from '../messaging/errors'
import {
  validateChatGroupBody,
  validateChatGroupQuery,
  validateChatSend,
  validateMailSend,
  validatePagingQuery,
  validateSearchQuery,
  validateSmsSend,
  validateVoiceBroadcast,
  type QueryValues,
} from '../messaging/validate'
import {
  API_PATH,
  CHAT_SEND_PATH,
  OPERATIONS,
  PAGING,
  operationForApiRequest,
  type OperationName,
  type RecordStatus,
  type WireChatGroup,
  type WirePage,
  type WireSendAccepted,
  type WireSocialProfile,
} from '../messaging/wire'
import { secretEquals } from '../secret-equal'
import type { ListingCache } from './listing'
import { apiError, invalid, json, JSON_CONTENT_TYPE, type Reply } from './reply'
import { socialProfiles } from './seed'
import type { StoredKind } from './stored-kinds'
import type { Store } from './types'

export interface ApiRequest {
  method: string
  query: QueryValues
  headers: Readonly<Record<string, string | string[] | undefined>>
  /** Parsed JSON body; `undefined` when absent. */
  body: unknown
  bodyIsJson: boolean
}

/** Which operation a path and query select; `undefined` when the path is not part of the API. */
export function resolveApiOperation(pathname: string, query: QueryValues): OperationName | 'unknown' | undefined {
  if (pathname === CHAT_SEND_PATH) return 'send_chat'
  if (pathname !== API_PATH && pathname !== API_PATH.slice(0, -1)) return undefined
  const apirequest = query['apirequest']
  return apirequest === undefined ? 'unknown' : (operationForApiRequest(apirequest) ?? 'unknown')
}

const SEND_KIND: Partial<
  Record<OperationName, { kind: StoredKind; validate: (b: unknown) => ValidationProblem[]; label: string }>
> = {
  send_sms: { kind: 'sms', validate: validateSmsSend, label: 'SMS' },
  send_mail: { kind: 'mail', validate: validateMailSend, label: 'e-mail' },
  send_chat: { kind: 'chat', validate: validateChatSend, label: 'chat message' },
  voice_broadcast: { kind: 'voice', validate: validateVoiceBroadcast, label: 'voice broadcast' },
}

const LIST_KIND: Partial<Record<OperationName, StoredKind>> = {
  sms_record: 'sms',
  mail_record: 'mail',
  chat_record: 'chat',
  obd_record: 'voice',
  missed_record: 'missed',
  social_record: 'social',
  get_instance_id: 'instance',
}

function pagingOf(query: QueryValues): { page: number; perPage: number; limit: number | undefined } {
  return {
    page: query['page'] === undefined ? 1 : Number(query['page']),
    perPage: query['per_page'] === undefined ? PAGING.defaultPerPage : Number(query['per_page']),
    limit: query['limit'] === undefined ? undefined : Number(query['limit']),
  }
}

function pageReply<T>(data: T[], page: number, perPage: number, total: number): Reply {
  const body: WirePage<T> = { status: 'success', data, page, per_page: perPage, total }
  return json(200, body)
}

export function handleApi(
  operation: OperationName | 'unknown',
  req: ApiRequest,
  store: Store,
  apiKey: string,
  listings: ListingCache,
): Reply {
  if (!secretEquals(req.headers['apikey'], apiKey)) {
    return apiError(401, req.headers['apikey'] === undefined ? 'missing apikey header' : 'invalid apikey')
  }
  if (operation === 'unknown') {
    return apiError(400, 'apirequest: unknown or missing operation', 'apirequest')
  }
  const spec = OPERATIONS[operation]
  if (req.method !== spec.method) return apiError(405, `${operation} expects ${spec.method}`)
  if (!req.bodyIsJson) return apiError(400, '(body): not valid JSON', '(body)')

  const send = SEND_KIND[operation]
  if (send !== undefined) {
    const problems = send.validate(req.body)
    if (problems.length > 0) return invalid(problems)
    const wire = req.body as Record<string, unknown>
    const scheduled = typeof wire['schedule_time'] === 'string' && wire['schedule_time'] !== ''
    // The sandbox delivers instantly: there is no carrier behind it.
    const status: RecordStatus = scheduled ? 'scheduled' : 'delivered'
    // Recorded, not acted on: a resend of one notification shows as two records with one key.
    const key = req.headers['idempotency-key']
    const entry = store.add(send.kind, ({ id, createdAt }) =>
      typeof key === 'string'
        ? { id, created_at: createdAt, status, ...wire, idempotency_key: key }
        : { id, created_at: createdAt, status, ...wire },
    )
    const body: WireSendAccepted = {
      status: 'success',
      message: `${send.label} accepted`,
      data: { id: String(entry.record['id']), status },
    }
    return json(200, body)
  }

  const listKind = LIST_KIND[operation]
  if (listKind !== undefined) {
    const problems = validatePagingQuery(req.query)
    if (problems.length > 0) return invalid(problems)
    const { page, perPage, limit } = pagingOf(req.query)
    // The same `WirePage` as pageReply, served from the listing cache (listing.ts).
    return {
      type: 'text',
      status: 200,
      contentType: JSON_CONTENT_TYPE,
      body: listings.body(listKind, page, perPage, limit),
    }
  }

  if (operation === 'social_search') {
    const problems = validateSearchQuery(req.query)
    if (problems.length > 0) return invalid(problems)
    const { page, perPage, limit } = pagingOf(req.query)
    const keyword = req.query['keyword'] ?? ''
    const all: WireSocialProfile[] = socialProfiles(keyword)
    const total = limit === undefined ? all.length : Math.min(limit, all.length)
    const data = all.slice((page - 1) * perPage, Math.min(page * perPage, total))
    store.add('social', ({ id, createdAt }) => ({ id, created_at: createdAt, keyword, page, results: data.length }))
    return pageReply(data, page, perPage, total)
  }

  if (operation === 'getChatGroup') {
    const problems = [...validateChatGroupQuery(req.query), ...validateChatGroupBody(req.body)]
    if (problems.length > 0) return invalid(problems)
    const instanceId = req.query['instance_id'] ?? ''
    if (!store.all('instance').some((e) => e.record['instance_id'] === instanceId)) {
      return apiError(404, `instance_id: no instance ${instanceId}`, 'instance_id')
    }
    const filter = req.body as { name?: string; keywords?: string } | undefined
    const needle = (filter?.name ?? filter?.keywords ?? '').toLowerCase()
    const groups = store
      .all('chat_group')
      .map((e) => e.record as unknown as WireChatGroup)
      .filter((g) => g.instance_id === instanceId && (needle === '' || g.name.toLowerCase().includes(needle)))
    return json(200, { status: 'success', data: groups })
  }

  return apiError(400, `apirequest: ${operation} is not served here`, 'apirequest')
}
