// Every failure of the messaging client is a MessagingApiError with a stable code. Codes are never
// reused or renamed; across a worker-thread boundary match on `code`, not on the class.
// README.md in this folder documents each code (a test keeps the two in step).

import { CodedError } from '../coded-error'
import type { OperationName } from './wire'

export const MessagingErrorCodes = {
  /** Input rejected before anything was sent; `field` names the offending field. */
  VALIDATION: 'LOGX_MSG_ERR_VALIDATION',
  /** 401: missing or wrong `apikey` / `X-O-TOKEN`. */
  UNAUTHORIZED: 'LOGX_MSG_ERR_UNAUTHORIZED',
  /** 403: the credentials are valid but not allowed to do this. */
  FORBIDDEN: 'LOGX_MSG_ERR_FORBIDDEN',
  /** 400 or 422: the service rejected the request body or query. */
  BAD_REQUEST: 'LOGX_MSG_ERR_BAD_REQUEST',
  /** 404: unknown route, webhook or lead. */
  NOT_FOUND: 'LOGX_MSG_ERR_NOT_FOUND',
  /** Any other 4xx status. */
  CLIENT_STATUS: 'LOGX_MSG_ERR_CLIENT_STATUS',
  /** 429: rate limited; `retryAfterMs` carries Retry-After when the service sent one. */
  RATE_LIMITED: 'LOGX_MSG_ERR_RATE_LIMITED',
  /** 5xx. */
  SERVER: 'LOGX_MSG_ERR_SERVER',
  /** 2xx whose body says it failed (an `error` field, `success: false`, `status: "error"`). */
  REJECTED: 'LOGX_MSG_ERR_REJECTED',
  /** 2xx whose body claims to be JSON but does not parse, or lacks what the operation returns. */
  MALFORMED_RESPONSE: 'LOGX_MSG_ERR_MALFORMED_RESPONSE',
  /** Connection refused, reset or dropped. */
  NETWORK: 'LOGX_MSG_ERR_NETWORK',
  /** The per-attempt timeout elapsed. */
  TIMEOUT: 'LOGX_MSG_ERR_TIMEOUT',
  /** The caller's AbortSignal fired. */
  ABORTED: 'LOGX_MSG_ERR_ABORTED',
  /** Client options are unusable (bad base URL, negative timeout...). */
  INVALID_OPTION: 'LOGX_MSG_ERR_INVALID_OPTION',
  /**
   * Not sent: a Retry-After the server gave this operation (429, 503) has not passed; `retryAfterMs` is
   * what is left.
   */
  RETRY_AFTER: 'LOGX_MSG_ERR_RETRY_AFTER',
} as const

export type MessagingErrorCode = (typeof MessagingErrorCodes)[keyof typeof MessagingErrorCodes]

export interface MessagingErrorDetails {
  operation?: OperationName | undefined
  status?: number | undefined
  /** Response body as received (secrets scrubbed, truncated to 4 KiB). */
  rawBody?: string | undefined
  field?: string | undefined
  recoverable?: boolean
  ambiguous?: boolean
  retryAfterMs?: number | undefined
  attempts?: number
  cause?: unknown
}

export class MessagingApiError extends CodedError<MessagingErrorCode> {
  static override readonly brand = Symbol.for('logx.messaging.error')
  /** Codes an error must carry to count as an instance of this class (checked by brand, not prototype). */
  static readonly codes: ReadonlySet<MessagingErrorCode> = new Set(Object.values(MessagingErrorCodes))

  readonly operation: OperationName | undefined
  readonly status: number | undefined
  readonly rawBody: string | undefined
  readonly field: string | undefined
  /** Trying again later may succeed (network, timeout, 429, 5xx, malformed 2xx). */
  readonly recoverable: boolean
  /** The far end may have acted on the request although we saw a failure. */
  readonly ambiguous: boolean
  readonly retryAfterMs: number | undefined
  /** HTTP attempts made: 1, or 0 when nothing was tried (invalid input, aborted before sending).
   * A call is one attempt: retrying is the caller's (the outbox's). */
  readonly attempts: number

