// The kinds route (issue #29), beside routes.ts which hands it here:
//   GET /api/kinds   { kinds, total }   ?sort=count|new (count), limit=1..10000 (1000), source=NAME
// The query is read by paths.ts through kindsQuery (a refusal names the parameter); the answer is
// the kind table's entries through kinds-view.ts. An agent that keeps no kinds answers 404.
import { ConsoleErrorCodes } from './errors'
import { errorReply, type ConsoleReply } from './http'
import type { KindsQuery, KindsReader, KindsSort } from './kinds-types'
import { listKinds } from './kinds-view'

export const DEFAULT_KINDS_LIMIT = 1000
export const MAX_KINDS_LIMIT = 10_000
const MAX_SOURCE = 200
const SORTS: readonly KindsSort[] = ['count', 'new']
const CONTROL = /[\u0000-\u001f\u007f]/

/** The query of a GET /api/kinds target; a string is why it is refused. */
export function kindsQuery(target: string): KindsQuery | string {
  const at = target.indexOf('?')
  const query: KindsQuery = { sort: 'count', limit: DEFAULT_KINDS_LIMIT, source: undefined }
  if (at === -1) return query
  for (const [name, value] of new URLSearchParams(target.slice(at + 1))) {
    if (name === 'sort') {
      if (!(SORTS as readonly string[]).includes(value)) return `sort: must be one of ${SORTS.join(', ')}`
      query.sort = value as KindsSort
    } else if (name === 'limit') {
      const limit = /^\d{1,5}$/.test(value) ? Number(value) : 0
      if (limit < 1 || limit > MAX_KINDS_LIMIT) return `limit: must be a whole number from 1 to ${MAX_KINDS_LIMIT}`
      query.limit = limit
    } else if (name === 'source') {
      if (value === '' || value.length > MAX_SOURCE || CONTROL.test(value))
        return `source: a source name of 1 to ${MAX_SOURCE} characters, no control characters`
      query.source = value
    } else return `${name.slice(0, 50)}: unknown query parameter (known: sort, limit, source)`
  }
  return query
}

export function kindsReply(reader: KindsReader | undefined, query: KindsQuery, now: number): ConsoleReply {
  if (reader === undefined)
    return errorReply(404, ConsoleErrorCodes.NOT_FOUND, 'this agent keeps no error kinds (kinds are off)')
  const { items, total } = listKinds(reader.entries(), query, now)
  return { status: 200, list: { name: 'kinds', items, total } }
}
