// Outbox errors with stable codes, never reused. Across a worker-thread boundary match on `code`.

export const OutboxErrorCodes = {
  /** An option is unusable; `path` names it. */
  INVALID_OPTION: 'LOGX_OUTBOX_ERR_INVALID_OPTION',
  /** The journal file cannot be read, written or compacted. */
  JOURNAL: 'LOGX_OUTBOX_ERR_JOURNAL',
  /** enqueue() after close(). */
  CLOSED: 'LOGX_OUTBOX_ERR_CLOSED',
} as const

export type OutboxErrorCode = (typeof OutboxErrorCodes)[keyof typeof OutboxErrorCodes]

const brand = Symbol.for('logx.outbox.error')

export class OutboxError extends Error {
  readonly code: OutboxErrorCode
  readonly path: string | undefined

  constructor(code: OutboxErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'OutboxError'
    this.code = code
    this.path = options.path
    Object.defineProperty(this, brand, { value: true })
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
