// What both clients share: the keep-alive agents, the User-Agent, the redactor and the caller.

import * as http from 'node:http'
import type * as https from 'node:https'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { monotonicMs } from '../monotonic-clock'
import { HttpAttemptError, MessagingErrorCodes, MessagingOptionError } from './errors'
import { createHttpCaller, type HttpCaller } from './http-call'
import { createRedactor, type Redactor } from './redact'
import {
  CLIENT_CLOSED,
  exchange,
  httpsModule,
  idleSince,
  serverIdleTimeoutMs,
  type Exchange,
  type HttpAgent,
  type OutgoingRequest,
} from './transport'
import type { ConnectionOptions } from './types'
import { userAgent } from './version'

export interface Connection {
  call: HttpCaller
  redact: Redactor
  close(): Promise<void>
}

function checkPositive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new MessagingOptionError(MessagingErrorCodes.INVALID_OPTION, `${name} must be a positive number`, {
      field: name,
    })
  }
}

/**
 * Node keeps an idle socket until one second before the server's `Keep-Alive: timeout=` says it
 * closes it. An event loop busier than that (the embedded sandbox shares the agent's) can take the
 * socket for a request after the server's timer has fired on its side: ECONNRESET. Our own agents
 * keep an idle socket at most half the server's timeout.
 */
function keepIdleWellBelowServer(agent: http.Agent): void {
  const keep = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => boolean
  agent.keepSocketAlive = (socket: Duplex): boolean => {
    if (!keep(socket)) return false
    idleSince.set(socket, monotonicMs())
    const server = serverIdleTimeoutMs.get(socket)
    const idle = (socket as Socket).timeout
    if (server !== undefined && idle !== undefined && (idle === 0 || idle > server / 2))
      (socket as Socket).setTimeout(server / 2)
    return true
  }
}

/**
 * One exchange, sent again at once when it failed on a pooled socket the server had closed, before
 * any byte of an answer, after the socket had idled about as long as the server keeps one
 * (`staleSocket`): that request never reached the server. Same headers, so
 * the same Idempotency-Key. The agent has dropped the dead socket, so each try takes another pooled
 * one or opens a new one: at most `limit` more tries, all within the call's timeout (one signal).
 */
async function exchangeOnLiveSocket(
  request: OutgoingRequest,
  agent: HttpAgent,
  limit: number,
): Promise<Awaited<ReturnType<Exchange>>> {
  for (let tries = 0; ; tries++) {
    try {
      return await exchange(request, agent)
    } catch (err) {
      if (!(err instanceof HttpAttemptError) || !err.staleSocket || tries >= limit || request.signal.aborted) throw err
    }
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
    if (url.protocol === 'https:') return (httpsAgent ??= withShortIdle(new (httpsModule().Agent)(agentOptions)))
    return (httpAgent ??= withShortIdle(new http.Agent(agentOptions)))
  }
  const withShortIdle = <A extends http.Agent>(agent: A): A => {
    keepIdleWellBelowServer(agent)
    return agent
  }
  const staleTries = options.connections ?? 16
  let closed = false
  const inFlight = new Set<Promise<unknown>>()
  const send: Exchange = (request) => {
    if (closed) return Promise.reject(new HttpAttemptError('the client is closed', 'setup', CLIENT_CLOSED))
    const pending = exchangeOnLiveSocket(request, agentFor(request.url), staleTries)
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
