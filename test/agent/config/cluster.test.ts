// The `cluster:` section: what a fleet agent connects to Redis with. Real files for the password and
// the TLS material, read at load; every bad value is a problem naming its key path, and the password
// never shows in a message or in the printed config.
import { readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  ConfigErrorCodes,
  formatProblem,
  parseAgentConfig,
  type AgentConfig,
  type ConfigProblem,
} from '../../../agent/config'
import { agentShape } from '../../../agent/config/shape/agent-shape'
import { agentIdOf } from '../../../agent/config/normalize/cluster'
import type { ObjectShape, Shape } from '../../../agent/config/shape/shape'
import type { ClusterInput, ClusterRedisInput, ClusterTlsInput } from '../../../agent/config/shape/written-types'
import { fixtures } from './helpers'
import { suiteTempDir } from '../../helpers/temp-dir'

const PASSWORD = 'redis-pw-7d1f'
const URL_PASSWORD = 'url-pw-93ac'
const KEY_PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEAq\n-----END PRIVATE KEY-----'
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAV2gAwIBAgIUca\n-----END CERTIFICATE-----'
const CERT_PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAV2gAwIBAgIUcert\n-----END CERTIFICATE-----'

const dir = suiteTempDir('cluster-config')

beforeAll(() => {
  writeFileSync(join(dir, 'redis-password'), `${PASSWORD}\n`)
  writeFileSync(join(dir, 'ca.pem'), `${CA_PEM}\n`)
  writeFileSync(join(dir, 'client.pem'), `${CERT_PEM}\n`)
  writeFileSync(join(dir, 'client.key'), `${KEY_PEM}\n`)
})

const BASE = `sources:
  - name: app
    paths: ./logs/*.log
channels:
  sms: { type: sms, numbers: [919800000001] }
`

type Parsed = { ok: true; config: AgentConfig } | { ok: false; problems: ConfigProblem[] }

function parse(cluster: string, env: Record<string, string> = {}): Parsed {
  return parseAgentConfig(`${BASE}${cluster}`, 'agent.yaml', { env, cwd: dir })
}

function load(cluster: string, env: Record<string, string> = {}): AgentConfig {
  const result = parse(cluster, env)
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config
}

function problems(cluster: string, env: Record<string, string> = {}): ConfigProblem[] {
  const result = parse(cluster, env)
  expect(result.ok, 'the config should be refused').toBe(false)
  return result.ok ? [] : result.problems
}

/** The one problem, as `path: message`, with its code. */
function only(cluster: string, env: Record<string, string> = {}): { code: string; text: string } {
  const found = problems(cluster, env)
  expect(found.map(formatProblem)).toHaveLength(1)
  const [p] = found
  return { code: p?.code ?? '', text: `${p?.path}: ${p?.message}` }
}

describe('a full cluster section', () => {
  const full = `cluster:
  agent_id: web-1.eu
  redis:
    url: \${REDIS_URL}
    key_prefix: "shop:"
    username: logx
    password_file: redis-password
    tls:
      ca_file: ca.pem
      cert_file: client.pem
      key_file: client.key
      reject_unauthorized: false
  lease: 45s
  heartbeat: 500ms
  flush: 1s
  command_timeout: 250ms
`

  it('normalizes to the ClusterConfig the cluster module takes, files read at load', () => {
    const config = load(full, { REDIS_URL: 'rediss://10.0.0.5:6380/2' })
    const cluster = config.cluster
    expect(cluster).toBeDefined()
    if (cluster === undefined) return
    const { password, tls, ...redis } = cluster.redis
    expect({ ...cluster, redis }).toEqual({
      agentId: 'web-1.eu',
      redis: { url: 'rediss://10.0.0.5:6380/2', keyPrefix: 'shop:', username: 'logx' },
      leaseMs: 45_000,
      heartbeatMs: 500,
      flushMs: 1000,
      commandTimeoutMs: 250,
    })
    // Trailing newlines dropped, as for every secret file.
    expect(password?.reveal()).toBe(PASSWORD)
    expect(tls?.key?.reveal()).toBe(KEY_PEM)
    expect({ ...tls, key: undefined }).toEqual({
      ca: CA_PEM,
      cert: CERT_PEM,
      key: undefined,
      rejectUnauthorized: false,
    })
  })

  it('keeps the password and the TLS key as secrets: printed, logged or serialized they read [secret]', () => {
    const config = load(full, { REDIS_URL: 'redis://10.0.0.5:6379' })
    expect(String(config.cluster?.redis.password)).toBe('[secret]')
    expect(`${config.cluster?.redis.tls?.key}`).toBe('[secret]')
    for (const printed of [JSON.stringify(config), inspect(config, { depth: 10 })]) {
      expect(printed).toContain('[secret]')
      expect(printed).not.toContain(PASSWORD)
      expect(printed).not.toContain('PRIVATE KEY')
    }
    // Listed for scrubbing with the other secrets.
    expect(config.secrets.map((s) => s.reveal())).toEqual(expect.arrayContaining([PASSWORD, KEY_PEM]))
  })
})

