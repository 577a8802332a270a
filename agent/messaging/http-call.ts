// One HTTP exchange with timeout, cancellation, error classification and retries. Every operation
// of both clients goes through createHttpCaller; retrying lives here and nowhere else.

import { setTimeout as delay } from 'node:timers/promises'
import { retryDelay, parseRetryAfter, type RetryPolicy } from './backoff'
import {
  MessagingAbortedError,
  MessagingApiError,
  MessagingAuthError,
  MessagingErrorCodes,
  MessagingMalformedResponseError,
  MessagingNetworkError,
  MessagingOptionError,
  MessagingRateLimitError,
  MessagingRejectedError,
  MessagingRequestError,
  MessagingServerError,
  MessagingTimeoutError,
} from './errors'
import { detectOutcome, type ParsedBody } from './outcome'
import { clipBody, describeUrl, type Redactor } from './redact'
import { CLIENT_CLOSED, TransportError, type Exchange } from './transport'
import type { HttpMethod, OperationName } from './wire'

export interface CallSpec {
  operation: OperationName
  method: HttpMethod
  url: URL
  /** May hold secrets (apikey, X-O-TOKEN): they are sent but never reported. */
  headers: Record<string, string>
  body?: string
  /** The URL itself is a credential (per-account webhook): report only its origin. */
  secretUrl: boolean
  /** The operation changes state remotely (see RetryPolicy.retryAmbiguousSends). */
  sends: boolean
}

export interface CallOptions {
  /** Cancels the whole call, retries and backoff waits included. */
  signal?: AbortSignal
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number
  /** Overrides parts of the client's retry policy for this call. */
  retry?: Partial<RetryPolicy>
  /**
   * Sent as the `Idempotency-Key` header of a send (the same on every retry), so the far end can
   * tell a resend of one notification from a new one. The spec does not name the header: an API
   * that ignores it loses nothing; the sandbox records it.
   */
  idempotencyKey?: string
}

export interface CallResult {
  status: number
  body: ParsedBody
  attempts: number
}

/** What the optional debug hook sees. Secret headers are masked and secret URLs reduced to their origin. */
export type DebugEvent =
  | {
      type: 'request'
      operation: OperationName
      attempt: number
      method: HttpMethod
      url: string
      headers: Record<string, string>
    }
  | { type: 'response'; operation: OperationName; attempt: number; status: number; durationMs: number; body: string }
  | { type: 'retry'; operation: OperationName; attempt: number; delayMs: number; code: string; message: string }
  | { type: 'failure'; operation: OperationName; attempts: number; code: string; message: string }

export interface HttpCallerOptions {
  /** Carries one attempt over the wire (connection.ts binds it to the keep-alive agents). */
  exchange: Exchange
  userAgent: string
  timeoutMs: number
  retry: RetryPolicy
  redact: Redactor
  /** Header names whose values are secrets. Lower case. */
  secretHeaders: ReadonlySet<string>
  onDebug?: ((event: DebugEvent) => void) | undefined
  random?: () => number
}

export type HttpCaller = (spec: CallSpec, options?: CallOptions) => Promise<CallResult>

