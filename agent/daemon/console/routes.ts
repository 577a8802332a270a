// The API's answers: a matched route, its checked body and who is asking -> what the backend says,
// as a reply. No sockets here: the handler reads and writes, this decides.
//
//   GET    /api/incidents              { incidents, total }   open ones, lastSeen desc
//          ?state=firing&limit=1000    (optional) only those, at most that many; total counts them all
//   GET    /api/incidents/:id          { incident }    key or unique prefix (409 when ambiguous)
//   POST   /api/incidents/:id/ack      { incident }    also unack, resolve; body { by? }
//   GET    /api/silences               { silences }
//   POST   /api/silences               201 { silence } body { matchers, duration | endsAt, comment?, by? }
//   DELETE /api/silences/:id           { silence }     expired now; a config silence -> 409
//   GET    /api/people                 { people }
//   GET    /api/schedules              { schedules }   who is on call now in each layer, the next handoffs
//   GET    /api/kinds                  { kinds, total }  ?sort=count|new&limit=&source= (kinds-routes.ts)
//   POST   /api/test-pages             202 { testPage }  body { target, timeout? }; GET /api/test-pages/:id

import { checkActionBody, checkSilenceBody } from './bodies'
import { ConsoleErrorCodes } from './errors'
import { errorReply, jsonReply, type ConsoleReply } from './http'
import { kindsReply } from './kinds-routes'
import type { LoginRoute } from './login-routes'
import type { Route } from './paths'
import { startTestPageReply, testPageReply } from './test-page-routes'
import type { ConsoleBackend, IncidentSummary } from './types'

export type Via = 'console' | 'cli'

export interface ApiRequest {
  route: Exclude<Route, { kind: 'page' | LoginRoute }>
  /** One of the route's methods (the handler answered 405 to the others). */
  method: string
  /** The parsed JSON body of a POST; undefined when there was none. */
  body: unknown
  via: Via
  now: number
}

function failed(status: 404 | 409, error: string): ConsoleReply {
  return errorReply(status, status === 404 ? ConsoleErrorCodes.NOT_FOUND : ConsoleErrorCodes.CONFLICT, error)
}

const invalid = (error: string): ConsoleReply => errorReply(400, ConsoleErrorCodes.INVALID_BODY, error)

export function apiReply(backend: ConsoleBackend, request: ApiRequest): ConsoleReply {
  const { route, via } = request
  switch (route.kind) {
    case 'incidents': {
      const { state, limit } = route.list
      const { items, total } = backend.incidents({ state, limit })
      return { status: 200, list: { name: 'incidents', items, total } }
    }
    case 'incident': {
      const found = backend.incident(route.id)
      if (found === 'ambiguous')
        return errorReply(
          409,
          ConsoleErrorCodes.AMBIGUOUS,
          `id: "${route.id}" is the start of several incidents; give more of the key`,
        )
      if (found === undefined) return errorReply(404, ConsoleErrorCodes.NOT_FOUND, `no open incident "${route.id}"`)
      return jsonReply(200, { incident: found })
    }
    case 'action': {
      const body = checkActionBody(request.body)
      if (!body.ok) return invalid(body.error)
      const result = backend.act(route.id, route.action, body.value.by ?? via, via)
      return result.ok ? jsonReply(200, { incident: result.incident }) : failed(result.status, result.error)
    }
    case 'silences':
      return request.method === 'POST' ? addSilence(backend, request) : jsonReply(200, { silences: backend.silences() })
    case 'silence': {
      const result = backend.expireSilence(route.id)
      return result.ok ? jsonReply(200, { silence: result.silence }) : failed(result.status, result.error)
    }
    case 'people':
      return jsonReply(200, { people: backend.people() })
    case 'schedules':
      return jsonReply(200, { schedules: backend.schedules(request.now) })
    case 'kinds':
      return kindsReply(backend.kinds, route.query, request.now)
    case 'test-pages':
      return startTestPageReply(backend.testPages, request.body)
    case 'test-page':
      return testPageReply(backend.testPages, route.id)
  }
}

function addSilence(backend: ConsoleBackend, request: ApiRequest): ConsoleReply {
  const body = checkSilenceBody(request.body, request.now)
  if (!body.ok) return invalid(body.error)
  const result = backend.addSilence({ ...body.value, by: body.value.by ?? request.via })
  return result.ok ? jsonReply(201, { silence: result.silence }) : invalid(result.error)
}
