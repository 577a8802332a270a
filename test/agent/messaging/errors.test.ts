import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  MessagingApiError,
  MessagingAuthError,
  MessagingErrorCodes,
  MessagingRateLimitError,
  MessagingValidationError,
} from '../../../agent/messaging/errors'

describe('messaging errors', () => {
  it('has unique codes, each documented in agent/messaging/README.md', () => {
    const codes = Object.values(MessagingErrorCodes)
    expect(new Set(codes).size).toBe(codes.length)
    const readme = readFileSync(join(__dirname, '../../../agent/messaging/README.md'), 'utf8')
    for (const code of codes) expect(readme, `${code} missing from README`).toContain(code)
  })

  it('matches instanceof by code, so the hierarchy survives package copies', () => {
    const auth = new MessagingAuthError(MessagingErrorCodes.UNAUTHORIZED, 'x', { status: 401 })
    expect(auth).toBeInstanceOf(MessagingApiError)
    expect(auth).toBeInstanceOf(MessagingAuthError)
    expect(auth).not.toBeInstanceOf(MessagingRateLimitError)
    expect(auth.name).toBe('MessagingAuthError')
    // A look-alike from another copy: same brand symbol, same code.
    const copy = Object.defineProperty({ code: 'LOGX_MSG_ERR_UNAUTHORIZED' }, Symbol.for('logx.messaging.error'), {
      value: true,
    })
    expect(copy).toBeInstanceOf(MessagingAuthError)
  })

  it('names the first field and counts the rest', () => {
    const err = new MessagingValidationError('send_sms', [
      { field: 'numbers', message: 'must not be empty' },
      { field: 'sms', message: 'must not be empty' },
    ])
    expect(err.message).toBe('numbers: must not be empty (and 1 more)')
    expect(err.field).toBe('numbers')
    expect(err.recoverable).toBe(false)
  })
})
