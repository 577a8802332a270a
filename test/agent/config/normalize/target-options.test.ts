// A transport target's `rules`, `silences` and channel keys are the YAML config's, read by the same
// shapes and normalizers. Bad options are fixtures in test/fixtures/config/options with their
// complete problems. The targets' earlier key names (never released) are unknown keys like any other.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { compileRule, type RuleConfig } from '../../../../alerts'
import {
  channelOptionKeys,
  parseAgentConfig,
  readAlertOptions,
  readChannelOptions,
  type AgentConfig,
} from '../../../../agent/config'
import { fakeSecretFile, fixtures, repoRoot, testEnv } from '../helpers'

const yamlOptions = { env: testEnv, cwd: '/srv/app', readSecretFile: fakeSecretFile }

function load(text: string): AgentConfig {
  const result = parseAgentConfig(text, 'agent.yaml', yamlOptions)
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

function read(options: Record<string, unknown>, channels: readonly string[] = ['sms']) {
  const result = readAlertOptions(options, channels)
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.value
}

const rule = (written: Record<string, unknown>, channels?: readonly string[]): RuleConfig =>
  read({ rules: [written] }, channels).rules[0] as RuleConfig

describe('bad options: each fixture reports exactly its problems', () => {
  const dir = join(fixtures, 'options')
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()

  it('there are fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(12)
  })

  it.each(files)('%s', (file) => {
    const { options, problems } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      options: Record<string, unknown>
      problems: string[]
    }
    const result = readAlertOptions(options, ['sms'])
    expect(result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual(problems)
  })
})

describe('one vocabulary', () => {
  const file = join(repoRoot, 'config/examples/production.yaml')
  const text = readFileSync(file, 'utf8')

  it('the rules and silences of production.yaml, given as options, are what the YAML gives', () => {
    const config = load(text)
    const written = parse(text) as { rules: unknown[]; silences: unknown[] }
    const options = read(
      { rules: written.rules, silences: written.silences },
      config.channels.map((c) => c.name),
    )
    expect(options.rules).toEqual(config.rules)
    expect(options.silences).toEqual(config.silences)
  })

  it("a rule without notify notifies the channels it is given: every YAML channel, a target's own", () => {
    expect(rule({}, ['sms']).notify).toEqual(['sms'])
    const config = load(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { a: { type: sms, numbers: [919800000001] }, b: { type: sms, numbers: [919800000002] } }\nrules: [{ name: r }]\n',
    )
    expect(config.rules[0]?.notify).toEqual(['a', 'b'])
  })

  it("names in a target's notify and source are its own business (other targets, its source option)", () => {
    expect(rule({ notify: ['voice', 'Ops Pager'], source: '/var/log/app.log' })).toMatchObject({
      notify: ['voice', 'Ops Pager'],
      sources: ['/var/log/app.log'],
    })
  })

  it('durations: one grammar in both', () => {
    expect(rule({ group_wait: '30 s', repeat_interval: '1h30m', resolve_after: 1500 })).toMatchObject({
      groupWaitMs: 30_000,
      repeatIntervalMs: 5_400_000,
      resolveAfterMs: 1500,
    })
    const config = load(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: [{ group_wait: 30 s, repeat_interval: 1h30m }]\n',
    )
    expect(config.rules[0]).toMatchObject({ groupWaitMs: 30_000, repeatIntervalMs: 5_400_000 })
  })

  it('options are code: a "${" in them is text, where the YAML would read the environment', () => {
    expect(rule({ title: 'cost ${HOME} {{msg}}' }).title).toBe('cost ${HOME} {{msg}}')
    expect(
      load(
        'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: [{ title: "at ${HOME} {{msg}}" }]\n',
      ).rules[0]?.title,
    ).toBe('at /home/ops {{msg}}')
  })

  it('an empty rule list: refused in options, as the targets always did; no rule at all in the YAML, as before', () => {
    expect(() => read({ rules: [] })).toThrow('must not be empty')
    expect(
      load(
        'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: []\n',
      ).rules,
    ).toEqual([])
  })

  it('silences take epoch milliseconds and an id, in both', () => {
    const { silences } = read({
      silences: [{ id: 'deploy-42', matchers: { rule: 'db' }, starts_at: 1000, ends_at: '2026-12-31T23:59:59Z' }],
    })
    expect(silences).toEqual([
      {
        id: 'deploy-42',
        matchers: [{ kind: 'equals', path: 'rule', value: 'db' }],
        startsAt: 1000,
        endsAt: Date.parse('2026-12-31T23:59:59Z'),
        comment: undefined,
      },
    ])
    const config = load(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nsilences: [{ id: deploy-42, matchers: { rule: db }, starts_at: 1000, ends_at: "2026-12-31T23:59:59Z" }]\n',
    )
    expect(config.silences).toEqual(silences)
  })
})

