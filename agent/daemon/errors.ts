// Daemon errors with stable codes, never reused. The CLI prints `message` and exits 1 on any of them.

export const DaemonErrorCodes = {
  /** Another agent holds the single-instance lock of the state directory. */
  LOCKED: 'LOGX_DAEMON_ERR_LOCKED',
  /** The state directory or a state file in it cannot be used. */
  STATE: 'LOGX_DAEMON_ERR_STATE',
  /** The metrics server cannot listen. */
  LISTEN: 'LOGX_DAEMON_ERR_LISTEN',
  /** A source cannot be tailed (bad glob, unreadable checkpoint). */
  SOURCE: 'LOGX_DAEMON_ERR_SOURCE',
  /** The --tap file cannot be opened. */
  TAP: 'LOGX_DAEMON_ERR_TAP',
} as const

export type DaemonErrorCode = (typeof DaemonErrorCodes)[keyof typeof DaemonErrorCodes]

const brand = Symbol.for('logx.daemon.error')

export class DaemonError extends Error {
  readonly code: DaemonErrorCode

  constructor(code: DaemonErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'DaemonError'
    this.code = code
    Object.defineProperty(this, brand, { value: true })
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
