// The console's access decisions, pure: the constant-time token check and what each route needs
// (the Host allow-list is test/agent/loopback-host.test.ts).

import { describe, expect, it } from 'vitest'
import { bearerOf, createTokenCheck, credentialNeeded } from '../../../../agent/daemon/console/auth'

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
  it('reads the credential of a Bearer header only', () => {
    expect(bearerOf('Bearer abc')).toBe('abc')
    expect(bearerOf('Basic abc')).toBeUndefined()
    expect(bearerOf(undefined)).toBeUndefined()
  })
})

describe('credentialNeeded', () => {
  it('2. the page needs none', () => {
    expect(credentialNeeded('page')).toBe('none')
  })
  it('3. every other /api route, reading included, needs the token or a session', () => {
    for (const kind of ['incidents', 'incident', 'action', 'silences', 'silence', 'people', 'schedules'] as const)
      expect(credentialNeeded(kind), kind).toBe('any')
  })
  it('4. logging in and the identity proof need none', () => {
    expect(credentialNeeded('login')).toBe('none')
    expect(credentialNeeded('identity')).toBe('none')
  })
  it('5. a login code needs the token itself', () => {
    expect(credentialNeeded('login-code')).toBe('token')
  })
})
