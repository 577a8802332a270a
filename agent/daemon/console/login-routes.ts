// The answers of the three routes about getting in, which the backend knows nothing of:
//
//   POST /api/login        body { code }       200 { session, idleMs }   no token: the code is the credential
//   POST /api/login-codes  (no body)           201 { code, expiresAt }    the token only (not a session)
//   POST /api/identity     body { challenge }  200 { proof }              no token: HMAC-SHA256(key, challenge)
//
// A refused code is one answer whatever the reason (unknown, used, expired), so the answer tells a
// guesser nothing.

import { checkOneField } from './bodies'
import { ConsoleErrorCodes } from './errors'
import { errorReply, jsonReply, type ConsoleReply } from './http'
import { CHALLENGE_PATTERN, identityProof } from './identity'
import { SESSION_IDLE_MS, type ConsoleLogins } from './logins'
import type { Route } from './paths'

export type LoginRoute = 'login' | 'login-code' | 'identity'

export function isLoginRoute(route: Route): route is Extract<Route, { kind: LoginRoute }> {
  return route.kind === 'login' || route.kind === 'login-code' || route.kind === 'identity'
}

export interface LoginRequest {
  route: LoginRoute
  body: unknown
  now: number
  logins: ConsoleLogins
  /** console.json's key; undefined: this console proves nothing (POST /api/identity is 404). */
  identityKey: string | undefined
}

const CODE_PATTERN = /^[A-Za-z0-9_-]{16,100}$/

export const CODE_REFUSED = 'code: unknown, already used or expired; get a new login URL with `logx-agent console`'

const invalid = (error: string): ConsoleReply => errorReply(400, ConsoleErrorCodes.INVALID_BODY, error)

export function loginReply(request: LoginRequest): ConsoleReply {
  const { body, now, logins } = request
  switch (request.route) {
    case 'login': {
      const code = checkOneField(body, 'code', CODE_PATTERN)
      if (!code.ok) return invalid(code.error)
      const session = logins.exchange(code.value, now)
      if (session === undefined) return errorReply(401, ConsoleErrorCodes.LOGIN_REFUSED, CODE_REFUSED)
      return jsonReply(200, { session, idleMs: SESSION_IDLE_MS })
    }
    case 'login-code': {
      if (body !== undefined) return invalid('body: POST /api/login-codes takes none')
      return jsonReply(201, logins.issueCode(now))
    }
    case 'identity': {
      if (request.identityKey === undefined)
        return errorReply(404, ConsoleErrorCodes.NOT_FOUND, 'this console has no identity to prove')
      const challenge = checkOneField(body, 'challenge', CHALLENGE_PATTERN)
      if (!challenge.ok) return invalid(challenge.error)
      return jsonReply(200, { proof: identityProof(request.identityKey, challenge.value) })
    }
  }
}
