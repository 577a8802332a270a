// The only place alerting errors are defined. Codes are stable and never reused; across a
// worker-thread boundary match on `code`, not on the class. README.md lists every code.

export const AlertsErrorCodes = {
  /** A rule is malformed; `path` names the offending key (`rules[2].threshold.count`). */
  INVALID_RULE: 'LOGX_ALERT_ERR_INVALID_RULE',
  /** A duration is not a non-negative number of ms or a string like `30s`, `5m`, `1h`. */
  INVALID_DURATION: 'LOGX_ALERT_ERR_INVALID_DURATION',
  /** A template has an unclosed or empty placeholder. */
  INVALID_TEMPLATE: 'LOGX_ALERT_ERR_INVALID_TEMPLATE',
  /** A regular expression does not compile. */
  INVALID_REGEX: 'LOGX_ALERT_ERR_INVALID_REGEX',
  /** A silence is malformed (no matchers, bad expiry). */
  INVALID_SILENCE: 'LOGX_ALERT_ERR_INVALID_SILENCE',
  /** A channel definition is malformed or named twice. */
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
