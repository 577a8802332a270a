// The console's I/O at the socket: answers with the headers every one of them carries, and request
// bodies read within the limit. No Access-Control-* header is ever written (no CORS: the page and
// its API share an origin), and no cookie.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { ConsoleErrorCodes, type ConsoleErrorBody, type ConsoleErrorCode } from './errors'

export type ConsoleReply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; html: string; headers?: Record<string, string> }
  /** `{ "<name>": [...items], "total": <total> }`, written in slices (see writeList). */
  | { status: number; list: ListBody; headers?: Record<string, string> }

export interface ListBody {
  name: string
  items: Iterable<unknown>
  total: number
}

export const MAX_BODY_BYTES = 16 * 1024

/** On every answer: nothing is cached, sniffed, framed or given a Referer. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
}
/** JSON is never a document: it may run and load nothing. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'"

export function jsonReply(status: number, json: unknown, headers?: Record<string, string>): ConsoleReply {
  return headers === undefined ? { status, json } : { status, json, headers }
}

export function errorReply(
  status: number,
  code: ConsoleErrorCode,
  error: string,
  headers?: Record<string, string>,
): ConsoleReply {
  const body: ConsoleErrorBody = { error, code }
  return jsonReply(status, body, headers)
}

/**
 * Writes an answer. A JSON answer holding `secret` anywhere (a client that sent the token as a field
 * name has it named back in the error; a log line that quoted it is an incident title) has it
 * replaced: the token never leaves in an API answer.
 */
export function writeReply(req: IncomingMessage, res: ServerResponse, reply: ConsoleReply, secret: string): void {
  if ('list' in reply) {
    writeList(req, res, reply.status, reply.list, secret)
    return
  }
  const isJson = 'json' in reply
  let text = isJson ? JSON.stringify(reply.json) : reply.html
  if (isJson && text.includes(secret)) text = text.replaceAll(secret, '[redacted]')
  res.writeHead(reply.status, {
    ...COMMON_HEADERS,
    ...(isJson ? { 'content-security-policy': JSON_CSP } : {}),
    'content-type': isJson ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...reply.headers,
  })
  res.end(req.method === 'HEAD' ? undefined : text)
}

/** Items per slice: about 50 kB of JSON for incident summaries. */
const LIST_SLICE = 200

/**
 * A long list (10,000 incidents are about 3 MB of JSON) is serialized a slice at a time and sent
 * chunked: each slice's string dies young, where one 3 MB string would go straight to V8's old
 * space and, under the agent's --optimize-for-size, bring on a full collection per request.
 */
function writeList(req: IncomingMessage, res: ServerResponse, status: number, list: ListBody, secret: string): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-security-policy': JSON_CSP,
    'content-type': 'application/json; charset=utf-8',
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  res.write(`{${JSON.stringify(list.name)}:[`)
  let first = true
  const flush = (slice: unknown[]): void => {
    const json = JSON.stringify(slice)
    // Each item is whole within its slice, so a secret inside one is found here.
    const text = json.includes(secret) ? json.replaceAll(secret, '[redacted]') : json
    res.write(first ? text.slice(1, -1) : `,${text.slice(1, -1)}`)
    first = false
  }
  let slice: unknown[] = []
  for (const item of list.items) {
    slice.push(item)
    if (slice.length < LIST_SLICE) continue
    flush(slice)
    slice = []
  }
  if (slice.length > 0) flush(slice)
  res.end(`],"total":${list.total}}`)
}

/** Lets a body the answer does not need flow past, so the client reads the answer, not a reset. */
export function discardBody(req: IncomingMessage): void {
  if (!req.complete) req.resume()
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; reply: ConsoleReply }

const JSON_TYPE = /^application\/json\s*(?:;.*)?$/i

function tooLarge(): BodyResult {
  return {
    ok: false,
    reply: errorReply(413, ConsoleErrorCodes.BODY_TOO_LARGE, `body: larger than ${MAX_BODY_BYTES} bytes`, {
      connection: 'close',
    }),
  }
}

/** The JSON body of a request: `undefined` when there is none; 413, 415 or 400 as a ready answer. */
export function readJsonBody(req: IncomingMessage): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) {
    discardBody(req)
    return Promise.resolve(tooLarge())
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (result: BodyResult): void => {
      if (done) return
      done = true
      resolve(result)
    }
    req.on('data', (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0
        finish(tooLarge())
        return
      }
      chunks.push(chunk)
    })
    req.on('error', () =>
      finish({ ok: false, reply: errorReply(400, ConsoleErrorCodes.INVALID_BODY, 'body: the request was cut off') }),
    )
    req.on('end', () => finish(parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type'])))
  })
}

/** Pure: the text of a complete body and its content type -> its value or the answer refusing it. */
export function parseBody(text: string, contentType: string | undefined): BodyResult {
  if (text.trim() === '') return { ok: true, value: undefined }
  if (contentType === undefined || !JSON_TYPE.test(contentType)) {
    return {
      ok: false,
      reply: errorReply(415, ConsoleErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'content-type: must be application/json'),
    }
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false, reply: errorReply(400, ConsoleErrorCodes.INVALID_BODY, 'body: not valid JSON') }
  }
}