it("the good fixture (cluster.yaml) loads, its password read from the fixtures' secret file", () => {
  const file = join(fixtures, 'good', 'cluster.yaml')
  const result = parseAgentConfig(readFileSync(file, 'utf8'), file, { env: {}, cwd: join(fixtures, 'good') })
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  expect(result.config.cluster).toMatchObject({
    agentId: 'web-1',
    leaseMs: 60_000,
    heartbeatMs: 1000,
    flushMs: 100,
    commandTimeoutMs: 500,
  })
  expect(result.config.cluster?.redis.password?.reveal()).toBe('sk-file-456')
  expect(result.config.cluster?.redis.tls).toEqual({
    ca: undefined,
    cert: undefined,
    key: undefined,
    rejectUnauthorized: true,
  })
})

describe('defaults', () => {
  it('fill in everything but the url', () => {
    const cluster = load('cluster:\n  redis:\n    url: redis://127.0.0.1:6379\n').cluster
    expect(cluster).toEqual({
      agentId: agentIdOf(hostname()),
      redis: {
        url: 'redis://127.0.0.1:6379',
        keyPrefix: 'logx:',
        username: undefined,
        password: undefined,
        tls: undefined,
      },
      leaseMs: 30_000,
      heartbeatMs: 2000,
      flushMs: 200,
      commandTimeoutMs: 1000,
    })
  })

  it('without the section the agent is alone: no cluster key at all', () => {
    const config = load('')
    expect('cluster' in config).toBe(false)
  })

  it('the host name becomes the agent id: other characters as "-", cut at 64', () => {
    expect(agentIdOf('web-1.example.com')).toBe('web-1.example.com')
    expect(agentIdOf('Jane’s MacBook Pro')).toBe('Jane-s-MacBook-Pro')
    expect(agentIdOf('h'.repeat(100))).toBe('h'.repeat(64))
    expect(agentIdOf('')).toBe('logx-agent')
    expect(agentIdOf(hostname())).toMatch(/^[A-Za-z0-9._-]{1,64}$/)
  })

  it("rediss:// and tls: true mean TLS with Node's CAs, verified", () => {
    const defaults = { ca: undefined, cert: undefined, key: undefined, rejectUnauthorized: true }
    expect(load('cluster:\n  redis:\n    url: rediss://redis.internal:6380\n').cluster?.redis.tls).toEqual(defaults)
    expect(load('cluster:\n  redis:\n    url: redis://redis.internal\n    tls: true\n').cluster?.redis.tls).toEqual(
      defaults,
    )
    expect(
      load('cluster:\n  redis:\n    url: redis://redis.internal\n    tls: false\n').cluster?.redis.tls,
    ).toBeUndefined()
  })
})

