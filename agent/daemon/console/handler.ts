// The console as one request handler for the metrics server: `createConsoleHandler(options)` checks
// the options, then each request goes Host check -> route -> method -> token -> body -> backend.
// Every failure is a JSON error with a stable code; an exception in the backend is a 500, never a
// crash of the server, and no answer carries the token (except the page a generated one is injected
// into, on loopback).

import type { IncomingMessage, ServerResponse } from 'node:http'
import { hostHeaderAllowed, isLoopbackHost } from '../../loopback-host'
import { createTokenCheck, needsToken } from './auth'
import { ConsoleError, ConsoleErrorCodes } from './errors'
import { discardBody, errorReply, readJsonBody, writeReply, type ConsoleReply } from './http'
import { createConsolePage } from './page'
import { matchRoute } from './paths'
import { apiReply, type Via } from './routes'
import type { ConsoleBackend } from './types'

export interface ConsoleOptions {
  backend: ConsoleBackend
  /**
   * What clients present as `authorization: Bearer <token>`: the configured `console.token`, or
   * the random one the agent generated at this start (and wrote to <state_dir>/console.token).
   */
  token: string
  /**
   * true when `token` was generated (no console.token configured): reading the API needs no token,
   * changing it does, and the page carries the token. Refused unless `host` is loopback.
   */
  generated: boolean
  /** The host the server listens on (metrics.listen.host): on loopback the Host header is checked. */
  host: string
  /** Clock for silences' `duration`; default Date.now. */
  now?: () => number
  /** Told about an exception of the backend (answered with a 500); e.g. the agent's log. */
  onError?: (err: unknown) => void
}

export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => void

/** Tokens shorter than this are refused: a guessable token is no protection. */
export const MIN_TOKEN_LENGTH = 8

export function createConsoleHandler(options: ConsoleOptions): ConsoleHandler {
  const { backend, token, generated } = options
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ConsoleError(
      ConsoleErrorCodes.OPTIONS,
      `console: the token must be at least ${MIN_TOKEN_LENGTH} characters`,
    )
  }
  const loopback = isLoopbackHost(options.host)
  if (generated && !loopback) {
    throw new ConsoleError(
      ConsoleErrorCodes.OPTIONS,
      `console: listening on ${options.host} (not loopback) needs a configured console.token`,
    )
  }
  const now = options.now ?? Date.now
  const tokenMatches = createTokenCheck(token)
  const page = createConsolePage(generated ? token : undefined)

  async function answer(req: IncomingMessage): Promise<ConsoleReply> {
    const method = req.method ?? 'GET'
    if (loopback && !hostHeaderAllowed(req.headers.host, req.socket.localPort ?? 0)) {
      return errorReply(
        403,
        ConsoleErrorCodes.FORBIDDEN_HOST,
        'host: the console answers only to 127.0.0.1, localhost or [::1] with its port',
      )
    }
    const match = matchRoute(req.url ?? '/')
    if (method === 'OPTIONS') {
      // No CORS, so no preflight can succeed: the page and its API are one origin.
      return errorReply(
        405,
        ConsoleErrorCodes.METHOD_NOT_ALLOWED,
        'OPTIONS: the console does not answer cross-origin requests',
        match.ok ? { allow: match.methods.join(', ') } : undefined,
      )
    }
    if (!match.ok) return errorReply(match.status, match.code, match.error)
    const { route, methods } = match
    if (!methods.includes(method)) {
      return errorReply(
        405,
        ConsoleErrorCodes.METHOD_NOT_ALLOWED,
        `${method.slice(0, 20)}: not served here (allowed: ${methods.join(', ')})`,
        { allow: methods.join(', ') },
      )
    }
    if (route.kind === 'page') {
      const { html, csp } = page.render()
      return { status: 200, html, headers: { 'content-security-policy': csp } }
    }
    if (needsToken(method, generated) && !tokenMatches(req.headers.authorization)) {
      const error =
        req.headers.authorization === undefined
          ? 'authorization: this request needs the header "authorization: Bearer <token>"'
          : 'authorization: wrong token'
      return errorReply(401, ConsoleErrorCodes.UNAUTHORIZED, error, {
        'www-authenticate': 'Bearer realm="logx-console"',
      })
    }
    let body: unknown
    if (method === 'POST') {
      const read = await readJsonBody(req)
      if (!read.ok) return read.reply
      body = read.value
    }
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
