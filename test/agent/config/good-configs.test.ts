import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  formatProblem,
  loadAgentConfig,
  parseAgentConfig,
  type AgentConfig,
  type LoadConfigOptions,
} from '../../../agent/config'
import { ConfigError } from '../../../agent/config/errors'
import { SANDBOX_MISSED_CALL_NUMBER } from '../../../agent/config/normalize/acknowledge'
import { fakeSecretFile, fixtures, repoRoot, SECRET_VALUES, testEnv } from './helpers'

const cwd = '/srv/app'
const options: LoadConfigOptions = { env: testEnv, cwd, readSecretFile: fakeSecretFile }

function load(path: string, opts: LoadConfigOptions = options): AgentConfig {
  const result = parseAgentConfig(readFileSync(path, 'utf8'), path, opts)
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config
}

describe('the shipped default config (config/agent.yaml)', () => {
  const config = load(join(repoRoot, 'config/agent.yaml'))

  it('tails ./logs/*.log on the embedded sandbox', () => {
    expect(config.messaging).toEqual({
      mode: 'sandbox',
      listen: { host: '127.0.0.1', port: 4010 },
      allowRemote: false,
      apiKey: undefined,
      activityToken: undefined,
    })
    expect(config.sources).toEqual([
      {
        name: 'app',
        type: 'file',
        paths: ['/srv/app/logs/*.log'],
        journald: undefined,
        exclude: [],
        followSymlinks: 'inside',
        format: 'auto',
        startAt: 'end',
        maxLineBytes: 262_144,
        syncReads: true,
      },
    ])
    expect(config.stateDir).toBe('/srv/app/.logx-agent')
    expect(config.metrics).toEqual({ listen: { host: '127.0.0.1', port: 9464 } })
  })

  it('sends error and fatal lines to a chat channel and SMS', () => {
    expect(config.channels.map((c) => [c.name, c.type])).toEqual([
      ['team-chat', 'chat'],
      ['oncall-sms', 'sms'],
    ])
    expect(config.rules).toHaveLength(1)
    expect(config.rules[0]).toMatchObject({
      name: 'errors',
      sources: ['app'],
      minLevel: 50,
      notify: ['team-chat', 'oncall-sms'],
      groupWaitMs: 10_000,
      repeatIntervalMs: 1_800_000,
      resolveAfterMs: 900_000,
      incident: true,
      escalate: [],
    })
  })
})