describe("the targets' earlier names are gone", () => {
  it('msg, fields, channels, escalation, a group_by string and a window of 0 are refused in options', () => {
    const result = readAlertOptions(
      {
        rules: [
          { msg: 'db', fields: { a: 1 }, channels: ['sms'], escalation: [{ after: 0, channels: ['sms'] }] },
          { group_by: 'host', threshold: { count: 2, within: 0 } },
        ],
        silences: [{ matchers: { rule: 'db' }, ends_at: '2031/01/02', reason: 'deploy' }],
      },
      ['sms'],
    )
    expect(result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'rules[0].msg: unknown key "msg"',
      'rules[0].fields: unknown key "fields"',
      'rules[0].channels: unknown key "channels"',
      'rules[0].escalation: unknown key "escalation" (did you mean "escalate"?)',
      'rules[1].group_by: expected a list, got a string',
      'silences[0].ends_at: expected an ISO date like 2026-01-31T18:00:00Z, got "2031/01/02"',
      'silences[0].reason: unknown key "reason"',
      'rules[1].threshold.within: must be longer than 0',
    ])
  })

  it('dot paths: options take any key a log has (@timestamp, a/b, 0), as the targets did; the YAML keeps to identifiers', () => {
    const { rules, silences } = read({
      rules: [{ group_by: ['@timestamp', 'k8s/pod'], match: { '@l': 'Error', 'tags.0': 'x' } }],
      silences: [{ matchers: { '0': 'x', 'user agent': 'curl' }, ends_at: 5000 }],
    })
    expect(rules[0]).toMatchObject({
      groupBy: ['@timestamp', 'k8s/pod'],
      match: [
        { kind: 'equals', path: '@l', value: 'Error' },
        { kind: 'equals', path: 'tags.0', value: 'x' },
      ],
    })
    expect(silences[0]?.matchers.map((m) => m.path)).toEqual(['0', 'user agent'])
    const yaml = parseAgentConfig(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: [{ group_by: ["@timestamp"] }]\n',
      'agent.yaml',
      yamlOptions,
    )
    expect(yaml.ok ? [] : yaml.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'rules[0].group_by[0]: expected a dot path like err.type, got "@timestamp"',
    ])
  })

  it('the YAML refuses them as the options do', () => {
    const result = parseAgentConfig(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: [{ group_by: host }]\n',
      'agent.yaml',
      yamlOptions,
    )
    expect(result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'rules[0].group_by: expected a list, got a string',
    ])
    const strict = parseAgentConfig(
      [
        'sources: [{ name: app, paths: ./x.log }]',
        'channels: { s: { type: sms, numbers: [919800000001] } }',
        'rules: [{ threshold: { count: 2, within: 1m, window: 5m } }]',
        'silences: [{ matchers: { rule: db }, ends_at: "2031/01/02", reason: deploy }]',
      ].join('\n'),
      'agent.yaml',
      yamlOptions,
    )
    expect(strict.ok ? [] : strict.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'rules[0].threshold.window: unknown key "window"',
      'silences[0].ends_at: expected an ISO date like 2026-01-31T18:00:00Z, got "2031/01/02"',
      'silences[0].reason: unknown key "reason"',
    ])
  })
})

