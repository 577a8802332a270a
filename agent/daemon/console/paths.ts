// Request target -> route, pure. The raw target is read as sent (not through `new URL`, which would
// fold `/api/x/../y` into `/api/y`): each segment is percent-decoded on its own, and a segment that
// decodes to a control character, a slash, `.` or `..`, or an id outside its length bounds, is a 400
// naming what is wrong. Nothing here throws.

import { ConsoleErrorCodes, type ConsoleErrorCode } from './errors'
import { kindsQuery } from './kinds-routes'
import type { KindsQuery } from './kinds-types'

export type IncidentAction = 'ack' | 'unack' | 'resolve'

export type Route =
  | { kind: 'page' }
  | { kind: 'incidents'; list: ListQuery }
  | { kind: 'incident'; id: string }
  | { kind: 'action'; id: string; action: IncidentAction }
  | { kind: 'silences' }
  | { kind: 'silence'; id: string }
  | { kind: 'people' }
  | { kind: 'schedules' }
  /** The error kinds the agent keeps (issue #29; kinds-routes.ts). */
  | { kind: 'kinds'; query: KindsQuery }
  /** POST: a test page (issue #33); GET :id its progress (agent/daemon/console/test-page-routes.ts). */
  | { kind: 'test-pages' }
  | { kind: 'test-page'; id: string }
  /** A one-time login code -> a session secret (no token: the code is the credential). */
  | { kind: 'login' }
  /** A fresh one-time login code (the token only: `logx-agent console`). */
  | { kind: 'login-code' }
  /** The agent proves it holds console.json's key (no token: the CLI asks before it sends one). */
  | { kind: 'identity' }

/**
 * GET /api/incidents?state=firing&limit=1000 (both optional, an addition to the contract): the page
 * asks for no more rows than it shows, so 10,000 open incidents are not 3 MB every poll.
 */
export interface ListQuery {
  state: 'pending' | 'firing' | 'acknowledged' | undefined
  limit: number | undefined
}

export const MAX_LIST_LIMIT = 100_000
const LIST_STATES: readonly string[] = ['pending', 'firing', 'acknowledged']

export type RouteMatch =
  | { ok: true; route: Route; methods: readonly string[] }
  | { ok: false; status: 400 | 404; code: ConsoleErrorCode; error: string }

/** Incident ids: the key or a unique prefix of it (contract: at least 4 characters). */
export const MIN_ID_PREFIX = 4
export const MAX_ID_LENGTH = 200
const MAX_TARGET_LENGTH = 2048

const READ = ['GET', 'HEAD'] as const
const ACTIONS: ReadonlySet<string> = new Set<IncidentAction>(['ack', 'unack', 'resolve'])
/** Routes of one segment served to POST only. */
const POST_ONLY: ReadonlyMap<string, 'login' | 'login-code' | 'identity'> = new Map([
  ['login', 'login'],
  ['login-codes', 'login-code'],
  ['identity', 'identity'],
] as const)
const UNSAFE = /[\u0000-\u001f\u007f/\\]/

// The path is not echoed: whatever a client put in it (a token pasted in the wrong place) stays out of answers.
const notFound = (): RouteMatch => ({
  ok: false,
  status: 404,
  code: ConsoleErrorCodes.NOT_FOUND,
  error:
    'no such route (the console is at / and its API at /api/incidents, /api/silences, /api/people, /api/schedules)',
})
const badPath = (error: string): RouteMatch => ({ ok: false, status: 400, code: ConsoleErrorCodes.BAD_PATH, error })

