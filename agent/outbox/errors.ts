// Outbox errors with stable codes, never reused. Across a worker-thread boundary match on `code`.

import { pathErrorClass, type PathErrorOptions } from '../coded-error'

export const OutboxErrorCodes = {
  /** An option is unusable; `path` names it. */
  INVALID_OPTION: 'LOGX_OUTBOX_ERR_INVALID_OPTION',
  /** The journal file cannot be read, written or compacted. */
  JOURNAL: 'LOGX_OUTBOX_ERR_JOURNAL',
  /** enqueue() after close(). */
  CLOSED: 'LOGX_OUTBOX_ERR_CLOSED',
  /** The journal file is the journal of another outbox of this process; `holder` names its owner. */
  IN_USE: 'LOGX_OUTBOX_ERR_IN_USE',
} as const

export type OutboxErrorCode = (typeof OutboxErrorCodes)[keyof typeof OutboxErrorCodes]

export class OutboxError extends pathErrorClass<OutboxErrorCode>('OutboxError', 'logx.outbox.error') {
  /** IN_USE: the owner the journal belongs to. */
  readonly holder: string | undefined

  constructor(code: OutboxErrorCode, message: string, options: PathErrorOptions & { holder?: string } = {}) {
    super(code, message, options)
    this.holder = options.holder
  }
}