describe('bad values name their key path', () => {
  const redis = (lines: string): string => `cluster:\n  redis:\n${lines}`
  const url = 'redis://127.0.0.1:6379'

  it('a url that is not redis:// or rediss://', () => {
    expect(only(redis('    url: http://127.0.0.1:6379\n'))).toEqual({
      code: ConfigErrorCodes.VALUE,
      text: 'cluster.redis.url: expected a redis:// or rediss:// URL, not http://',
    })
    expect(only(redis('    url: 127.0.0.1:6379\n')).text).toMatch(
      /^cluster\.redis\.url: expected a redis:\/\/ or rediss:\/\/ URL/,
    )
    expect(only(redis('    url: redis://127.0.0.1:6379/zero\n')).text).toBe(
      'cluster.redis.url: expected nothing or a database number after the host, like redis://127.0.0.1:6379/0',
    )
    expect(only('cluster:\n  redis: {}\n')).toEqual({
      code: ConfigErrorCodes.MISSING_KEY,
      text: 'cluster.redis.url: is required',
    })
    expect(only('cluster:\n  agent_id: web-1\n')).toEqual({
      code: ConfigErrorCodes.MISSING_KEY,
      text: 'cluster.redis: is required',
    })
  })

  it('a password in the url: refused, pointing to password_file, never echoed', () => {
    for (const written of [
      `redis://logx:${URL_PASSWORD}@10.0.0.5:6379/0`,
      `redis://:${URL_PASSWORD}@10.0.0.5`,
      `rediss://default:${URL_PASSWORD}@h`,
    ]) {
      const { code, text } = only(redis(`    url: ${written}\n`))
      expect(code).toBe(ConfigErrorCodes.VALUE)
      expect(text).toMatch(/^cluster\.redis\.url: must not hold a password .*cluster\.redis\.password_file$/)
      expect(text).not.toContain(URL_PASSWORD)
    }
    // From the environment too.
    const fromEnv = only(redis('    url: ${REDIS_URL}\n'), { REDIS_URL: `redis://u:${URL_PASSWORD}@h:6379` })
    expect(fromEnv.text).toMatch(/^cluster\.redis\.url: must not hold a password/)
    expect(fromEnv.text).not.toContain(URL_PASSWORD)
  })

  it('a user in the url: refused, pointing to username', () => {
    expect(only(redis('    url: redis://logx@10.0.0.5\n')).text).toBe(
      'cluster.redis.url: must not hold a user name: write it as cluster.redis.username',
    )
  })

  it('an unreadable password_file, naming the key and the path', () => {
    expect(only(redis(`    url: ${url}\n    password_file: no-such-file\n`))).toEqual({
      code: ConfigErrorCodes.SECRET_FILE,
      text: 'cluster.redis.password_file: cannot read password from "no-such-file" (ENOENT)',
    })
    expect(only(redis(`    url: ${url}\n    password: x\n    password_file: redis-password\n`))).toEqual({
      code: ConfigErrorCodes.CONFLICT,
      text: 'cluster.redis.password_file: give password or password_file, not both',
    })
  })

  it('an unreadable TLS file, a certificate without its key, tls: false on rediss://', () => {
    expect(only(redis(`    url: ${url}\n    tls: { ca_file: missing-ca.pem }\n`))).toEqual({
      code: ConfigErrorCodes.SECRET_FILE,
      text: 'cluster.redis.tls.ca_file: cannot read ca from "missing-ca.pem" (ENOENT)',
    })
    expect(only(redis(`    url: ${url}\n    tls: { cert_file: client.pem }\n`))).toEqual({
      code: ConfigErrorCodes.CONFLICT,
      text: 'cluster.redis.tls.cert_file: needs key_file too (a client certificate goes with its private key)',
    })
    expect(only(redis(`    url: ${url}\n    tls: { key_file: client.key }\n`)).text).toBe(
      'cluster.redis.tls.key_file: needs cert_file too (a client certificate goes with its private key)',
    )
    expect(only(redis('    url: rediss://h\n    tls: false\n'))).toEqual({
      code: ConfigErrorCodes.CONFLICT,
      text: 'cluster.redis.tls: is false, but the url is rediss:// (TLS): remove tls: false, or use redis://',
    })
    expect(only(redis(`    url: ${url}\n    tls: yes please\n`)).text).toBe(
      'cluster.redis.tls: expected true, false or a mapping (ca_file, cert_file, key_file, reject_unauthorized), got a string',
    )
  })

  it('durations out of their ranges, or not durations', () => {
    const section = (key: string, value: string): string => `cluster:\n  ${key}: ${value}\n  redis:\n    url: ${url}\n`
    expect(only(section('lease', '20m'))).toEqual({
      code: ConfigErrorCodes.VALUE,
      text: 'cluster.lease: must be between 1s and 10m, got "20m"',
    })
    expect(only(section('lease', '500ms')).text).toBe('cluster.lease: must be between 1s and 10m, got "500ms"')
    expect(only(section('heartbeat', '50')).text).toBe('cluster.heartbeat: must be between 100ms and 1m, got 50')
    expect(only(section('flush', '11s')).text).toBe('cluster.flush: must be between 10ms and 10s, got "11s"')
    expect(only(section('command_timeout', '2m')).text).toBe(
      'cluster.command_timeout: must be between 50ms and 60s, got "2m"',
    )
    expect(only(section('lease', 'soon')).code).toBe(ConfigErrorCodes.DURATION)
    // The bounds themselves are in range.
    const bounds = load(
      `cluster:\n  lease: 10m\n  heartbeat: 100ms\n  flush: 10ms\n  command_timeout: 60s\n  redis:\n    url: ${url}\n`,
    ).cluster
    expect(bounds).toMatchObject({ leaseMs: 600_000, heartbeatMs: 100, flushMs: 10, commandTimeoutMs: 60_000 })
  })

  it('a bad agent_id', () => {
    const section = (id: string): string => `cluster:\n  agent_id: ${id}\n  redis:\n    url: ${url}\n`
    expect(only(section('web 1'))).toEqual({
      code: ConfigErrorCodes.VALUE,
      text: 'cluster.agent_id: expected 1 to 64 letters, digits, ".", "_" and "-", got "web 1"',
    })
    expect(only(section('wéb')).text).toMatch(/^cluster\.agent_id: expected 1 to 64 letters/)
    expect(only(section('a'.repeat(65))).text).toMatch(/^cluster\.agent_id: expected 1 to 64 letters/)
    expect(load(section('a'.repeat(64))).cluster?.agentId).toBe('a'.repeat(64))
  })

  it('a bad key_prefix', () => {
    const section = (prefix: string): string => `cluster:\n  redis:\n    url: ${url}\n    key_prefix: ${prefix}\n`
    expect(only(section('"logx fleet:"')).text).toBe(
      'cluster.redis.key_prefix: expected 1 to 64 characters without blanks, got "logx fleet:"',
    )
    expect(only(section(`"${'p'.repeat(65)}"`)).text).toMatch(
      /^cluster\.redis\.key_prefix: expected 1 to 64 characters without blanks/,
    )
    expect(only(section('""')).text).toBe('cluster.redis.key_prefix: must not be empty')
  })

  it('unknown keys, with a did-you-mean', () => {
    expect(only(`cluster:\n  heartbeet: 1s\n  redis:\n    url: ${url}\n`)).toEqual({
      code: ConfigErrorCodes.UNKNOWN_KEY,
      text: 'cluster.heartbeet: unknown key "heartbeet" (did you mean "heartbeat"?)',
    })
    expect(only(`cluster:\n  redis:\n    url: ${url}\n    pasword_file: redis-password\n`).text).toBe(
      'cluster.redis.pasword_file: unknown key "pasword_file" (did you mean "password_file"?)',
    )
    expect(only(`cluster:\n  redis:\n    url: ${url}\n    tls: { rejectUnauthorized: false }\n`).text).toBe(
      'cluster.redis.tls.rejectUnauthorized: unknown key "rejectUnauthorized" (did you mean "reject_unauthorized"?)',
    )
    expect(only(`clustr:\n  redis:\n    url: ${url}\n`).text).toBe(
      'clustr: unknown key "clustr" (did you mean "cluster"?)',
    )
  })

  it('are located at file:line:col of the value', () => {
    const [problem] = problems(`cluster:\n  redis:\n    url: http://h\n`)
    // BASE is 5 lines; the url's value starts at column 10 of line 8.
    expect(problem).toMatchObject({ file: 'agent.yaml', line: 8, col: 10, path: 'cluster.redis.url' })
  })
})

