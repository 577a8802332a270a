// The console as one request handler for the metrics server: `createConsoleHandler(options)` checks
// the options, then each request goes Host check -> route -> method -> credential -> body -> answer
// (getting in: login-routes.ts; the rest: the backend, routes.ts). Every failure is a JSON error with
// a stable code; an exception in the backend is a 500, never a crash of the server, and no answer
// carries the token.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { MIN_CONSOLE_TOKEN_LENGTH } from '../../config/normalize/console'
import { hostHeaderAllowed, isLoopbackHost } from '../../loopback-host'
import { bearerOf, createTokenCheck, credentialNeeded } from './auth'
import { ConsoleError, ConsoleErrorCodes } from './errors'
import { discardBody, errorReply, readJsonBody, writeReply, type ConsoleReply } from './http'
import { isLoginRoute, loginReply } from './login-routes'
import { createConsoleLogins, type ConsoleLogins } from './logins'
import { createConsolePage } from './page'
import { matchRoute, type Route } from './paths'
import { apiReply, type Via } from './routes'
import type { ConsoleBackend } from './types'

export interface ConsoleOptions {
  backend: ConsoleBackend
  /**
   * What clients present as `authorization: Bearer <token>`: the configured `console.token`, or
   * the random one the agent generated at this start (and wrote to <state_dir>/console.token).
   */
  token: string
  /** true when `token` was generated (no console.token configured): refused unless `host` is loopback. */
  generated: boolean
  /** The host the server listens on (metrics.listen.host): on loopback the Host header is checked. */
  host: string
  /** The one-time login codes and sessions; default: a store of this handler's own. */
  logins?: ConsoleLogins
  /** console.json's key, proved at POST /api/identity; default: none (404 there). */
  identityKey?: string
  /** Clock for silences' `duration` and for logins; default Date.now. */
  now?: () => number
  /** Told about an exception of the backend (answered with a 500); e.g. the agent's log. */
  onError?: (err: unknown) => void
}

export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => void

/** Tokens shorter than this are refused (the config check refuses them first, saying where). */
export const MIN_TOKEN_LENGTH = MIN_CONSOLE_TOKEN_LENGTH

function checkOptions(options: ConsoleOptions): void {
  if (options.token.length < MIN_TOKEN_LENGTH) {
    throw new ConsoleError(
      ConsoleErrorCodes.OPTIONS,
      `console: the token must be at least ${MIN_TOKEN_LENGTH} characters`,
    )
  }
  if (options.generated && !isLoopbackHost(options.host)) {
    throw new ConsoleError(
      ConsoleErrorCodes.OPTIONS,
      `console: listening on ${options.host} (not loopback) needs a configured console.token`,
    )
  }
}

type Matched = { ok: true; route: Route } | { ok: false; reply: ConsoleReply }

/** Host, route and method: what is decided before any credential is looked at. */
function matchRequest(req: IncomingMessage, loopback: boolean): Matched {
  const method = req.method ?? 'GET'
  if (loopback && !hostHeaderAllowed(req.headers.host, req.socket.localPort ?? 0)) {
    const error = 'host: the console answers only to 127.0.0.1, localhost or [::1] with its port'
    return { ok: false, reply: errorReply(403, ConsoleErrorCodes.FORBIDDEN_HOST, error) }
  }
  const match = matchRoute(req.url ?? '/')
  if (method === 'OPTIONS') {
    // No CORS, so no preflight can succeed: the page and its API are one origin.
    const error = 'OPTIONS: the console does not answer cross-origin requests'
    const allow = match.ok ? { allow: match.methods.join(', ') } : undefined
    return { ok: false, reply: errorReply(405, ConsoleErrorCodes.METHOD_NOT_ALLOWED, error, allow) }
  }
  if (!match.ok) return { ok: false, reply: errorReply(match.status, match.code, match.error) }
  const { route, methods } = match
  if (!methods.includes(method)) {
    const error = `${method.slice(0, 20)}: not served here (allowed: ${methods.join(', ')})`
    const allow = { allow: methods.join(', ') }
    return { ok: false, reply: errorReply(405, ConsoleErrorCodes.METHOD_NOT_ALLOWED, error, allow) }
  }
  return { ok: true, route }
}

function unauthorized(error: string): ConsoleReply {
  return errorReply(401, ConsoleErrorCodes.UNAUTHORIZED, error, { 'www-authenticate': 'Bearer realm="logx-console"' })
}

export function createConsoleHandler(options: ConsoleOptions): ConsoleHandler {
  checkOptions(options)
  const { backend, token } = options
  const loopback = isLoopbackHost(options.host)
  const now = options.now ?? Date.now
  const logins = options.logins ?? createConsoleLogins()
  const tokenMatches = createTokenCheck(token)
  const page = createConsolePage()

  /** The refusal of a request without the credential its route needs (auth.ts, rules 3 to 5). */
  function refusal(route: Route, authorization: string | undefined): ConsoleReply | undefined {
    const needed = credentialNeeded(route.kind)
    if (needed === 'none') return undefined
    if (authorization === undefined)
      return unauthorized('authorization: this request needs the header "authorization: Bearer <token>"')
    const isToken = tokenMatches(authorization)
    if (isToken) return undefined
    const session = bearerOf(authorization)
    if (session !== undefined && logins.sessionLive(session, now())) {
      if (needed === 'any') return undefined
      return unauthorized('authorization: login codes are made with the console token, not a session')
    }
    return unauthorized('authorization: wrong token, or a session that ended')
  }

  async function answer(req: IncomingMessage): Promise<ConsoleReply> {
    const matched = matchRequest(req, loopback)
    if (!matched.ok) return matched.reply
    const { route } = matched
    if (route.kind === 'page') {
      const { html, csp } = page.render()
      return { status: 200, html, headers: { 'content-security-policy': csp } }
    }
    const refused = refusal(route, req.headers.authorization)
    if (refused !== undefined) return refused
    const method = req.method ?? 'GET'
    let body: unknown
    if (method === 'POST') {
      const read = await readJsonBody(req)
      if (!read.ok) return read.reply
      body = read.value
    }
    if (isLoginRoute(route))
      return loginReply({ route: route.kind, body, now: now(), logins, identityKey: options.identityKey })
    const via: Via = req.headers['x-logx-client'] === 'cli' ? 'cli' : 'console'
    if (route.kind === 'incidents' || route.kind === 'incident') await backend.refresh?.()
    return apiReply(backend, { route, method, body, via, now: now() })
  }

  return (req, res) => {
    answer(req)
      .catch((err: unknown) => {
        options.onError?.(err)
        return errorReply(500, ConsoleErrorCodes.INTERNAL, 'internal error: the agent could not answer; see its log')
      })
      .then((reply) => {
        discardBody(req)
        if (!res.headersSent) writeReply(req, res, reply, token)
      })
      .catch((err: unknown) => options.onError?.(err))
  }
}
