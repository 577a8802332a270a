// Listing responses become RecordPage values, and RecordPage fetchers become async iterators.
// The spec shows `per_page` and `limit` but no page envelope; see wire.ts for the assumed one.

import { MessagingErrorCodes, MessagingMalformedResponseError } from './errors'
import type { ParsedBody } from './outcome'
import type { OperationName } from './wire'

export interface RecordPage<T> {
  records: T[]
  /** 1-based page that was served. */
  page: number
  perPage: number
  /** Records in the whole listing, when the service says so. */
  total: number | undefined
  /** Whether a next page may hold more records. */
  hasMore: boolean
}

export interface ListQuery {
  /** Records per page (`per_page`). */
  perPage?: number
  /** Passed through as `limit`; its meaning is not documented by the service. */
  limit?: number
  /** 1-based page (`page`). */
  page?: number
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v)
  return undefined
}

/**
 * Reads a page tolerantly: the assumed `{ data: [...], page, per_page, total }`, or a bare array, or
 * `records`/`result` instead of `data`. Anything else is a malformed response.
 */
export function readPage<T>(
  operation: OperationName,
  body: ParsedBody,
  requestedPage: number,
  requestedPerPage: number,
): RecordPage<T> {
  let records: unknown
  let meta: Record<string, unknown> = {}
  if (body.type === 'json' && Array.isArray(body.value)) records = body.value
  else if (body.type === 'json' && typeof body.value === 'object' && body.value !== null) {
    meta = body.value as Record<string, unknown>
    records = meta['data'] ?? meta['records'] ?? meta['result']
  }
  if (!Array.isArray(records)) {
    const raw = body.type === 'empty' ? '' : typeof body.value === 'string' ? body.value : JSON.stringify(body.value)
    throw new MessagingMalformedResponseError(
      MessagingErrorCodes.MALFORMED_RESPONSE,
      `${operation}: expected a list of records in the response`,
      { operation, rawBody: raw.slice(0, 4096), recoverable: true, attempts: 1 },
    )
  }
  const page = asNumber(meta['page']) ?? requestedPage
  const perPage = asNumber(meta['per_page']) ?? requestedPerPage
  const total = asNumber(meta['total'])
  const hasMore = records.length > 0 && (total !== undefined ? page * perPage < total : records.length >= perPage)
  return { records: records as T[], page, perPage, total, hasMore }
}

/** Pages from `start` until a page says there is no more. `maxPages` guards against a service that never stops. */
export async function* iteratePages<T>(
  fetchPage: (page: number) => Promise<RecordPage<T>>,
  start = 1,
  maxPages = 100_000,
): AsyncGenerator<T, void, undefined> {
  for (let page = start, fetched = 0; fetched < maxPages; page++, fetched++) {
    const result = await fetchPage(page)
    yield* result.records
    if (!result.hasMore) return
  }
}
