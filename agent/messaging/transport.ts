// One HTTP exchange over node:http / node:https: bytes out, status, headers and a capped body back,
// and, when it fails, how far it got. Nothing here knows the API; http-call.ts classifies.
// node:http rather than undici: a long-running daemon pays about 18 MB less peak RSS (README.md,
// Dependencies).

import * as http from 'node:http'
import type * as https from 'node:https'
import { monotonicMs } from '../monotonic-clock'
import { HttpAttemptError, type AttemptPhase } from './errors'

/** The code a closed connection's attempts fail with (see connection.ts). */
export const CLIENT_CLOSED = 'LOGX_CLIENT_CLOSED'

export interface OutgoingRequest {
  url: URL
  method: string
  headers: Record<string, string>
  body?: string | undefined
  /** Ends the exchange wherever it is (connecting, sending, reading the body). */
  signal: AbortSignal
  /** Past this many body bytes the rest is not read: `truncated` is set and the socket dropped. */
  maxBodyBytes: number
}

export interface IncomingResponse {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  truncated: boolean
}

export type HttpAgent = http.Agent | https.Agent

let httpsLoaded: typeof https | undefined
/**
 * node:https (with tls) on first use: an agent on the embedded sandbox talks http only, and TLS's
 * modules cost 0.3 MB of RSS.
 */
export function httpsModule(): typeof https {
  return (httpsLoaded ??= require('node:https') as typeof https)
}

export type Exchange = (request: OutgoingRequest) => Promise<IncomingResponse>

/**
 * What a server said of its idle keep-alive timeout (`Keep-Alive: timeout=<s>`), per socket, in ms:
 * connection.ts keeps idle sockets well below it.
 */
export const serverIdleTimeoutMs = new WeakMap<object, number>()
/** When a pooled socket went idle (monotonicMs()), set by connection.ts's agents when they keep it. */
export const idleSince = new WeakMap<object, number>()

/** The codes of a socket the server closed under a request just written to it. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE'])
/** Node's own margin below a server's announced idle timeout. */
const STALE_MARGIN_MS = 1000

/**
 * A pooled socket that had been idle about as long as the server said it keeps one (or longer: a
 * stalled event loop): a reset under our request is the server's idle close, not a failure of the
 * request. A socket idle for less (a server dropping the connection after reading the request)
 * does not qualify: that failure is ambiguous, and the caller decides.
 */
function idledOut(socket: object): boolean {
  const since = idleSince.get(socket)
  const server = serverIdleTimeoutMs.get(socket)
  return since !== undefined && server !== undefined && monotonicMs() - since >= server - STALE_MARGIN_MS
}

function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined
  return typeof code === 'string' ? code : undefined
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * Reads a response's body up to `maxBodyBytes`; past it the body is cut (`truncated`) and the request
 * destroyed (the rest is never read, so the socket cannot carry another request).
 */
function collectBody(
  req: http.ClientRequest,
  res: http.IncomingMessage,
  maxBodyBytes: number,
  settled: () => boolean,
  succeed: (response: IncomingResponse) => void,
  failWith: (err: unknown) => void,
): void {
  const chunks: Buffer[] = []
  let bytes = 0
  const finish = (truncated: boolean): void => {
    const text = Buffer.concat(chunks).toString('utf8')
    succeed({ status: res.statusCode ?? 0, headers: res.headers, text, truncated })
  }
  res.on('data', (chunk: Buffer) => {
    if (settled()) return
    const room = maxBodyBytes - bytes
    if (chunk.length <= room) {
      chunks.push(chunk)
      bytes += chunk.length
      return
    }
    chunks.push(chunk.subarray(0, room))
    finish(true)
    req.destroy()
  })
  res.on('end', () => finish(false))
  res.on('error', failWith)
  res.on('close', () => {
    if (res.complete) return
    const message = 'the connection closed before the response was complete'
    failWith(Object.assign(new Error(message), { code: 'ECONNRESET' }))
  })
}

export function exchange(request: OutgoingRequest, agent: HttpAgent): Promise<IncomingResponse> {
  const { url, signal } = request
  return new Promise<IncomingResponse>((resolve, reject) => {
    let settled = false
    // Set once a socket to the server is open (TLS included): from then on the server may have
    // read the request, so a failure says nothing about whether it acted.
    let connected = false
    const phase = (): AttemptPhase => (connected ? 'connected' : 'connect')
    const fail = (err: HttpAttemptError): void => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      reject(err)
    }
    // Set once the status line and headers are in: from then on nothing is repeated here.
    let answered = false
    // Whether the pooled socket this request took had idled out (see idledOut), decided when taken.
    let idled = false
    const failWith = (err: unknown): void => {
      const code = codeOf(err)
      const stale = idled && !answered && code !== undefined && STALE_CODES.has(code) && !signal.aborted
      fail(new HttpAttemptError(messageOf(err), phase(), code, err, stale))
    }
    const succeed = (response: IncomingResponse): void => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      resolve(response)
    }

    const headers: Record<string, string> = { ...request.headers }
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body))
    let req: http.ClientRequest
    try {
      const options: http.RequestOptions = { method: request.method, headers, agent }
      req = url.protocol === 'https:' ? httpsModule().request(url, options) : http.request(url, options)
    } catch (err) {
      // Thrown before any I/O: an invalid header value, or an agent for the other protocol.
      reject(new HttpAttemptError(messageOf(err), 'setup', codeOf(err), err))
      return
    }
    // Attached first and kept after settling: a destroyed request or a socket can still emit 'error'
    // once the outcome is known, and an 'error' with no listener would crash the process.
    req.on('error', failWith)

    function onAbort(): void {
      fail(new HttpAttemptError('aborted', phase(), 'ABORT_ERR', signal.reason))
      req.destroy()
    }
    if (signal.aborted) {
      onAbort()
      return
    }
    signal.addEventListener('abort', onAbort, { once: true })

    req.once('socket', (socket) => {
      if (req.reusedSocket || !socket.connecting) {
        connected = true
        idled = req.reusedSocket && idledOut(socket)
        return
      }
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        connected = true
      })
    })
    req.on('response', (res) => {
      answered = true
      const hint = /^timeout=(\d+)/.exec(String(res.headers['keep-alive'] ?? ''))?.[1]
      if (hint !== undefined) serverIdleTimeoutMs.set(res.socket, Number(hint) * 1000)
      collectBody(req, res, request.maxBodyBytes, () => settled, succeed, failWith)
    })
    req.end(request.body)
  })
}
