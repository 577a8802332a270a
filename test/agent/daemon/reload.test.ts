// One test per rule of restartOnly (agent/daemon/reload.ts): what a reload keeps until a restart.
import { describe, expect, it } from 'vitest'
import type { AgentConfig } from '../../../agent/config/types'
import { restartOnly } from '../../../agent/daemon/reload'

const base = {
  messaging: { mode: 'sandbox', listen: { host: '127.0.0.1', port: 4010 } },
  stateDir: '/var/lib/logx',
  cluster: undefined,
  rules: [],
} as unknown as AgentConfig
const remote = (baseUrl: string) => ({ ...base, messaging: { mode: 'remote', baseUrl } }) as unknown as AgentConfig

describe('restartOnly', () => {
  it('says nothing when only what a reload applies changed', () => {
    expect(restartOnly(base, { ...base, rules: [{ name: 'new' }] } as unknown as AgentConfig)).toEqual([])
  })

  it("1. names messaging when the sandbox's address or the API's base URL changed", () => {
    const moved = { ...base, messaging: { mode: 'sandbox', listen: { host: '127.0.0.1', port: 4011 } } }
    expect(restartOnly(base, moved as unknown as AgentConfig)).toEqual(['messaging'])
    expect(restartOnly(remote('https://a.example'), remote('https://b.example'))).toEqual(['messaging'])
    expect(restartOnly(base, remote('https://a.example'))).toEqual(['messaging'])
  })

  it('2. names state_dir when it changed', () => {
    expect(restartOnly(base, { ...base, stateDir: '/srv/logx' })).toEqual(['state_dir'])
  })

  it('3. names cluster on any change of it', () => {
    const cluster = { url: 'redis://r:6379', password: '[secret]' }
    const next = { ...base, cluster } as unknown as AgentConfig
    expect(restartOnly(base, next)).toEqual(['cluster'])
    expect(
      restartOnly(next, { ...base, cluster: { ...cluster, url: 'redis://s:6379' } } as unknown as AgentConfig),
    ).toEqual(['cluster'])
  })
})
