// Which requests the sandbox answers at all, decided from the request line and headers alone, before
// a byte of the body is read. The sandbox has no real authentication (its key and token are public
// defaults) and an agent embedding it acts on what it stores (a simulated missed call acknowledges an
// incident), so the browser's neighbours are kept out here. Pure: server.ts applies the verdict.
//
// 1. Listening on loopback, the Host header must name loopback with the port the request came in on
//    (agent/loopback-host.ts): a page whose name was re-pointed at 127.0.0.1 (DNS rebinding) gets 403.
// 2. An `Origin` header, when present, must be the sandbox's own origin (`http://` and the Host
//    header): a page of another site gets 403 whatever the method. curl and Node clients send none.
// 3. A request that carries a body must label it `application/json` (the spec's content type for every
//    send and both webhooks); anything else (text/plain, a form, multipart: what a page may send
//    cross-origin without asking first) gets 415.
// 4. A request whose declared length is over the body cap gets 413 without being read.
import type { IncomingHttpHeaders } from 'node:http'
import { hostHeaderAllowed } from '../loopback-host'

export interface GuardedRequest {
  headers: IncomingHttpHeaders
  /** The local port the request came in on. */
  port: number
}

export type GuardVerdict =
  | { ok: true }
  | { ok: false; status: 403 | 413 | 415; field: 'host' | 'origin' | 'content-type' | '(body)'; error: string }

const JSON_TYPE = /^application\/json\s*(?:;|$)/i

/** Whether the request says it carries a body (RFC 9112, 6.3: a length above 0, or chunks). */
function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  return length !== undefined && length !== '0'
}

export function guardRequest(request: GuardedRequest, loopback: boolean, maxBodyBytes: number): GuardVerdict {
  const { headers, port } = request
  if (loopback && !hostHeaderAllowed(headers.host, port)) {
    const error = 'host: the sandbox answers only to 127.0.0.1, localhost or [::1] with its port'
    return { ok: false, status: 403, field: 'host', error }
  }
  const origin = headers.origin
  if (origin !== undefined && origin !== `http://${headers.host ?? ''}`) {
    return { ok: false, status: 403, field: 'origin', error: 'origin: a page of another site may not use the sandbox' }
  }
  if (!hasBody(headers)) return { ok: true }
  if (!JSON_TYPE.test(headers['content-type'] ?? '')) {
    const error = 'content-type: a body must be sent as application/json'
    return { ok: false, status: 415, field: 'content-type', error }
  }
  if (Number(headers['content-length'] ?? '0') > maxBodyBytes) {
    return { ok: false, status: 413, field: '(body)', error: `(body): larger than ${maxBodyBytes} bytes` }
  }
  return { ok: true }
}
