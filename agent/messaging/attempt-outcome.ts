// What one attempt's end means, pure: the error for an attempt that got no response, and success or
// the error a response says it is. http-call.ts makes the attempt; this decides. `recoverable`: trying
// again may help; `ambiguous`: the far end may have acted.
// No response (noResponse), in this order:
// 1. the caller aborted: ABORTED, ambiguous for a send;
// 2. the timeout ran out: TIMEOUT, recoverable, ambiguous unless it was still connecting;
// 3. the client was closed: NETWORK, not recoverable;
// 4. Node refused to build the request (setup): INVALID_OPTION, not recoverable;
// 5. anything else: NETWORK, recoverable, ambiguous once connected unless the code is a connect-phase one.
// A response (readResponse):
// 6. a 2xx whose body was cut at MAX_RESPONSE_BYTES: MALFORMED_RESPONSE, not recoverable (the same
//    flood would come again), ambiguous;
// 7. a failing status: its class by status (statusError: 401, 403, 400/422, 404, 429 with Retry-After,
//    408 recoverable, 5xx recoverable and ambiguous except 503, which carries its Retry-After);
// 8. a body neither JSON nor text: MALFORMED_RESPONSE, recoverable, ambiguous;
// 9. a 2xx whose body reports failure: REJECTED; anything else is success.
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
import { detectOutcome } from './outcome'
import { clipBody, describeUrl, type Redactor } from './redact'
import { parseRetryAfter } from './retry-after'
import { CLIENT_CLOSED, type IncomingResponse } from './transport'
import type { CallResult, CallSpec } from './types'
import type { OperationName } from './wire'

/** Bodies past this are not read: no API response of the spec comes near it, and a daemon's memory
 * must not follow whatever a proxy or a broken server decides to send. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024

// Failing before the connection exists means the far end never saw the request: safe to repeat.
// The transport also reports the phase (no socket was open yet); these codes say it on their own.
const CONNECT_PHASE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

export function statusError(
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

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The error for an attempt that got no response: who ended it, and how far it got. */
export function noResponse(
  redact: Redactor,
  spec: CallSpec,
  err: unknown,
  timeoutMs: number,
  timedOut: boolean,
  signal: AbortSignal | undefined,
): MessagingApiError {
  // A configured secret pasted into the base URL's path is masked like anywhere else.
  const where = redact(describeUrl(spec.url, spec.secretUrl))
  const failure = err instanceof HttpAttemptError ? err : new HttpAttemptError(String(err), 'connected', undefined, err)
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
export function readResponse(redact: Redactor, spec: CallSpec, response: IncomingResponse): CallResult {
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