describe('config/examples', () => {
  const dir = join(repoRoot, 'config/examples')

  it.each(readdirSync(dir).filter((f) => f.endsWith('.yaml')))('%s is valid', (file) => {
    expect(() => load(join(dir, file))).not.toThrow()
  })

  it('fleet.yaml: one agent of a fleet on Redis, its password read from a file and kept secret', () => {
    const { cluster } = load(join(dir, 'fleet.yaml'))
    expect(cluster).toMatchObject({
      agentId: 'web-1',
      redis: { url: 'redis://redis.internal:6379/0', keyPrefix: 'logx:', username: 'logx', tls: undefined },
      leaseMs: 30_000,
    })
    expect(cluster?.redis.password?.reveal()).toBe('redis-pw-987')
    expect(JSON.stringify(cluster)).not.toContain('redis-pw-987')
  })

  it('production.yaml: remote API, secrets from env and file, all four channel types, escalation', () => {
    const config = load(join(dir, 'production.yaml'))
    const { messaging } = config
    expect(messaging.mode).toBe('remote')
    if (messaging.mode !== 'remote') return
    expect(messaging.baseUrl).toBe('https://api.example.com')
    expect(messaging.apiKey.reveal()).toBe('sk-test-123')
    expect(messaging.crm?.activityToken.reveal()).toBe('tok-789')
    expect(config.channels.map((c) => c.type)).toEqual(['sms', 'chat', 'mail', 'voice'])
    const sms = config.channels[0]
    expect(sms).toMatchObject({
      type: 'sms',
      numbers: ['919800000001', '+91 98000 00003'],
      route: 'transactional',
      senderId: 'LOGXAL',
      maxPerHour: 30,
    })
    expect(config.channels[1]).toMatchObject({ type: 'chat', numbers: ['+919800000002'], templateId: 101 })
    expect(config.channels[3]).toMatchObject({
      type: 'voice',
      audio: { firing: ['alert.mp3'], resolved: ['alert.mp3'], digest: ['alert.mp3'] },
    })
    const [timeouts, crash, rest] = config.rules
    expect(timeouts?.match).toEqual([{ kind: 'regex', path: 'err.type', regex: /Timeout|ECONNREFUSED/ }])
    expect(timeouts?.escalate).toEqual([
      { afterMs: 600_000, notify: ['oncall-call'] },
      { afterMs: 3_600_000, notify: ['ops-mail'] },
    ])
    expect(crash?.message).toEqual(/exited with code \d+/i)
    expect(crash?.threshold).toEqual({ count: 3, withinMs: 300_000 })
    expect(crash?.minLevel).toBe(60)
    expect(rest).toMatchObject({ sources: undefined, notify: ['ops-mail'] })
    expect(config.silences).toEqual([
      {
        matchers: [
          { kind: 'equals', path: 'rule', value: 'worker-crash-loop' },
          { kind: 'equals', path: 'hostname', value: 'batch-7' },
        ],
        startsAt: undefined,
        endsAt: Date.parse('2026-12-31T23:59:59Z'),
        comment: 'batch-7 is being decommissioned (ops ticket 4211)',
      },
    ])
    expect(config.metrics).toEqual({ listen: { host: '0.0.0.0', port: 9464 } })
    expect(config.console.enabled).toBe(true)
    expect(config.console.token?.reveal()).toBe('console-tok-321')
  })

  it('production.yaml: secrets are kept out of inspect, JSON and String', () => {
    const config = load(join(dir, 'production.yaml'))
    expect(config.secrets.map((s) => s.reveal())).toEqual([
      'sk-test-123',
      'tok-789',
      'https://crm.example.com/webhooks/lead/acme',
      'console-tok-321',
    ])
    const printed = [inspect(config, { depth: 10 }), JSON.stringify(config), String(config.secrets[0])].join('\n')
    for (const secret of SECRET_VALUES) expect(printed).not.toContain(secret)
    expect(printed).toContain('[secret]')
  })

  it('pm2-logs.yaml: ${VAR:-default} falls back, *_file paths are interpolated, 1h30m', () => {
    const config = load(join(dir, 'pm2-logs.yaml'))
    expect(config.messaging).toMatchObject({ mode: 'remote', baseUrl: 'https://api.example.com' })
    if (config.messaging.mode === 'remote') expect(config.messaging.apiKey.reveal()).toBe('sk-file-456')
    expect(config.sources.map((s) => s.paths[0])).toEqual([
      '/home/ops/.pm2/logs/*-out.log',
      '/home/ops/.pm2/logs/*-error.log',
    ])
    expect(config.rules[1]).toMatchObject({
      repeatIntervalMs: 5_400_000,
      minLevel: 50,
      match: [{ kind: 'equals', path: 'req.method', value: 'POST' }],
    })
    const overridden = load(join(dir, 'pm2-logs.yaml'), {
      ...options,
      env: { ...testEnv, LOGX_BASE_URL: 'https://eu.example.com' },
    })
    expect(overridden.messaging).toMatchObject({ baseUrl: 'https://eu.example.com' })
  })

  it('oncall.yaml: people reached by channels and escalation steps, acknowledgement by missed call, the console', () => {
    const config = load(join(dir, 'oncall.yaml'))
    expect(config.people).toEqual([
      { name: 'asha', phone: '+919800000001', email: 'asha@example.com', chat: '+919800000001' },
      { name: 'ravi', phone: '+919800000003', email: undefined, chat: undefined },
      { name: 'meera', phone: undefined, email: 'meera@example.com', chat: undefined },
    ])
    expect(config.channels.map((c) => [c.name, c.people])).toEqual([
      ['oncall-sms', ['asha', 'ravi']],
      ['team-chat', ['asha', 'ravi']],
      ['oncall-mail', ['asha', 'meera']],
      ['oncall-voice', ['ravi']],
    ])
    expect(config.channels[0]).toMatchObject({ numbers: ['+919800000001', '+919800000003'] })
    expect(config.channels[1]).toMatchObject({ numbers: ['+919800000002', '+919800000001', '+919800000003'] })
    expect(config.channels[2]).toMatchObject({ to: ['asha@example.com', 'meera@example.com'] })
    expect(config.channels[3]).toMatchObject({ receivers: [{ label: 'ravi', number: '+919800000003' }] })
    expect(config.rules[0]?.ackTimeoutMs).toBe(1_800_000)
    expect(config.rules[0]?.escalate).toEqual([
      { afterMs: 600_000, notify: ['oncall-voice'], people: ['ravi'] },
      { afterMs: 1_800_000, notify: ['oncall-sms', 'oncall-voice'], people: ['asha', 'ravi'] },
      { afterMs: 3_600_000, notify: ['oncall-mail'] },
    ])
    expect(config.acknowledge).toEqual({
      missedCallNumber: '+918033333333',
      pollIntervalMs: 15_000,
      ackAll: false,
      hint: 'Ack: give a missed call to +918033333333',
      voiceAudio: 'ack-howto.mp3',
    })
    expect(config.console.token?.reveal()).toBe('console-env-654')
    expect(config.secrets.map((s) => s.reveal())).toEqual(['sk-test-123', 'console-env-654'])
  })

  it('without people, acknowledge and console: the defaults', () => {
    const config = load(join(dir, 'production.yaml'))
    expect(config.people).toEqual([])
    expect(config.channels.map((c) => c.people)).toEqual([[], [], [], []])
    expect(config.rules.map((r) => r.ackTimeoutMs)).toEqual([undefined, undefined, undefined])
    // A real API and no number: no hint, missed calls to any number count.
    expect(config.acknowledge).toEqual({
      missedCallNumber: undefined,
      pollIntervalMs: 15_000,
      ackAll: false,
      hint: undefined,
      voiceAudio: undefined,
    })
    const minimal = load(join(dir, 'minimal.yaml'))
    expect(minimal.console).toEqual({ enabled: true, token: undefined })
    // The embedded sandbox: its own number, so a new user can simulate the missed call.
    expect(minimal.acknowledge).toMatchObject({
      missedCallNumber: SANDBOX_MISSED_CALL_NUMBER,
      hint: `Ack: missed call ${SANDBOX_MISSED_CALL_NUMBER}`,
    })
  })

  it('minimal.yaml: no rules means error and fatal lines to every channel', () => {
    const config = load(join(dir, 'minimal.yaml'))
    expect(config.rules).toMatchObject([{ name: 'default', minLevel: 50, notify: ['oncall'], sources: undefined }])
    expect(config.silences).toEqual([])
    expect(config.metrics).toBeUndefined()
  })
})

