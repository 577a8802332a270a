// Handlers return a Reply instead of writing to the socket, so fault injection can delay, replace,
// garble or drop the answer after the handler has done its work.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ValidationProblem } from '../messaging/errors'
import type { WireErrorBody } from '../messaging/wire'

export type Reply =
  | { type: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** A ready body: text, or bytes made once and served many times (a cached listing page). */
  | { type: 'text'; status: number; body: string | Buffer; contentType: string; headers?: Record<string, string> }
  /** Status line and nothing else (the activity webhook answers with no body). */
  | { type: 'empty'; status: number }

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers === undefined ? { type: 'json', status, body } : { type: 'json', status, body, headers }
}

export function apiError(status: number, error: string, field?: string): Reply {
  const body: WireErrorBody = field === undefined ? { status: 'error', error } : { status: 'error', error, field }
  return json(status, body)
}

/** 400 naming the first offending field, with every problem listed. */
export function invalid(problems: readonly ValidationProblem[]): Reply {
  const first = problems[0] ?? { field: '(body)', message: 'is invalid' }
  return json(400, { status: 'error', error: `${first.field}: ${first.message}`, field: first.field, problems })
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (reply.type === 'empty') {
    res.writeHead(reply.status, { 'content-length': '0' })
    res.end()
    return
  }
  const body = reply.type === 'json' ? JSON.stringify(reply.body) : reply.body
  const contentType = reply.type === 'json' ? JSON_CONTENT_TYPE : reply.contentType
  res.writeHead(reply.status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
    ...reply.headers,
  })
  res.end(body)
}

/** The control API's body cap (a seed may carry many records); sends and webhooks have the record cap. */
export const MAX_BODY_BYTES = 1024 * 1024

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  // Neither header: no body (RFC 9112, 6.3), so nothing to wait for (a GET poll is most requests);
  // Node discards the unread stream itself once the answer is sent.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return Promise.resolve('')
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        // The rest is read and dropped rather than the socket destroyed: a client must get the 413,
        // not a reset connection it would take for a network failure and send again.
        req.removeAllListeners('data')
        req.resume()
        reject(new BodyTooLargeError('request body too large'))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

export type ParsedRequestBody = { ok: true; value: unknown } | { ok: false }

/** An absent body is `undefined`; a present one must be JSON. */
export function parseJsonBody(text: string): ParsedRequestBody {
  if (text.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}