function listQuery(target: string): ListQuery | string {
  const at = target.indexOf('?')
  const query: ListQuery = { state: undefined, limit: undefined }
  if (at === -1) return query
  for (const [name, value] of new URLSearchParams(target.slice(at + 1))) {
    if (name === 'state') {
      if (!LIST_STATES.includes(value)) return `state: must be one of ${LIST_STATES.join(', ')}`
      query.state = value as ListQuery['state']
    } else if (name === 'limit') {
      const limit = /^\d{1,6}$/.test(value) ? Number(value) : 0
      if (limit < 1 || limit > MAX_LIST_LIMIT) return `limit: must be a whole number from 1 to ${MAX_LIST_LIMIT}`
      query.limit = limit
    } else return `${name.slice(0, 50)}: unknown query parameter (known: state, limit)`
  }
  return query
}

/** The pathname of a request target, without its query. */
export function pathOf(target: string): string {
  const query = target.indexOf('?')
  return query === -1 ? target : target.slice(0, query)
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/** An id segment, checked; a string is the reason it is refused. */
function checkId(id: string, min: number): { id: string } | string {
  if (id.length > MAX_ID_LENGTH) return `id: longer than ${MAX_ID_LENGTH} characters`
  if (id.length < min) return `id: give at least ${min} characters of the incident key`
  return { id }
}

export function matchRoute(target: string): RouteMatch {
  if (target.length > MAX_TARGET_LENGTH) return badPath(`path: longer than ${MAX_TARGET_LENGTH} characters`)
  if (!target.startsWith('/')) return badPath('path: must start with /')
  const path = pathOf(target)
  if (path === '/' || path === '/console') return { ok: true, route: { kind: 'page' }, methods: READ }
  const segments: string[] = []
  for (const raw of path.slice(1).split('/')) {
    const segment = decodeSegment(raw)
    if (segment === undefined) return badPath('path: malformed percent-encoding')
    if (UNSAFE.test(segment) || segment === '.' || segment === '..')
      return badPath('path: a segment holds a control character, a slash, "." or ".."')
    segments.push(segment)
  }
  if (segments[0] !== 'api') return notFound()
  const [, collection, id, action, ...rest] = segments
  if (rest.length > 0 || id === '' || action === '') return notFound()
  if (collection === 'people' && id === undefined) return { ok: true, route: { kind: 'people' }, methods: READ }
  if (collection === 'schedules' && id === undefined) return { ok: true, route: { kind: 'schedules' }, methods: READ }
  if (collection === 'kinds' && id === undefined) {
    const query = kindsQuery(target)
    return typeof query === 'string' ? badPath(query) : { ok: true, route: { kind: 'kinds', query }, methods: READ }
  }
  const posted = id === undefined ? POST_ONLY.get(collection ?? '') : undefined
  if (posted !== undefined) return { ok: true, route: { kind: posted }, methods: ['POST'] }
  if (collection === 'incidents') {
    if (id === undefined) {
      const list = listQuery(target)
      return typeof list === 'string' ? badPath(list) : { ok: true, route: { kind: 'incidents', list }, methods: READ }
    }
    const checked = checkId(id, MIN_ID_PREFIX)
    if (typeof checked === 'string') return badPath(checked)
    if (action === undefined) return { ok: true, route: { kind: 'incident', id: checked.id }, methods: READ }
    if (ACTIONS.has(action))
      return {
        ok: true,
        route: { kind: 'action', id: checked.id, action: action as IncidentAction },
        methods: ['POST'],
      }
    return notFound()
  }
  if (collection === 'test-pages' && action === undefined) {
    if (id === undefined) return { ok: true, route: { kind: 'test-pages' }, methods: ['POST'] }
    const checked = checkId(id, 1)
    if (typeof checked === 'string') return badPath(checked)
    return { ok: true, route: { kind: 'test-page', id: checked.id }, methods: READ }
  }
  if (collection === 'silences' && action === undefined) {
    if (id === undefined) return { ok: true, route: { kind: 'silences' }, methods: [...READ, 'POST'] }
    const checked = checkId(id, 1)
    if (typeof checked === 'string') return badPath(checked)
    return { ok: true, route: { kind: 'silence', id: checked.id }, methods: ['DELETE'] }
  }
  return notFound()
}
