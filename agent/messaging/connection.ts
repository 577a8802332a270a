// What both clients share: the keep-alive agents, the User-Agent, the redactor and the caller.

import * as http from 'node:http'
import * as https from 'node:https'
import { HttpAttemptError, MessagingErrorCodes, MessagingOptionError } from './errors'
import { createHttpCaller, type DebugEvent, type HttpCaller } from './http-call'
import { createRedactor, type Redactor } from './redact'
import { CLIENT_CLOSED, exchange, type Exchange, type HttpAgent } from './transport'
import { userAgent } from './version'

export interface ConnectionOptions {
  /** Per-call timeout (a call is one HTTP attempt); default 10 s. */
  timeoutMs?: number
  /** How long an idle keep-alive socket is kept; default 30 s. */
  keepAliveTimeoutMs?: number
  /** Sockets per origin; default 16. */
  connections?: number
  /**
   * Bring your own `http.Agent` (http: URLs) or `https.Agent` (https: URLs; custom `ca`, proxies
   * through `createConnection`...). `close()` then leaves it open; the options above that shape
   * the client's own agents (`keepAliveTimeoutMs`, `connections`) do not apply to it.
   */
  agent?: HttpAgent
  /** Sees every request, response and failure, with secrets masked. */
  onDebug?: (event: DebugEvent) => void
}

export interface Connection {
  call: HttpCaller
  redact: Redactor
  close(): Promise<void>
}

function checkPositive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new MessagingOptionError(MessagingErrorCodes.INVALID_OPTION, `${name} must be a positive number`, { field: name })
  }
}

export function createConnection(
  options: ConnectionOptions,
  secrets: readonly (string | undefined)[],
  secretHeaders: readonly string[],
): Connection {
  checkPositive('timeoutMs', options.timeoutMs)
  checkPositive('keepAliveTimeoutMs', options.keepAliveTimeoutMs)
  checkPositive('connections', options.connections)
  const given = options.agent
  const agentOptions: http.AgentOptions = {
    keepAlive: true,
    // TCP keep-alive probes on an idle socket, so a peer that vanished is noticed.
    keepAliveMsecs: 1000,
    // How long a free socket is kept; Node shortens it to a server's `Keep-Alive: timeout=` hint.
    timeout: options.keepAliveTimeoutMs ?? 30_000,
    maxSockets: options.connections ?? 16,
    maxFreeSockets: options.connections ?? 16,
  }
  // One agent per protocol, made on first use: a client that only talks http never loads TLS state.
  let httpAgent: http.Agent | undefined
  let httpsAgent: https.Agent | undefined
  function agentFor(url: URL): HttpAgent {
    if (given !== undefined) return given
    if (url.protocol === 'https:') return (httpsAgent ??= new https.Agent(agentOptions))
    return (httpAgent ??= new http.Agent(agentOptions))
  }
  let closed = false
  const inFlight = new Set<Promise<unknown>>()
  const send: Exchange = (request) => {
    if (closed) return Promise.reject(new HttpAttemptError('the client is closed', 'setup', CLIENT_CLOSED))
    const pending = exchange(request, agentFor(request.url))
    inFlight.add(pending)
    const forget = (): void => {
      inFlight.delete(pending)
    }
    pending.then(forget, forget)
    return pending
  }
  const redact = createRedactor(secrets)
  const call = createHttpCaller({
    exchange: send,
    userAgent: userAgent(),
    timeoutMs: options.timeoutMs ?? 10_000,
    redact,
    secretHeaders: new Set(secretHeaders.map((h) => h.toLowerCase())),
    onDebug: options.onDebug,
  })
  return {
    call,
    redact,
    async close() {
      // Exchanges under way finish (each bounded by its timeout); attempts after this fail at once.
      closed = true
      await Promise.allSettled([...inFlight])
      httpAgent?.destroy()
      httpsAgent?.destroy()
    },
  }
}

export function parseUrlOption(name: string, value: string | URL): URL {
  try {
    const url = new URL(String(value))
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)')
    return url
  } catch {
    // The URL may embed a credential (webhook), so it is not echoed.
    throw new MessagingOptionError(MessagingErrorCodes.INVALID_OPTION, `${name} must be an absolute http(s) URL`, {
      field: name,
    })
  }
}
