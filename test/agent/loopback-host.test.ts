// The Host allow-list shared by the console, the sandbox and the metrics server: which listen
// addresses are loopback (rule 1) and which Host headers a loopback server answers (rule 2).

import { describe, expect, it } from 'vitest'
import { hostHeaderAllowed, isLoopbackHost } from '../../agent/loopback-host'

describe('isLoopbackHost (rule 1)', () => {
  it('knows loopback addresses from the others', () => {
    const loopback = ['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1']
    for (const host of [...loopback, '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true)
    const others = ['0.0.0.0', '::', '::2', '10.0.0.1', '128.0.0.1', '127.0.0.300', 'localhost.example']
    for (const host of [...others, '127.0.0.1.example']) expect(isLoopbackHost(host), host).toBe(false)
  })
})

describe('hostHeaderAllowed (rule 2)', () => {
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
