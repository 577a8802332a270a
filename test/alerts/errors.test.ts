import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AlertsError, AlertsErrorCodes } from '../../alerts/errors'

describe('alerts errors', () => {
  it('every code is documented in alerts/README.md', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'alerts', 'README.md'), 'utf8')
    for (const code of Object.values(AlertsErrorCodes)) expect(readme).toContain(`\`${code}\``)
  })

  it('codes are unique and instanceof works by brand', () => {
    const codes = Object.values(AlertsErrorCodes)
    expect(new Set(codes).size).toBe(codes.length)
    const err = new AlertsError(AlertsErrorCodes.INVALID_RULE, 'rules[0]', 'bad')
    expect(err.message).toBe('rules[0]: bad')
    expect(Object.assign(Object.create(null), { [Symbol.for('logx.alerts.error')]: true }) instanceof AlertsError).toBe(
      true,
    )
    expect(new Error('x') instanceof AlertsError).toBe(false)
  })
})
