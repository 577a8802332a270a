// One request to an intake listener, in the order that costs a refused sender least and the agent
// nothing it need not spend:
//
// 1. Only POST (405 with Allow); the path picks the source (404 naming none of the others).
// 2. On a loopback listener, a Host header that does not name loopback is 403 (a web page whose name
//    was re-pointed at 127.0.0.1: agent/loopback-host.ts).
// 3. The rate limit per client (429, Retry-After), then the source's token (401, WWW-Authenticate): a
//    client guessing tokens is limited too.
// 4. The Content-Type (415 naming the ones taken), then the body within max_body (413).
// 5. The outbox past its bound: 503 with Retry-After, before the body is decoded.
// 6. The whole body decoded (400 naming the field), then accepted: the 2xx only once journaled.
// A refusal is counted by status; no log line or metric carries the token or the body.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { hostHeaderAllowed } from '../loopback-host'
import { IntakeBusyError, IntakeError } from './errors'
import type { CountingIntake } from './intake-counters'
import type { RateLimiter } from './rate-limit'
import { readBody } from './read-body'
import { requestAccess } from './request-access'
import type { IntakeSourceConfig } from '../config/types'
import type { HttpIntakeHandler, IntakeLog, IntakeReply, IntakeRequest, IntakeSink } from './types'

/** A source as its listener routes to it. */
export interface IntakeRoute {
  config: IntakeSourceConfig
  handler: HttpIntakeHandler
  limiter: RateLimiter
  counters: CountingIntake
}

export interface RequestContext {
  routeOf(path: string): IntakeRoute | undefined
  /** The listener is on loopback: rule 2 applies. */
  loopback: boolean
  port: () => number
  sink: IntakeSink
  log: IntakeLog
  now: () => number
}

function send(response: ServerResponse, status: number, reply: IntakeReply, headers: Record<string, string> = {}) {
  if (response.headersSent || response.destroyed) return
  // A body not read (refused before it, or too large) is not waited for: the connection ends.
  if (!response.req.complete) response.setHeader('connection', 'close')
  response.writeHead(status, { 'content-type': reply.contentType, 'cache-control': 'no-store', ...headers })
  response.end(reply.body)
}

const jsonReply = (value: unknown): IntakeReply => ({ contentType: 'application/json', body: JSON.stringify(value) })

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? ''
}

function requestOf(request: IncomingMessage, path: string): IntakeRequest {
  const { authorization: _hidden, ...headers } = request.headers
  return {
    path,
    contentType: mediaTypeOf(request.headers['content-type']),
    headers,
    remoteAddress: request.socket.remoteAddress ?? '',
  }
}

/** A refusal through the handler's own body when it has one, counted. */
function refuse(
  route: IntakeRoute,
  intake: IntakeRequest,
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  route.counters.refused(status)
  const reply = route.handler.refusal?.(status, message, intake) ?? jsonReply({ error: message })
  send(response, status, reply, headers)
}

/** Rules 1 and 2; the route, or undefined when the request was answered. */
function routeOf(context: RequestContext, request: IncomingMessage, response: ServerResponse, path: string) {
  const route = context.routeOf(path)
  if (route === undefined) {
    send(response, 404, jsonReply({ error: `nothing takes ${request.method ?? ''} ${path} here` }))
    return undefined
  }
  if (request.method !== 'POST') {
    route.counters.refused(405)
    send(response, 405, jsonReply({ error: 'only POST is taken' }), { allow: 'POST' })
    return undefined
  }
  if (context.loopback && route.config.intake.token === undefined) {
    if (!hostHeaderAllowed(request.headers.host, context.port())) {
      route.counters.refused(403)
      send(response, 403, jsonReply({ error: 'the Host header must name this loopback address' }))
      return undefined
    }
  }
  return route
}

/** Rules 3 to 6 for a request on `route`. */
async function take(context: RequestContext, route: IntakeRoute, request: IncomingMessage, response: ServerResponse) {
  const path = new URL(request.url ?? '/', 'http://intake').pathname
  const intake = requestOf(request, path)
  intake.lowestLevel = context.sink.lowestLevel(route.config.name)
  route.counters.request()
  // The rate limit first: a client guessing tokens is slowed down as much as one sending events.
  const rate = route.limiter.take(intake.remoteAddress, context.now())
  if (!rate.allowed)
    return refuse(route, intake, response, 429, 'too many requests from this address', {
      'retry-after': String(rate.retryAfterSeconds),
    })
  const access = requestAccess(route.config.intake.token, request.headers)
  if (!access.allowed) return refuse(route, intake, response, 401, access.message, { 'www-authenticate': 'Bearer' })
  if (!route.handler.contentTypes.includes(intake.contentType))
    return refuse(route, intake, response, 415, `expected content-type ${route.handler.contentTypes.join(', ')}`)
  const body = await readBody(request, route.config.intake.maxBodyBytes)
  if (context.sink.busy()) throw new IntakeBusyError(5)
  const events = await route.handler.decode(body, intake)
  if (intake.passed !== undefined) context.sink.countPassed(route.config.name, intake.passed)
  await context.sink.accept(events)
  const accepted = events.length + (intake.passed ?? 0)
  route.counters.accepted(accepted)
  send(response, 200, route.handler.reply?.(accepted, intake) ?? jsonReply({ accepted }))
}

export async function handleIntakeRequest(
  context: RequestContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://intake').pathname
  const route = routeOf(context, request, response, path)
  if (route === undefined) return
  try {
    await take(context, route, request, response)
  } catch (err) {
    const intake = requestOf(request, path)
    if (err instanceof IntakeBusyError) {
      refuse(route, intake, response, 503, err.message, { 'retry-after': String(err.retryAfterSeconds) })
    } else if (err instanceof IntakeError) {
      refuse(route, intake, response, err.status, err.message)
    } else {
      context.log.error({ err, source: route.config.name }, 'intake: could not take a request')
      refuse(route, intake, response, 500, 'the events could not be taken: send them again')
    }
  }
}
