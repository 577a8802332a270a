// Transport errors with stable codes, never reused. A bad option fails the target at start, with
// the target and the option named; across the worker boundary match on `code`.

import { CodedError } from '../../coded-error'

export const TransportErrorCodes = {
  /** An option is missing or malformed; `option` names it (`numbers`, `rules[0].level`). */
  INVALID_OPTION: 'LOGX_TRANSPORT_ERR_INVALID_OPTION',
  /** A state file (the outbox journal, the lead map in `stateDir`) cannot be used; `option` names it. */
  STATE: 'LOGX_TRANSPORT_ERR_STATE',
} as const

export type TransportErrorCode = (typeof TransportErrorCodes)[keyof typeof TransportErrorCodes]

/**
 * Codes of the deprecation warnings (`process.emitWarning`) a target's options give; stable, never
 * reused. Rule keys and forms have theirs in agent/config (`LOGX_DEP_RULE_KEY`, `LOGX_DEP_VALUE_FORM`).
 */
export const TransportWarningCodes = {
  /** `retry` (the messaging client's retries) is accepted and ignored: the outbox retries. */
  RETRY_OPTION: 'LOGX_DEP_RETRY_OPTION',
} as const

export class TransportError extends CodedError<TransportErrorCode> {
  static override readonly brand = Symbol.for('logx.transport.error')
  readonly target: string
  readonly option: string | undefined

  constructor(
    code: TransportErrorCode,
    target: string,
    message: string,
    options: { option?: string; cause?: unknown } = {},
  ) {
    super('TransportError', code, `${target}: ${message}`, options.cause)
    this.target = target
    this.option = options.option
  }
}

/** `logx-sms-alert: options.numbers: is required (...)`. */
export function optionError(target: string, option: string, message: string, cause?: unknown): TransportError {
  return new TransportError(TransportErrorCodes.INVALID_OPTION, target, `options.${option}: ${message}`, {
    option,
    cause,
  })
}
