// One HTTP attempt with its timeout, cancellation and error classification. Every operation of both
// clients goes through createHttpCaller. It never retries: a failure comes back at once, saying
// whether trying again may help (`recoverable`), whether the far end may have acted (`ambiguous`)
// and how long the server asked to wait (`retryAfterMs`). Retrying is the caller's, the outbox's
// (agent/outbox): one layer owns the backoff, and an outbox attempt lasts at most one timeout.
// What it does keep is the server's Retry-After: until it passes, a call to that operation fails
// at once without a request (LOGX_MSG_ERR_RETRY_AFTER), whoever makes it.

import { monotonicMs } from '../monotonic-clock'
import { MAX_RESPONSE_BYTES, noResponse, readResponse } from './attempt-outcome'
import { MessagingAbortedError, MessagingApiError, MessagingErrorCodes, MessagingRateLimitError } from './errors'
import { clipBody, describeUrl, type Redactor } from './redact'
import { createRetryAfterHolds } from './retry-after'
import type { Exchange, IncomingResponse } from './transport'
import type { CallOptions, CallResult, CallSpec, DebugEvent } from './types'
import type { OperationName } from './wire'

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

/**
 * The event is built only when someone listens: masking the headers and redacting the body cost
 * more than the call's own bookkeeping.
 */
function debugHook(onDebug: ((event: DebugEvent) => void) | undefined): (event: () => DebugEvent) => void {
  return (event) => {
    if (onDebug === undefined) return
    try {
      onDebug(event())
    } catch {
      // A broken debug hook must not break delivery.
    }
  }
}

function maskHeaders(headers: Record<string, string>, secret: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) out[k] = secret.has(k.toLowerCase()) ? '[redacted]' : v
  return out
}

function failureEvent(operation: OperationName, failure: MessagingApiError): DebugEvent {
  return {
    type: 'failure',
    operation,
    code: failure.code,
    message: failure.message,
    recoverable: failure.recoverable,
    retryAfterMs: failure.retryAfterMs,
  }
}

export function createHttpCaller(options: HttpCallerOptions): HttpCaller {
  const { exchange, redact } = options
  const holds = createRetryAfterHolds()
  const debug = debugHook(options.onDebug)

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
      url: options.redact(describeUrl(spec.url, spec.secretUrl)),
      headers: maskHeaders(headers, options.secretHeaders),
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
      throw noResponse(redact, spec, err, timeoutMs, timeout.aborted, signal)
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
    return readResponse(redact, spec, response)
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
        debug(() => failureEvent(spec.operation, failure))
      }
      throw err
    }
  }
}