it('no message about a cluster section ever contains the password', () => {
  const sections = [
    `cluster:\n  redis:\n    url: redis://u:${URL_PASSWORD}@h\n    password_file: redis-password\n  lease: 0s\n`,
    `cluster:\n  redis:\n    url: ftp://h\n    password_file: redis-password\n    password: ${PASSWORD}\n`,
    `cluster:\n  redis:\n    url: \${U}\n    password: \${P}\n    tls: { key_file: client.key }\n`,
  ]
  const text = sections
    .flatMap((s) => problems(s, { U: `redis://:${URL_PASSWORD}@h`, P: PASSWORD }).map(formatProblem))
    .join('\n')
  expect(text).not.toContain(PASSWORD)
  expect(text).not.toContain(URL_PASSWORD)
  expect(text).not.toContain('PRIVATE KEY')
})

// written-types.ts's view of the section and the shape's must list the same keys; the compiler
// rejects a record below that misses or adds a key of its written type.
describe('the written types of the section', () => {
  type KeysOf<T> = { [K in keyof Required<T>]: true }
  const written = {
    cluster: {
      agent_id: true,
      redis: true,
      lease: true,
      heartbeat: true,
      flush: true,
      command_timeout: true,
    } satisfies KeysOf<ClusterInput>,
    redis: {
      url: true,
      key_prefix: true,
      username: true,
      password: true,
      tls: true,
    } satisfies KeysOf<ClusterRedisInput>,
    tls: { ca: true, cert: true, key: true, reject_unauthorized: true } satisfies KeysOf<ClusterTlsInput>,
  }
  const object = (shape: Shape | undefined): ObjectShape => {
    if (shape?.kind === 'object') return shape
    const option = shape?.kind === 'either' ? shape.options.find((o) => o.kind === 'object') : undefined
    if (option?.kind === 'object') return option
    throw new Error(`expected an object shape, got ${shape?.kind}`)
  }
  const keys = (record: object): string[] => Object.keys(record).sort()

  it('match the shape', () => {
    const cluster = object(agentShape.fields.cluster?.shape)
    const redis = object(cluster.fields.redis?.shape)
    expect(keys(written.cluster)).toEqual(Object.keys(cluster.fields).sort())
    expect(keys(written.redis)).toEqual(Object.keys(redis.fields).sort())
    expect(keys(written.tls)).toEqual(Object.keys(object(redis.fields.tls?.shape).fields).sort())
  })
})
