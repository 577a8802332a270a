// The only place alerting errors are defined. Codes are stable and never reused; across a
// worker-thread boundary match on `code`, not on the class. README.md lists every code.

export const AlertsErrorCodes = {
  // Rules, channels and silences are checked where they are written (agent/config, whose codes
  // name each problem); the engine only refuses what it cannot run. Retired codes, never reused:
  // LOGX_ALERT_ERR_INVALID_DURATION, LOGX_ALERT_ERR_INVALID_REGEX, LOGX_ALERT_ERR_INVALID_SILENCE.
  /** Two rules share a name (`path` names the second: `rules[2].name`). */
  INVALID_RULE: 'LOGX_ALERT_ERR_INVALID_RULE',
  /** A template has an unclosed or empty placeholder. */
  INVALID_TEMPLATE: 'LOGX_ALERT_ERR_INVALID_TEMPLATE',
  /** Two channels share a name. */
  INVALID_CHANNEL: 'LOGX_ALERT_ERR_INVALID_CHANNEL',
} as const

export type AlertsErrorCode = (typeof AlertsErrorCodes)[keyof typeof AlertsErrorCodes]

const brand = Symbol.for('logx.alerts.error')

export class AlertsError extends Error {
  readonly code: AlertsErrorCode
  /** Dot path of the offending option or rule key. */
  readonly path: string

  constructor(code: AlertsErrorCode, path: string, message: string) {
    super(`${path}: ${message}`)
    this.name = 'AlertsError'
    this.code = code
    this.path = path
    Object.defineProperty(this, brand, { value: true })
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}
