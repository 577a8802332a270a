// One HTTP attempt with its timeout, cancellation and error classification. Every operation of both
// clients goes through createHttpCaller. It never retries: a failure comes back at once, saying
// whether trying again may help (`recoverable`), whether the far end may have acted (`ambiguous`)
// and how long the server asked to wait (`retryAfterMs`). Retrying is the caller's, the outbox's
// (agent/outbox): one layer owns the backoff, and an outbox attempt lasts at most one timeout.
// What it does keep is the server's Retry-After: until it passes, a call to that operation fails
// at once without a request (LOGX_MSG_ERR_RETRY_AFTER), whoever makes it.

import { monotonicMs } from '../monotonic-clock'
import {
  MessagingAbortedError,
  MessagingApiError,
  MessagingAuthError,
  MessagingErrorCodes,
  HttpAttemptError,
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
import { createRetryAfterHolds, parseRetryAfter } from './retry-after'
import { CLIENT_CLOSED, type Exchange, type IncomingResponse } from './transport'
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
  /** The operation changes state remotely: a failure after the request left is `ambiguous`. */
  sends: boolean
}

export interface CallOptions {
  /** Cancels the call (its one HTTP attempt). */
  signal?: AbortSignal
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number
  /**
   * Sent as the `Idempotency-Key` header of a send (the caller repeats it on every retry), so the far end can
   * tell a resend of one notification from a new one. The spec does not name the header: an API
   * that ignores it loses nothing; the sandbox records it.
   */
  idempotencyKey?: string
}

export interface CallResult {
  status: number
  body: ParsedBody
}

/** What the optional debug hook sees. Secret headers are masked and secret URLs reduced to their origin. */
export type DebugEvent =
  | {
      type: 'request'
      operation: OperationName
      method: HttpMethod
      url: string
      headers: Record<string, string>
    }
  | { type: 'response'; operation: OperationName; status: number; durationMs: number; body: string }
  | {
      type: 'failure'
      operation: OperationName
      code: string
      message: string
      recoverable: boolean
      retryAfterMs: number | undefined
    }

export interface HttpCallerOptions {
  /** Carries one attempt over the wire (connection.ts binds it to the keep-alive agents). */
  exchange: Exchange
  userAgent: string
  timeoutMs: number
  redact: Redactor
  /** Header names whose values are secrets. Lower case. */
  secretHeaders: ReadonlySet<string>
  onDebug?: ((event: DebugEvent) => void) | undefined
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
  const base = { operation, status, rawBody, field, attempts: 1 }
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
  const holds = createRetryAfterHolds()

  /** The event is built only when someone listens: masking the headers and redacting the body cost more than the call's own bookkeeping. */
  function debug(event: () => DebugEvent): void {
    if (onDebug === undefined) return
    try {
      onDebug(event())
    } catch {
      // A broken debug hook must not break delivery.
    }
  }

