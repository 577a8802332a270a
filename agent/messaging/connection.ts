// What both clients share: a keep-alive dispatcher, the User-Agent, the redactor and the caller.

import { Agent, type Dispatcher } from 'undici'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './backoff'
import { MessagingErrorCodes, MessagingOptionError } from './errors'
import { createHttpCaller, type DebugEvent, type HttpCaller } from './http-call'
import { createRedactor, type Redactor } from './redact'
import { userAgent } from './version'

export interface ConnectionOptions {
  /** Per-attempt timeout; default 10 s. */
  timeoutMs?: number
  retry?: Partial<RetryPolicy>
  /** How long an idle keep-alive socket is kept; default 30 s. */
  keepAliveTimeoutMs?: number
  /** Sockets per origin; default 16. */
  connections?: number
  /** Bring your own undici dispatcher (then `close()` leaves it open). */
  dispatcher?: Dispatcher
  /** Sees every request, response, retry and failure, with secrets masked. */
  onDebug?: (event: DebugEvent) => void
  /** Jitter source; tests pin it. */
  random?: () => number
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
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  if (!Number.isInteger(retry.retries) || retry.retries < 0) {
    throw new MessagingOptionError(MessagingErrorCodes.INVALID_OPTION, 'retry.retries must be a non-negative integer', {
      field: 'retry.retries',
    })
  }
  const owned = options.dispatcher === undefined
  const dispatcher =
    options.dispatcher ??
    new Agent({
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: options.connections ?? 16,
    })
  const redact = createRedactor(secrets)
  const call = createHttpCaller({
    dispatcher,
    userAgent: userAgent(),
    timeoutMs: options.timeoutMs ?? 10_000,
    retry,
    redact,
    secretHeaders: new Set(secretHeaders.map((h) => h.toLowerCase())),
    onDebug: options.onDebug,
    ...(options.random === undefined ? {} : { random: options.random }),
  })
  return {
    call,
    redact,
    async close() {
      if (owned) await dispatcher.close()
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