  constructor(code: MessagingErrorCode, message: string, details: MessagingErrorDetails = {}) {
    super(new.target.name, code, message, details.cause)
    this.operation = details.operation
    this.status = details.status
    this.rawBody = details.rawBody
    this.field = details.field
    this.recoverable = details.recoverable ?? false
    this.ambiguous = details.ambiguous ?? false
    this.retryAfterMs = details.retryAfterMs
    this.attempts = details.attempts ?? 0
  }

  // All classes here share one brand; the code tells them apart, so an error from another copy of
  // the package is still a MessagingTimeoutError (and not a MessagingNetworkError).
  static override [Symbol.hasInstance](value: unknown): boolean {
    return super[Symbol.hasInstance](value) && this.codes.has((value as { code: MessagingErrorCode }).code)
  }
}

export interface ValidationProblem {
  field: string
  message: string
}

export class MessagingValidationError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.VALIDATION])
  readonly problems: readonly ValidationProblem[]

  constructor(operation: OperationName | undefined, problems: readonly ValidationProblem[]) {
    const first = problems[0] ?? { field: '(input)', message: 'is invalid' }
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
    super(MessagingErrorCodes.VALIDATION, `${first.field}: ${first.message}${more}`, {
      operation,
      field: first.field,
    })
    this.problems = problems
  }
}

export class MessagingAuthError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([
    MessagingErrorCodes.UNAUTHORIZED,
    MessagingErrorCodes.FORBIDDEN,
  ])
}

export class MessagingRequestError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([
    MessagingErrorCodes.BAD_REQUEST,
    MessagingErrorCodes.NOT_FOUND,
    MessagingErrorCodes.CLIENT_STATUS,
  ])
}

export class MessagingRateLimitError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([
    MessagingErrorCodes.RATE_LIMITED,
    MessagingErrorCodes.RETRY_AFTER,
  ])
}

export class MessagingServerError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.SERVER])
}

export class MessagingRejectedError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.REJECTED])
}

export class MessagingMalformedResponseError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.MALFORMED_RESPONSE])
}

export class MessagingNetworkError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.NETWORK])
}

export class MessagingTimeoutError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.TIMEOUT])
}

export class MessagingAbortedError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.ABORTED])
}

export class MessagingOptionError extends MessagingApiError {
  static override readonly codes: ReadonlySet<MessagingErrorCode> = new Set([MessagingErrorCodes.INVALID_OPTION])
}

/** How far one HTTP attempt got before it failed below HTTP: `setup` = nothing left this process,
 * `connect` = no connection to the server was ever open (it cannot have seen the request),
 * `connected` = it may have. */
export type AttemptPhase = 'setup' | 'connect' | 'connected'

/**
 * One HTTP attempt that failed without a response (refused, reset, TLS, timeout, abort). Raised by
 * transport.ts and turned by http-call.ts into a MessagingApiError, which keeps it as `cause`: not a
 * MessagingApiError itself, and `code` is Node's (ECONNREFUSED...), not one of ours.
 */
export class HttpAttemptError extends Error {
  readonly phase: AttemptPhase
  /** The Node error code (ECONNREFUSED, ECONNRESET...), when there is one. */
  readonly code: string | undefined
  /**
   * The request went out on a pooled keep-alive socket and the connection was reset (or the write
   * failed) before any byte of an answer: the server was closing that idle socket, so the request
   * never reached it. connection.ts sends it again at once on another socket.
   */
  readonly staleSocket: boolean

  constructor(message: string, phase: AttemptPhase, code: string | undefined, cause?: unknown, staleSocket = false) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'HttpAttemptError'
    this.phase = phase
    this.code = code
    this.staleSocket = staleSocket
  }
}
