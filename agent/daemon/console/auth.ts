// Who may use the console. Decisions are pure functions of the request's headers; the token is
// compared in constant time (both sides hashed to the same length, then every byte compared).
//
// 1. Listening on loopback, the Host header must name loopback (127.0.0.1, localhost or [::1]) with
//    the port the request came in on: a page of another site whose name was re-pointed at 127.0.0.1
//    (DNS rebinding) sends its own name and gets 403.
// 2. With a configured token, every /api/* request needs `authorization: Bearer <token>`.
// 3. Without one (loopback only), reading (GET, HEAD) is open and changing (POST, DELETE) needs the
//    token the agent generated at start, which the page served on loopback carries.
// No cookies are read or set: a request from another site cannot borrow a session (no CSRF).

import { bytesEqual } from '../../secret-equal'
import { sha256 } from '../../sha256'

function digest(text: string): Buffer {
  return sha256(Buffer.from(text, 'utf8'))
}

/** Checks `authorization` headers against one token, hashed once here. */
export function createTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token)
  return (authorization) => {
    if (authorization === undefined) return false
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)
    // A missing token is hashed too, so the answer takes as long whatever was sent.
    return bytesEqual(digest(match?.[1] ?? ''), expected) && match !== null
  }
}

/** Rules 2 and 3, for an /api/* request whose method is served. */
export function needsToken(method: string, generated: boolean): boolean {
  if (!generated) return true
  return method !== 'GET' && method !== 'HEAD'
}
