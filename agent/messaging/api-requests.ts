// What a call of the `/api/v1/` operations looks like on the wire, and what an accepted send says.
// Pure: the client (client.ts) makes the calls.
// URLs (operationUrl):
// 1. the operation's path is resolved under the base URL's path, so a base like https://host/prefix
//    keeps its prefix; the base's own query is dropped;
// 2. an operation that has an `apirequest` names it in the query, before the call's values;
// 3. a query value that is undefined is left out.
// Headers (requestHeaders):
// 4. every call carries the API key; a call with a body says it is JSON; an idempotency key, when
//    the caller has one, goes as `idempotency-key`.
// An accepted send's answer (sendResult):
// 5. the id is the first of data.id, id, request_id, message_id that is a string or a number (as text);
//    `data` is the body's `data` when that is an object, else the body itself;
// 6. the status is data.status, else the body's status, when it is a string;
// 7. a body that is not a JSON object names neither.
// Paging (pagingValues):
// 8. per_page, limit and page go as text, and only those the query sets.
import type { ParsedBody } from './outcome'
import type { ListQuery } from './paging'
import type { SendResult } from './types'
import { OPERATIONS, type OperationName } from './wire'

export function operationUrl(base: URL, operation: OperationName, query: Record<string, string | undefined>): URL {
  const spec = OPERATIONS[operation]
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`
  const url = new URL(base.toString())
  url.pathname = `${basePath}${(spec.path ?? '/').replace(/^\//, '')}`
  url.search = ''
  if (spec.apirequest !== undefined) url.searchParams.set('apirequest', spec.apirequest)
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v)
  return url
}

export function requestHeaders(
  apiKey: string,
  withBody: boolean,
  idempotencyKey: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { apikey: apiKey }
  if (withBody) headers['content-type'] = 'application/json'
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
  return headers
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

export function sendResult(body: ParsedBody): SendResult {
  if (body.type !== 'json' || !isObject(body.value)) return { id: undefined, status: undefined, body }
  const obj = body.value
  const data = isObject(obj['data']) ? obj['data'] : obj
  const rawId = data['id'] ?? obj['id'] ?? obj['request_id'] ?? obj['message_id']
  const rawStatus = data['status'] ?? obj['status']
  return {
    id: typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined,
    status: typeof rawStatus === 'string' ? rawStatus : undefined,
    body,
  }
}

export function pagingValues(query: ListQuery): Record<string, string | undefined> {
  return {
    per_page: query.perPage === undefined ? undefined : String(query.perPage),
    limit: query.limit === undefined ? undefined : String(query.limit),
    page: query.page === undefined ? undefined : String(query.page),
  }
}
