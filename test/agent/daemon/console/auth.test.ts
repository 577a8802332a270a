// The console's access decisions, pure: the constant-time token check and when a token is needed
// (the Host allow-list is test/agent/loopback-host.test.ts).

import { describe, expect, it } from 'vitest'
import { createTokenCheck, needsToken } from '../../../../agent/daemon/console/auth'

describe('createTokenCheck', () => {
  const check = createTokenCheck('s3cret-token-value')
  it('takes "Bearer <token>" in any case, nothing else', () => {
    expect(check('Bearer s3cret-token-value')).toBe(true)
    expect(check('bearer s3cret-token-value')).toBe(true)
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      's3cret-token-value',
      'Basic s3cret-token-value',
      'Bearer s3cret-token-valuex',
      'Bearer s3cret-token-valu',
      'Bearer s3cret-token-value extra',
    ]) {
      expect(check(header), String(header)).toBe(false)
    }
  })
})

describe('needsToken', () => {
  it('always with a configured token; with a generated one, only to change things', () => {
    expect(['GET', 'HEAD', 'POST', 'DELETE'].map((m) => needsToken(m, false))).toEqual([true, true, true, true])
    expect(['GET', 'HEAD', 'POST', 'DELETE'].map((m) => needsToken(m, true))).toEqual([false, false, true, true])
  })
})
