// Every error the logger throws is a LogxError with a stable code. Codes are never reused.
// Across a worker-thread boundary match on `code`, not on the class.

export const LogxErrorCodes = {
  /** A level name or value that is not in the logger's level table. */
  UNKNOWN_LEVEL: 'LOGX_ERR_UNKNOWN_LEVEL',
  /** `level` (or a child's level) is not among the custom levels. */
  DEFAULT_LEVEL_NOT_FOUND: 'LOGX_ERR_DEFAULT_LEVEL_NOT_FOUND',
  /** A custom level redefines a built-in name or reuses an existing value. */
  LEVEL_COLLISION: 'LOGX_ERR_LEVEL_COLLISION',
  /** An option has the wrong type or an impossible value. */
  INVALID_OPTION: 'LOGX_ERR_INVALID_OPTION',
  /** `transport` and a destination argument were both given. */
  TRANSPORT_AND_DESTINATION: 'LOGX_ERR_TRANSPORT_AND_DESTINATION',
  /** `child()` called without bindings. */
  MISSING_BINDINGS: 'LOGX_ERR_MISSING_BINDINGS',
  /** A redact path that cannot be parsed. */
  INVALID_REDACT_PATH: 'LOGX_ERR_INVALID_REDACT_PATH',
  /** The destination is not writable (no `write` method). */
  INVALID_DESTINATION: 'LOGX_ERR_INVALID_DESTINATION',
  /** A transport target could not be found or loaded. */
  TRANSPORT_TARGET_NOT_FOUND: 'LOGX_ERR_TRANSPORT_TARGET_NOT_FOUND',
  /** A transport option is malformed (no target, both target and targets...). */
  INVALID_TRANSPORT: 'LOGX_ERR_INVALID_TRANSPORT',
  /** The transport's worker thread failed or exited unexpectedly. */
  TRANSPORT_FAILED: 'LOGX_ERR_TRANSPORT_FAILED',
  /** A multistream entry is not a stream or has an unknown level. */
  INVALID_STREAM: 'LOGX_ERR_INVALID_STREAM',
} as const

export type LogxErrorCode = (typeof LogxErrorCodes)[keyof typeof LogxErrorCodes]

const brand = Symbol.for('logx.error')

export class LogxError extends Error {
  readonly code: LogxErrorCode
  /** The option or path the error is about, when there is one (e.g. `customLevels.foo`). */
  readonly path: string | undefined

  constructor(code: LogxErrorCode, message: string, path?: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LogxError'
    this.code = code
    this.path = path
    Object.defineProperty(this, brand, { value: true })
  }

  /** `instanceof` that also recognizes errors from another copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
