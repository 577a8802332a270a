// Who may send to an intake source (pure). The listener has checked the client certificate, when
// `tls.client_ca` is set, before a request reaches here (Node refuses an unverified one).
//
// 1. A source with a token wants `authorization: Bearer <token>`, compared in constant time
//    (agent/secret-equal.ts): a missing or wrong one is 401, whatever the address.
// 2. A source without a token takes any request: config validation allowed that only on loopback,
//    or with client certificates (normalize/intake.ts, rule 2).
// 3. The scheme is matched case-insensitively (RFC 9110), the token exactly.
import type { IncomingHttpHeaders } from 'node:http'
import { secretEquals } from '../secret-equal'
import type { Secret } from '../config/values/secret'

export type AccessDecision = { allowed: true } | { allowed: false; status: 401; message: string }

const BEARER = /^bearer +(.*)$/i

export function requestAccess(token: Secret | undefined, headers: IncomingHttpHeaders): AccessDecision {
  if (token === undefined) return { allowed: true }
  const header = headers.authorization
  const given = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined
  if (secretEquals(given, token.reveal())) return { allowed: true }
  return {
    allowed: false,
    status: 401,
    message: given === undefined ? 'an authorization: Bearer <token> header is required' : 'the token is not valid',
  }
}