describe('good fixtures', () => {
  const dir = join(fixtures, 'good')

  it("people join the channels' recipients, each address once, in the form each channel sends", () => {
    const config = load(join(dir, 'people.yaml'))
    const [sms, chat, mail, voice] = config.channels
    // asha's "+91 98000 00001" rings the number already listed (919800000001); a name given twice counts once.
    expect(sms).toMatchObject({ numbers: ['919800000001', '+919800000009', '+919800000003'], people: ['asha', 'ravi'] })
    // asha's chat number, compacted; ravi has none, so his phone.
    expect(chat).toMatchObject({ numbers: ['+919800000011', '+919800000003'], people: ['asha', 'ravi'] })
    expect(mail).toMatchObject({ to: ['asha@example.com', 'meera@example.com'], people: ['asha', 'meera'] })
    // ravi's phone is the desk receiver's: called once.
    expect(voice).toMatchObject({ receivers: [{ label: 'desk', number: '+919800000003' }], people: ['ravi'] })
    expect(config.rules[0]).toMatchObject({
      ackTimeoutMs: 5_400_000,
      escalate: [
        { afterMs: 600_000, notify: ['sms', 'voice'], people: ['ravi'] },
        { afterMs: 3_600_000, notify: ['mail'] },
      ],
    })
    expect(config.rules[0]?.escalate[1]).not.toHaveProperty('people')
    expect(config.acknowledge).toEqual({
      missedCallNumber: '15550199999',
      pollIntervalMs: 2000,
      ackAll: true,
      hint: 'Ack: missed call 15550199999',
      voiceAudio: 'ack.mp3',
    })
    expect(config.console.token?.reveal()).toBe('console-tok-321')
    expect(config.secrets.map((s) => s.reveal())).toEqual(['console-tok-321'])
    const printed = [inspect(config, { depth: 10 }), JSON.stringify(config)].join('\n')
    expect(printed).not.toContain('console-tok-321')
  })

  it('a loopback metrics.listen needs no console token; any other address does, unless the console is off', () => {
    const base = 'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\n'
    const problems = (extra: string): string[] => {
      const result = parseAgentConfig(base + extra, 'agent.yaml', options)
      return result.ok ? [] : result.problems.map(formatProblem)
    }
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]', ''])
      expect(problems(`metrics: { listen: "${host}:9464" }\n`), host).toEqual([])
    expect(problems('metrics: { listen: "0.0.0.0:9464" }\nconsole: { enabled: false }\n')).toEqual([])
    expect(problems('metrics: { listen: "10.0.0.5:9464" }\nconsole: { token: s3cret-token }\n')).toEqual([])
    expect(problems('metrics: { listen: "[::]:9464" }\n')).toEqual([
      'agent.yaml:3:20 metrics.listen: is not a loopback address, so the console served on it needs a token: set console.token (or console.token_file), or console.enabled: false',
    ])
  })

  it('anchors and aliases, numbers for levels, single items for lists', () => {
    const config = load(join(dir, 'anchors.yaml'))
    expect(config.channels.map((c) => c.name)).toEqual(['chat-a', 'chat-b'])
    expect(config.channels[1]).toMatchObject({ numbers: ['+919800000002'], templateId: 7, variables: ['{{title}}'] })
    expect(config.rules[0]).toMatchObject({
      minLevel: 40,
      sources: ['app'],
      notify: ['chat-a'],
      groupBy: ['err.type', 'req.url'],
    })
    expect(config.rules[0]?.match).toEqual([
      { kind: 'equals', path: 'service', value: 'api' },
      { kind: 'equals', path: 'status', value: 503 },
      { kind: 'equals', path: 'retry', value: false },
      { kind: 'regex', path: 'req.url', regex: /^\/api\/v\d+\//i },
    ])
  })

  it('reads *_file secrets relative to the working directory, without the trailing newline', async () => {
    const config = await loadAgentConfig(join(dir, 'secret-file.yaml'), { env: {}, cwd: dir })
    expect(config.messaging.mode).toBe('remote')
    if (config.messaging.mode === 'remote') expect(config.messaging.apiKey.reveal()).toBe('sk-file-456')
  })

  it('loadAgentConfig throws one ConfigError listing every problem', async () => {
    const file = join(fixtures, 'bad/unknown-key-nested.yaml')
    const err = await loadAgentConfig(file, { env: {}, cwd: fixtures }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).code).toBe('LOGX_CONFIG_ERR_INVALID')
    expect((err as ConfigError).problems).toHaveLength(5)
    expect((err as ConfigError).message).toContain(
      `${file}:2:3 messaging.baseUrl: unknown key "baseUrl" (did you mean "base_url"?)`,
    )
  })
})