describe("a channel target's own keys", () => {
  const yaml = [
    'sources: [{ name: app, paths: ./x.log }]',
    'channels:',
    '  sms: { type: sms, numbers: [919800000001, "+91 98000 00003"], sender_id: LOGXAL, route: transactional, template: "{{title}}", max_length: 100, max_per_hour: 30 }',
    '  chat: { type: chat, numbers: ["+91 98000-00002"], template_id: 7, variables: ["{{title}}"], attachment: "https://example.com/a.pdf" }',
    '  mail: { type: mail, from: a@example.com, to: b@example.com, subject: { firing: "{{title}}" }, format: text }',
    '  voice: { type: voice, receivers: [{ label: primary, number: "+919800000004" }], audio: { firing: [a.mp3], resolved: [b.mp3] } }',
  ].join('\n')
  const config = load(yaml)
  const channel = (type: 'sms' | 'chat' | 'mail' | 'voice', options: Record<string, unknown>, maxPerHour?: number) => {
    const result = readChannelOptions(type, options, maxPerHour)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    return result.value
  }

  it("are the YAML channel's keys, spelt as options, and make the same channel", () => {
    expect(
      channel(
        'sms',
        {
          numbers: [919800000001, '+91 98000 00003'],
          senderId: 'LOGXAL',
          route: 'transactional',
          template: '{{title}}',
          maxLength: 100,
        },
        30,
      ),
    ).toEqual(config.channels[0])
    expect(
      channel('chat', {
        numbers: ['+91 98000-00002'],
        templateId: 7,
        variables: ['{{title}}'],
        attachment: 'https://example.com/a.pdf',
      }),
    ).toEqual(config.channels[1])
    expect(
      channel('mail', { from: 'a@example.com', to: 'b@example.com', subject: { firing: '{{title}}' }, format: 'text' }),
    ).toEqual(config.channels[2])
    expect(
      channel('voice', {
        receivers: [{ label: 'primary', number: '+919800000004' }],
        audio: { firing: ['a.mp3'], resolved: ['b.mp3'] },
      }),
    ).toEqual(config.channels[3])
    expect(channelOptionKeys('sms')).toEqual([
      'numbers',
      'senderId',
      'route',
      'templateId',
      'template',
      'maxLength',
      'concurrency',
    ])
  })

  it('keys the targets ignored in a voice receiver or a per-kind template are unknown keys', () => {
    const problems = (type: 'sms' | 'voice', options: Record<string, unknown>) => {
      const result = readChannelOptions(type, options, undefined)
      return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)
    }
    expect(
      problems('voice', { receivers: [{ label: 'primary', number: '+919800000004', name: 'Asha' }], audio: ['a.mp3'] }),
    ).toEqual(['receivers[0].name: unknown key "name"'])
    expect(
      problems('sms', { numbers: 919800000001, template: { firing: '{{title}}', repeat: 'again {{title}}' } }),
    ).toEqual(['template.repeat: unknown key "repeat"'])
  })

  it('a target has no people: `people` is no option, its recipients are required, and it reaches no one by name', () => {
    expect(channelOptionKeys('voice')).toEqual(['receivers', 'audio', 'concurrency'])
    expect(channel('sms', { numbers: 919800000001 }).people).toEqual([])
    const problems = (type: 'sms' | 'mail' | 'voice', options: Record<string, unknown>) => {
      const result = readChannelOptions(type, options, undefined)
      return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)
    }
    // Keys other than channelOptionKeys are the target's to refuse (its common options read them).
    expect(channelOptionKeys('sms')).not.toContain('people')
    expect(problems('sms', { people: ['asha'] })).toEqual(['numbers: is required'])
    expect(problems('mail', { from: 'a@example.com' })).toEqual(['to: is required'])
    expect(problems('voice', { audio: ['a.mp3'] })).toEqual(['receivers: is required'])
  })

  it("a target's rules have no ack_timeout (nothing acknowledges a target's incidents): ackTimeoutMs is undefined", () => {
    expect(rule({ escalate: [{ after: '10m', notify: 'call' }] })).toMatchObject({
      ackTimeoutMs: undefined,
      escalate: [{ afterMs: 600_000, notify: ['call'] }],
    })
    expect(rule({ escalate: [{ after: '10m', notify: 'call' }] }).escalate[0]).not.toHaveProperty('people')
  })

  it('chat numbers are sent as the API takes them, written any way the check accepts', () => {
    expect(config.channels[1]).toMatchObject({ numbers: ['+919800000002'] })
  })

  it('problems name the option', () => {
    const problems = (type: 'sms' | 'chat' | 'voice', options: Record<string, unknown>) => {
      const result = readChannelOptions(type, options, undefined)
      return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)
    }
    expect(problems('sms', { numbers: ['919800000001', 'call me'], maxLength: 0 })).toEqual([
      'numbers[1]: expected a phone number, got "call me"',
      'maxLength: expected an integer >= 1, got 0',
    ])
    expect(problems('chat', { numbers: '+12345' })).toEqual([
      'numbers: expected a number with country prefix like "+919800000001", got "+12345"',
      'templateId: is required',
    ])
    expect(problems('voice', { receivers: [{ label: 'a' }], audio: [] })).toEqual([
      'receivers[0].number: is required',
      'audio: must not be empty',
    ])
  })
})
