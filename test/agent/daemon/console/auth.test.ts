// The console's access decisions, pure: which listen addresses are loopback, which Host headers a
// loopback console answers, and the constant-time token check.

import { describe, expect, it } from 'vitest'
import { createTokenCheck, hostHeaderAllowed, isLoopbackHost, needsToken } from '../../../../agent/daemon/console/auth'

describe('isLoopbackHost', () => {
  it('knows loopback addresses from the others', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'localhost.example', '127.0.0.1.example'])
      expect(isLoopbackHost(host), host).toBe(false)
  })
})

describe('hostHeaderAllowed', () => {
  it('takes loopback names with the port, and port 80 when the header has none', () => {
    expect(hostHeaderAllowed('127.0.0.1:9464', 9464)).toBe(true)
    expect(hostHeaderAllowed('[::1]:9464', 9464)).toBe(true)
    expect(hostHeaderAllowed('localhost', 80)).toBe(true)
    expect(hostHeaderAllowed('localhost', 9464)).toBe(false)
    expect(hostHeaderAllowed('127.0.0.1:80', 9464)).toBe(false)
  })

  it('refuses other names, a missing header, and look-alikes', () => {
    for (const host of [
      undefined,
      '',
      'evil.example:9464',
      '127.0.0.1.nip.io:9464',
      '::1:9464',
      'localhost:9464:1',
      ' localhost:9464',
      '127.0.0.1:09464x',
    ]) {
      expect(hostHeaderAllowed(host, 9464), String(host)).toBe(false)
    }
  })
})

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