/** Bodies past this are not read: no API response of the spec comes near it, and a daemon's memory
 * must not follow whatever a proxy or a broken server decides to send. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024

// Failing before the connection exists means the far end never saw the request: safe to repeat.
// The transport also reports the phase (no socket was open yet); these codes say it on their own.
const CONNECT_PHASE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

function statusError(
  operation: OperationName,
  status: number,
  text: string,
  bodyMessage: string | undefined,
  field: string | undefined,
  retryAfterHeader: string | undefined,
  redact: Redactor,
): MessagingApiError {
  const rawBody = redact(clipBody(text))
  const detail = bodyMessage === undefined ? '' : `: ${redact(bodyMessage)}`
  const message = `${operation}: HTTP ${status}${detail}`
  const base = { operation, status, rawBody, field }
  if (status === 401) return new MessagingAuthError(MessagingErrorCodes.UNAUTHORIZED, message, base)
  if (status === 403) return new MessagingAuthError(MessagingErrorCodes.FORBIDDEN, message, base)
  if (status === 400 || status === 422) return new MessagingRequestError(MessagingErrorCodes.BAD_REQUEST, message, base)
  if (status === 404) return new MessagingRequestError(MessagingErrorCodes.NOT_FOUND, message, base)
  if (status === 429) {
    return new MessagingRateLimitError(MessagingErrorCodes.RATE_LIMITED, message, {
      ...base,
      recoverable: true,
      retryAfterMs: parseRetryAfter(retryAfterHeader, Date.now()),
    })
  }
  if (status === 408) {
    return new MessagingRequestError(MessagingErrorCodes.CLIENT_STATUS, message, { ...base, recoverable: true })
  }
  if (status >= 500) {
    // 503 means "not now" and is sent before any work; other 5xx may come after the work was done.
    return new MessagingServerError(MessagingErrorCodes.SERVER, message, {
      ...base,
      recoverable: true,
      ambiguous: status !== 503,
      retryAfterMs: status === 503 ? parseRetryAfter(retryAfterHeader, Date.now()) : undefined,
    })
  }
  return new MessagingRequestError(MessagingErrorCodes.CLIENT_STATUS, message, base)
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

export function createHttpCaller(options: HttpCallerOptions): HttpCaller {
  const { exchange, redact, onDebug } = options
  const random = options.random ?? Math.random

  function debug(event: DebugEvent): void {
    if (onDebug === undefined) return
    try {
      onDebug(event)
    } catch {
      // A broken debug hook must not break delivery.
    }
  }

  function maskedHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) out[k] = options.secretHeaders.has(k.toLowerCase()) ? '[redacted]' : v
    return out
  }

  async function attemptOnce(spec: CallSpec, attempt: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<CallResult> {
    // A setTimeout cleared on completion, not AbortSignal.timeout(): that one's timer stays pending
    // until it fires, so a busy client would carry thousands of dead timers and signals.
    const timeoutController = new AbortController()
    const timer = setTimeout(() => timeoutController.abort(), timeoutMs)
    const timeout = timeoutController.signal
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
    const headers = { 'user-agent': options.userAgent, accept: 'application/json, text/plain;q=0.9, */*;q=0.5', ...spec.headers }
    debug({
      type: 'request',
      operation: spec.operation,
      attempt,
      method: spec.method,
      url: describeUrl(spec.url, spec.secretUrl),
      headers: maskedHeaders(headers),
    })
    const started = performance.now()
    let status: number
    let text: string
    let truncated: boolean
    let contentType: string | undefined
    let retryAfter: string | undefined
    try {
      const res = await exchange({
        url: spec.url,
        method: spec.method,
        headers,
        body: spec.body,
        signal: combined,
        maxBodyBytes: MAX_RESPONSE_BYTES,
      })
      status = res.status
      contentType = firstHeader(res.headers['content-type'])
      retryAfter = firstHeader(res.headers['retry-after'])
      text = res.text
      truncated = res.truncated
    } catch (err) {
      clearTimeout(timer)
      const where = describeUrl(spec.url, spec.secretUrl)
      const failure = err instanceof TransportError ? err : new TransportError(String(err), 'connected', undefined, err)
      const code = failure.code
      const reason = redact(failure.message)
      if (signal?.aborted === true) {
        throw new MessagingAbortedError(MessagingErrorCodes.ABORTED, `${spec.operation}: aborted by the caller`, {
          operation: spec.operation,
          ambiguous: spec.sends,
          cause: err,
        })
      }
      if (timeout.aborted) {
        // Still connecting when the time ran out: the request never left, so even a send may be repeated.
        throw new MessagingTimeoutError(
          MessagingErrorCodes.TIMEOUT,
          `${spec.operation}: no complete response from ${where} within ${timeoutMs} ms`,
          { operation: spec.operation, recoverable: true, ambiguous: failure.phase === 'connected', cause: err },
        )
      }
      if (code === CLIENT_CLOSED) {
        throw new MessagingNetworkError(MessagingErrorCodes.NETWORK, `${spec.operation}: the client is closed`, {
          operation: spec.operation,
          cause: err,
        })
      }
      if (failure.phase === 'setup') {
        // Node refused to build the request (a header value it cannot send, an agent for the other
        // protocol): no retry can change that.
        throw new MessagingOptionError(
          MessagingErrorCodes.INVALID_OPTION,
          `${spec.operation}: the request to ${where} cannot be sent: ${code === undefined ? '' : `${code} `}${reason}`,
          { operation: spec.operation, cause: err },
        )
      }
      throw new MessagingNetworkError(
        MessagingErrorCodes.NETWORK,
        `${spec.operation}: network error talking to ${where}: ${code === undefined ? '' : `${code} `}${reason}`,
        {
          operation: spec.operation,
          recoverable: true,
          ambiguous: failure.phase === 'connected' && (code === undefined || !CONNECT_PHASE_CODES.has(code)),
          cause: err,
        },
      )
    }
    clearTimeout(timer)
    debug({
      type: 'response',
      operation: spec.operation,
      attempt,
      status,
      durationMs: performance.now() - started,
      body: redact(clipBody(text)),
    })
    if (truncated && status >= 200 && status < 300) {
      // A 2xx whose body was cut cannot be read; repeating it would fetch the same flood again.
      throw new MessagingMalformedResponseError(
        MessagingErrorCodes.MALFORMED_RESPONSE,
        `${spec.operation}: HTTP ${status} with a body over ${MAX_RESPONSE_BYTES} bytes, not read`,
        { operation: spec.operation, status, rawBody: redact(clipBody(text)), ambiguous: true },
      )
    }
    const outcome = detectOutcome(status, text, contentType)
    if (outcome.ok) return { status, body: outcome.body, attempts: attempt }
    if (outcome.reason === 'status') {
      throw statusError(spec.operation, status, text, outcome.message, outcome.field, retryAfter, redact)
    }
    if (outcome.reason === 'malformed') {
      throw new MessagingMalformedResponseError(
        MessagingErrorCodes.MALFORMED_RESPONSE,
        `${spec.operation}: HTTP ${status} with a body that is neither valid JSON nor plain text`,
        { operation: spec.operation, status, rawBody: redact(clipBody(text)), recoverable: true, ambiguous: true },
      )
    }
    const detail = outcome.message === undefined ? 'the response body reports a failure' : redact(outcome.message)
    throw new MessagingRejectedError(MessagingErrorCodes.REJECTED, `${spec.operation}: HTTP ${status} but ${detail}`, {
      operation: spec.operation,
      status,
      rawBody: redact(clipBody(text)),
      field: outcome.field,
    })
  }

  return async function call(spec, callOptions = {}) {
    const policy: RetryPolicy = { ...options.retry, ...callOptions.retry }
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs
    const signal = callOptions.signal
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted === true) {
        throw new MessagingAbortedError(MessagingErrorCodes.ABORTED, `${spec.operation}: aborted by the caller`, {
          operation: spec.operation,
          attempts: attempt - 1,
        })
      }
      try {
        return await attemptOnce(spec, attempt, timeoutMs, signal)
      } catch (err) {
        if (!(err instanceof MessagingApiError)) throw err
        err.attempts = attempt
        const tooLongToWait = err.retryAfterMs !== undefined && err.retryAfterMs > policy.maxRetryAfterMs
        const mayDuplicate = spec.sends && err.ambiguous && !policy.retryAmbiguousSends
        if (!err.recoverable || attempt > policy.retries || tooLongToWait || mayDuplicate) {
          debug({ type: 'failure', operation: spec.operation, attempts: attempt, code: err.code, message: err.message })
          throw err
        }
        const wait = retryDelay(attempt, policy, random, err.retryAfterMs)
        debug({ type: 'retry', operation: spec.operation, attempt, delayMs: wait, code: err.code, message: err.message })
        try {
          await delay(wait, undefined, signal === undefined ? undefined : { signal })
        } catch {
          throw new MessagingAbortedError(MessagingErrorCodes.ABORTED, `${spec.operation}: aborted by the caller`, {
            operation: spec.operation,
            attempts: attempt,
            cause: err,
          })
        }
      }
    }
  }
}
