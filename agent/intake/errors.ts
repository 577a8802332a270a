// Intake errors with stable codes, never reused. A decoder throws IntakeError with the HTTP status
// the sender gets and the field it is about; the sink rejects with IntakeBusyError when the outbox is
// past its bound (the sender is told when to come back).
import { CodedError, type CodedErrorOptions } from '../coded-error'

export const IntakeErrorCodes = {
  /** The payload is not what the intake takes; `field` names where (`[3].msg`, `alerts[0].labels`). */
  PAYLOAD: 'LOGX_INTAKE_ERR_PAYLOAD',
  /** The Content-Type is not one the intake decodes. */
  MEDIA_TYPE: 'LOGX_INTAKE_ERR_MEDIA_TYPE',
  /** The body is larger than `max_body` (after gzip is inflated too). */
  TOO_LARGE: 'LOGX_INTAKE_ERR_TOO_LARGE',
  /** The outbox is past its bound: retry after `retryAfterSeconds`. */
  BUSY: 'LOGX_INTAKE_ERR_BUSY',
  /** A listener cannot listen (address in use, bad certificate). */
  LISTEN: 'LOGX_INTAKE_ERR_LISTEN',
} as const

export type IntakeErrorCode = (typeof IntakeErrorCodes)[keyof typeof IntakeErrorCodes]

export interface IntakeErrorOptions extends CodedErrorOptions {
  /** The HTTP status the sender gets; 400 when not given. */
  status?: number
  /** Where in the payload, e.g. `[3].msg`; undefined when the error is about the whole request. */
  field?: string
}

export class IntakeError extends CodedError<IntakeErrorCode> {
  static override readonly brand: symbol = Symbol.for('logx.intake.error')
  readonly status: number
  readonly field: string | undefined

  /** The message says the field first when there is one: `[3].msg: expected a string`. */
  constructor(code: IntakeErrorCode, message: string, options: IntakeErrorOptions = {}) {
    super('IntakeError', code, options.field === undefined ? message : `${options.field}: ${message}`, options.cause)
    this.status = options.status ?? 400
    this.field = options.field
  }
}

/** A payload error at `field`: what a decoder throws for a bad item. */
export function payloadError(field: string, message: string): IntakeError {
  return new IntakeError(IntakeErrorCodes.PAYLOAD, message, { field })
}

/** The outbox is past its bound; nothing of the request was taken. */
export class IntakeBusyError extends IntakeError {
  static override readonly brand: symbol = Symbol.for('logx.intake.busy-error')
  readonly retryAfterSeconds: number

  constructor(retryAfterSeconds: number) {
    super(IntakeErrorCodes.BUSY, `the alert path is busy: retry after ${retryAfterSeconds} s`, { status: 503 })
    this.retryAfterSeconds = retryAfterSeconds
  }
}
