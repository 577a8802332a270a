// Who may use the console. Decisions are pure functions of the request's route and headers; every
// secret is compared in constant time (both sides hashed to the same length, then every byte).
//
// 1. Listening on loopback, the Host header must name loopback with the port the request came in on
//    (agent/loopback-host.ts): a page of another site whose name was re-pointed at 127.0.0.1 (DNS
//    rebinding) sends its own name and gets 403.
// 2. The page (`/`, `/console`) is open and carries no secret: anyone who reaches the port may load it.
// 3. Every other /api/* request, reading included, needs `authorization: Bearer <credential>`: the
//    console token (configured, or generated at start into the 0600 <state_dir>/console.token) or the
//    secret of a live session (logins.ts).
// 4. Two requests need none, as they are how one gets in: POST /api/login (its one-time code is the
//    credential) and POST /api/identity (the agent proves who it is; it reveals nothing else).
// 5. POST /api/login-codes needs the token itself: a session cannot make more sessions.
// No cookies are read or set: a request from another site cannot borrow a session (no CSRF).

import { bytesEqual } from '../../secret-equal'
import { sha256 } from '../../sha256'
import type { Route } from './paths'

function digest(text: string): Buffer {
  return sha256(Buffer.from(text, 'utf8'))
}

/** The credential of an `authorization: Bearer <credential>` header; undefined for any other header. */
export function bearerOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1]
}

/** Checks `authorization` headers against one token, hashed once here. */
export function createTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token)
  return (authorization) => {
    const given = bearerOf(authorization)
    // A missing token is hashed too, so the answer takes as long whatever was sent.
    return bytesEqual(digest(given ?? ''), expected) && given !== undefined
  }
}

/** Rules 2 to 5: what a route needs. `any` is the token or a live session. */
export function credentialNeeded(kind: Route['kind']): 'none' | 'token' | 'any' {
  if (kind === 'page' || kind === 'login' || kind === 'identity') return 'none'
  return kind === 'login-code' ? 'token' : 'any'
}
