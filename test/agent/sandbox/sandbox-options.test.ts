import { describe, expect, it } from 'vitest'
import { SandboxError } from '../../../agent/sandbox/errors'
import {
  DEFAULT_API_KEY,
  remoteRefusal,
  resolveSandboxOptions,
  sandboxInfo,
  urlHost,
} from '../../../agent/sandbox/sandbox-options'

const rejects = (options: Parameters<typeof resolveSandboxOptions>[0], path: string): void => {
  expect(() => resolveSandboxOptions(options)).toThrow(SandboxError)
  expect(() => resolveSandboxOptions(options)).toThrow(new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}`))
}

describe('sandbox options', () => {
  it('1: take their defaults when not given', () => {
    expect(resolveSandboxOptions({})).toEqual({
      host: '127.0.0.1',
      port: 0,
      apiKey: DEFAULT_API_KEY,
      activityToken: 'sandbox-activity-token',
      leadAccount: 'sandbox',
      retention: 10_000,
      maxRecordBytes: 64 * 1024,
      maxStoreBytes: 32 * 1024 * 1024,
      loopback: true,
      faults: [],
    })
  })

  it('2: a port is an integer from 0 to 65535', () => {
    rejects({ port: 65_536 }, 'port')
    rejects({ port: 1.5 }, 'port')
    expect(resolveSandboxOptions({ port: 65_535 }).port).toBe(65_535)
  })

  it('3: the API key and the activity token are not empty', () => {
    rejects({ apiKey: '' }, 'apiKey')
    rejects({ activityToken: '' }, 'activityToken')
  })

  it('4: the lead account is URL-safe', () => {
    rejects({ leadAccount: 'a/b' }, 'leadAccount')
    expect(resolveSandboxOptions({ leadAccount: 'acme_1.x-~' }).leadAccount).toBe('acme_1.x-~')
  })

  it('5: retention is a positive integer', () => {
    rejects({ retention: 0 }, 'retention')
    rejects({ retention: 2.5 }, 'retention')
  })

  it('6: each fault rule is parsed, named by its index', () => {
    rejects({ faults: [{ kind: 'error', status: 500 }, { kind: 'nonsense' }] }, 'faults[1]')
    expect(resolveSandboxOptions({ faults: [{ kind: 'error', status: 500 }] }).faults).toHaveLength(1)
  })

  it('7: a host that is not loopback is refused unless allowed, naming the key and the flag', () => {
    for (const host of ['0.0.0.0', '::', '', '192.168.1.20']) {
      rejects({ host }, 'host')
      expect(() => resolveSandboxOptions({ host })).toThrow(remoteRefusal(host))
      expect(resolveSandboxOptions({ host, allowRemote: true }).loopback).toBe(false)
    }
    expect(remoteRefusal('0.0.0.0')).toMatch(/--allow-remote.*messaging\.sandbox\.allow_remote: true/)
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
      expect(resolveSandboxOptions({ host }).loopback, host).toBe(true)
    }
  })

  it('8: the record and store caps are positive integers, the record cap at most the store cap', () => {
    rejects({ maxRecordBytes: 0 }, 'maxRecordBytes')
    rejects({ maxStoreBytes: 1.5 }, 'maxStoreBytes')
    rejects({ maxRecordBytes: 2048, maxStoreBytes: 1024 }, 'maxRecordBytes')
    expect(resolveSandboxOptions({ maxRecordBytes: 1024, maxStoreBytes: 1024 }).maxStoreBytes).toBe(1024)
  })
})

describe('announced URLs', () => {
  it('9: a wildcard host is announced as 127.0.0.1, an IPv6 one bracketed, the real address beside', () => {
    expect(urlHost('0.0.0.0')).toBe('127.0.0.1')
    expect(urlHost('::')).toBe('127.0.0.1')
    expect(urlHost('::1')).toBe('[::1]')
    const info = sandboxInfo(resolveSandboxOptions({ host: '::1', leadAccount: 'acme' }), 4010, undefined, '1.2.3')
    expect(info.baseUrl).toBe('http://[::1]:4010')
    expect(info.leadWebhookUrl.startsWith('http://[::1]:4010/')).toBe(true)
    expect(info.leadWebhookUrl.endsWith('acme')).toBe(true)
    expect(info.dataDir).toBeNull()
    expect(info).toMatchObject({ listening: '[::1]:4010', remote: false })
    const wild = sandboxInfo(resolveSandboxOptions({ host: '0.0.0.0', allowRemote: true }), 4010, undefined, '1')
    expect(wild).toMatchObject({ listening: '0.0.0.0:4010', remote: true, baseUrl: 'http://127.0.0.1:4010' })
  })
})