  function maskedHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) out[k] = options.secretHeaders.has(k.toLowerCase()) ? '[redacted]' : v
    return out
  }

  /** The error for an attempt that got no response: who ended it, and how far it got. */
  function noResponse(
    spec: CallSpec,
    err: unknown,
    timeoutMs: number,
    timedOut: boolean,
    signal: AbortSignal | undefined,
  ): MessagingApiError {
    const where = describeUrl(spec.url, spec.secretUrl)
    const failure =
      err instanceof HttpAttemptError ? err : new HttpAttemptError(String(err), 'connected', undefined, err)
    const code = failure.code
    const reason = redact(failure.message)
    const base = { operation: spec.operation, attempts: 1, cause: err }
    if (signal?.aborted === true) {
      return new MessagingAbortedError(MessagingErrorCodes.ABORTED, `${spec.operation}: aborted by the caller`, {
        ...base,
        ambiguous: spec.sends,
      })
    }
    if (timedOut) {
      // Still connecting when the time ran out: the request never left, so even a send may be repeated.
      return new MessagingTimeoutError(
        MessagingErrorCodes.TIMEOUT,
        `${spec.operation}: no complete response from ${where} within ${timeoutMs} ms`,
        { ...base, recoverable: true, ambiguous: failure.phase === 'connected' },
      )
    }
    if (code === CLIENT_CLOSED) {
      return new MessagingNetworkError(MessagingErrorCodes.NETWORK, `${spec.operation}: the client is closed`, base)
    }
    if (failure.phase === 'setup') {
      // Node refused to build the request (a header value it cannot send, an agent for the other
      // protocol): trying again cannot change that.
      return new MessagingOptionError(
        MessagingErrorCodes.INVALID_OPTION,
        `${spec.operation}: the request to ${where} cannot be sent: ${code === undefined ? '' : `${code} `}${reason}`,
        base,
      )
    }
    return new MessagingNetworkError(
      MessagingErrorCodes.NETWORK,
      `${spec.operation}: network error talking to ${where}: ${code === undefined ? '' : `${code} `}${reason}`,
      {
        ...base,
        recoverable: true,
        ambiguous: failure.phase === 'connected' && (code === undefined || !CONNECT_PHASE_CODES.has(code)),
      },
    )
  }

  /** Success, or the error a response says it is (status, a 2xx reporting failure, a broken body). */
  function readResponse(spec: CallSpec, response: IncomingResponse): CallResult {
    const { status, text } = response
    const rawBody = (): string => redact(clipBody(text))
    if (response.truncated && status >= 200 && status < 300) {
      // A 2xx whose body was cut cannot be read; asking again would fetch the same flood.
      throw new MessagingMalformedResponseError(
        MessagingErrorCodes.MALFORMED_RESPONSE,
        `${spec.operation}: HTTP ${status} with a body over ${MAX_RESPONSE_BYTES} bytes, not read`,
        { operation: spec.operation, status, rawBody: rawBody(), ambiguous: true, attempts: 1 },
      )
    }
    const outcome = detectOutcome(status, text, firstHeader(response.headers['content-type']))
    if (outcome.ok) return { status, body: outcome.body }
    if (outcome.reason === 'status') {
      const retryAfter = firstHeader(response.headers['retry-after'])
      throw statusError(spec.operation, status, text, outcome.message, outcome.field, retryAfter, redact)
    }
    if (outcome.reason === 'malformed') {
      throw new MessagingMalformedResponseError(
        MessagingErrorCodes.MALFORMED_RESPONSE,
        `${spec.operation}: HTTP ${status} with a body that is neither valid JSON nor plain text`,
        { operation: spec.operation, status, rawBody: rawBody(), recoverable: true, ambiguous: true, attempts: 1 },
      )
    }
    const detail = outcome.message === undefined ? 'the response body reports a failure' : redact(outcome.message)
    throw new MessagingRejectedError(MessagingErrorCodes.REJECTED, `${spec.operation}: HTTP ${status} but ${detail}`, {
      operation: spec.operation,
      status,
      rawBody: rawBody(),
      field: outcome.field,
      attempts: 1,
    })
  }

  async function attempt(spec: CallSpec, timeoutMs: number, signal: AbortSignal | undefined): Promise<CallResult> {
    if (signal?.aborted === true) {
      throw new MessagingAbortedError(MessagingErrorCodes.ABORTED, `${spec.operation}: aborted by the caller`, {
        operation: spec.operation,
      })
    }
    // A setTimeout cleared on completion, not AbortSignal.timeout(): that one's timer stays pending
    // until it fires, so a busy client would carry thousands of dead timers and signals.
    const timeoutController = new AbortController()
    const timer = setTimeout(() => timeoutController.abort(), timeoutMs)
    const timeout = timeoutController.signal
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
    const headers = {
      'user-agent': options.userAgent,
      accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
      ...spec.headers,
    }
    debug(() => ({
      type: 'request',
      operation: spec.operation,
      method: spec.method,
      url: describeUrl(spec.url, spec.secretUrl),
      headers: maskedHeaders(headers),
    }))
    const started = monotonicMs()
    let response: IncomingResponse
    try {
      response = await exchange({
        url: spec.url,
        method: spec.method,
        headers,
        body: spec.body,
        signal: combined,
        maxBodyBytes: MAX_RESPONSE_BYTES,
      })
    } catch (err) {
      throw noResponse(spec, err, timeoutMs, timeout.aborted, signal)
    } finally {
      clearTimeout(timer)
    }
    const durationMs = monotonicMs() - started
    debug(() => ({
      type: 'response',
      operation: spec.operation,
      status: response.status,
      durationMs,
      body: redact(clipBody(response.text)),
    }))
    return readResponse(spec, response)
  }

  return async function call(spec, callOptions = {}) {
    try {
      const left = holds.left(spec.operation, Date.now())
      if (left !== undefined) {
        // The server's wait for this operation is still on: refused here, nothing sent.
        throw new MessagingRateLimitError(
          MessagingErrorCodes.RETRY_AFTER,
          `${spec.operation}: not sent: the server asked to wait ${left} ms more (Retry-After)`,
          { operation: spec.operation, recoverable: true, retryAfterMs: left },
        )
      }
      return await attempt(spec, callOptions.timeoutMs ?? options.timeoutMs, callOptions.signal)
    } catch (err) {
      if (err instanceof MessagingApiError) {
        if (err.attempts > 0 && err.retryAfterMs !== undefined) holds.hold(spec.operation, err.retryAfterMs, Date.now())
        const failure = err
        debug(() => ({
          type: 'failure',
          operation: spec.operation,
          code: failure.code,
          message: failure.message,
          recoverable: failure.recoverable,
          retryAfterMs: failure.retryAfterMs,
        }))
      }
      throw err
    }
  }
}
