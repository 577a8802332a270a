// A transport target's `rules`, `silences` and channel keys are the YAML config's, read by the same
// shapes and normalizers. Bad options are fixtures in test/fixtures/config/options with their
// complete problems; the targets' earlier key names are still read, with their earlier meaning and
// a warning each.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { compileRule, type RuleConfig } from '../../../../alerts'
import {
  channelOptionKeys,
  ConfigWarningCodes,
  parseAgentConfig,
  readAlertOptions,
  readChannelOptions,
  type AgentConfig,
  type OptionWarning,
} from '../../../../agent/config'
import { fakeSecretFile, fixtures, repoRoot, testEnv } from '../helpers'

const yamlOptions = { env: testEnv, cwd: '/srv/app', readSecretFile: fakeSecretFile }

function load(text: string): AgentConfig {
  const result = parseAgentConfig(text, 'agent.yaml', yamlOptions)
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

function read(options: Record<string, unknown>, channels: readonly string[] = ['sms']) {
  const warnings: OptionWarning[] = []
  const result = readAlertOptions(options, channels, (w) => warnings.push(w))
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return { ...result.value, warnings }
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
    const result = readAlertOptions(options, ['sms'], () => {})
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
    expect(options.warnings).toEqual([])
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

  it("a rule copied from a target's earlier options into the YAML is pointed at the current key", () => {
    const result = parseAgentConfig(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: [{ msg: db, fields: { a: 1 } }]\n',
      'agent.yaml',
      yamlOptions,
    )
    expect(result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'rules[0].msg: unknown key "msg" (did you mean "message"?)',
      'rules[0].fields: unknown key "fields" (did you mean "match"?)',
    ])
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

describe("the targets' earlier names, with their earlier meaning and a warning each", () => {
  it('msg, fields, channels and escalation make the rule message, match, notify and escalate make', () => {
    const earlier = read({
      rules: [
        {
          name: 'db',
          msg: 'timeout',
          fields: { 'err.type': 'DbError' },
          escalation: [
            { after: 0, channels: ['chat'] },
            { after: '10m', channels: 'sms' },
          ],
        },
      ],
    })
    const current = rule({
      name: 'db',
      message: 'timeout',
      match: { 'err.type': 'DbError' },
      notify: ['chat'],
      escalate: [{ after: '10m', notify: 'sms' }],
    })
    expect(earlier.rules).toEqual([{ ...current, message: /timeout/ }])
    expect(earlier.warnings.map((w) => [w.code, w.path])).toEqual([
      [ConfigWarningCodes.RULE_KEY, 'rules[0].msg'],
      [ConfigWarningCodes.RULE_KEY, 'rules[0].fields'],
      [ConfigWarningCodes.RULE_KEY, 'rules[0].escalation'],
    ])
    expect(earlier.warnings[0]?.message).toBe(
      '"msg" is deprecated: write "message" (a "/pattern/flags" string, or a bare pattern)',
    )
    expect(earlier.warnings[2]?.message).toContain('"notify" for the first notice and "escalate: [{ after, notify }]"')
    expect(read({ rules: [{ channels: ['chat', 'sms'] }] }).rules[0]?.notify).toEqual(['chat', 'sms'])
  })

  it('msg was always a bare pattern, slashes included; { regex, flags } too', () => {
    const slashes = compileRule(rule({ msg: '/api/' }))
    expect(slashes.message?.test('GET /api/ failed')).toBe(true)
    expect(slashes.message?.test('api')).toBe(false)
    expect(rule({ msg: { regex: 'time(out)?', flags: 'i' } }).message).toEqual(/time(out)?/i)
  })

  it('fields compares a "/.../" value for equality, as it did, and takes { regex, flags } and { equals }', () => {
    const compiled = compileRule(
      rule({
        fields: {
          url: '/health/',
          'err.type': { regex: '^db', flags: 'i' },
          code: { equals: 503 },
          tag: { equals: '/x/' },
        },
      }),
    )
    const m = (record: Record<string, unknown>) =>
      compiled.match.every((x) =>
        x.kind === 'equals' ? x.get(record) === x.value : x.regex.test(String(x.get(record))),
      )
    expect(m({ url: '/health/', err: { type: 'DBError' }, code: 503, tag: '/x/' })).toBe(true)
    expect(m({ url: '/healthz/', err: { type: 'DBError' }, code: 503, tag: '/x/' })).toBe(false)
    expect(m({ url: '/health/', err: { type: 'DBError' }, code: 503, tag: 'x' })).toBe(false)
    expect(m({ url: '/health/', err: { type: 'cache' }, code: 503, tag: '/x/' })).toBe(false)
  })

  it('escalation: the step at 0 is the first notice; a later first step means none; channels beside it stays ignored', () => {
    const later = read({ rules: [{ channels: ['chat'], escalation: [{ after: '5m', channels: ['sms'] }] }] })
    expect(later.rules[0]).toMatchObject({ notify: [], escalate: [{ afterMs: 300_000, notify: ['sms'] }] })
    expect(compileRule(later.rules[0] as RuleConfig).escalation).toEqual([
      { afterMs: 0, channels: [] },
      { afterMs: 300_000, channels: ['sms'] },
    ])
    expect(later.warnings.map((w) => `${w.path}: ${w.message}`)).toContain(
      'rules[0].channels: is ignored beside "escalation" (as it always was): its first step decides the first notice',
    )
    expect(rule({ escalation: [{ channels: 'chat' }, { after: 1000, channels: 'sms' }] })).toMatchObject({
      notify: ['chat'],
      escalate: [{ afterMs: 1000, notify: ['sms'] }],
    })
  })

  it('one group_by string and a window of 0 are read, with a warning; { regex } / { equals } silence matchers as they always were', () => {
    const { rules, silences, warnings } = read({
      rules: [{ group_by: 'host', threshold: { count: 2, within: 0 } }],
      silences: [{ matchers: { host: { regex: '^db-' }, rule: { equals: 'db' } }, ends_at: 5000 }],
    })
    expect(rules[0]).toMatchObject({ groupBy: ['host'], threshold: { count: 2, withinMs: 0 } })
    expect(silences[0]?.matchers).toEqual([
      { kind: 'regex', path: 'host', regex: /^db-/ },
      { kind: 'equals', path: 'rule', value: 'db' },
    ])
    expect(warnings.map((w) => `${w.code} ${w.path}`).sort()).toEqual([
      `${ConfigWarningCodes.VALUE_FORM} rules[0].group_by`,
      `${ConfigWarningCodes.VALUE_FORM} rules[0].threshold.within`,
    ])
  })

  it('a "/.../" silence matcher in options keeps its earlier meaning: equality, with a warning that says so', () => {
    const { silences, warnings } = read({
      silences: [{ matchers: { 'req.url': '/api/', path: '/srv/dim' }, ends_at: 5000 }],
    })
    const [url, path] = silences[0]?.matchers ?? []
    const test = (m: typeof url, text: string): boolean => m?.kind === 'regex' && m.regex.test(text)
    expect([test(url, '/api/'), test(url, '/v1/api/items'), test(path, '/srv/dim'), test(path, '/srv/dimmer')]).toEqual(
      [true, false, true, false],
    )
    expect(warnings.map((w) => `${w.code} ${w.path}`)).toEqual([
      `${ConfigWarningCodes.VALUE_FORM} silences[0].matchers["req.url"]`,
      `${ConfigWarningCodes.VALUE_FORM} silences[0].matchers.path`,
    ])
    expect(warnings[0]?.message).toContain('is compared for equality')
  })

  it('keys the targets never read in a threshold or a silence are still ignored, with a warning each', () => {
    const { rules, silences, warnings } = read({
      rules: [{ threshold: { count: 2, within: '1m', window: '5m' } }],
      silences: [{ matchers: { rule: 'db' }, start_at: 5000, ends_at: 9000, reason: 'deploy' }],
    })
    expect(rules[0]?.threshold).toEqual({ count: 2, withinMs: 60_000 })
    // The misspelt start was never read: the silence starts when it is loaded, as it did.
    expect(silences).toEqual(read({ silences: [{ matchers: { rule: 'db' }, ends_at: 9000 }] }).silences)
    expect(warnings.map((w) => `${w.code} ${w.path}: ${w.message}`)).toEqual([
      `${ConfigWarningCodes.IGNORED_KEY} rules[0].threshold.window: is ignored, as it always was here: remove it`,
      `${ConfigWarningCodes.IGNORED_KEY} silences[0].start_at: is ignored, as it always was here: remove it (did you mean "starts_at"?)`,
      `${ConfigWarningCodes.IGNORED_KEY} silences[0].reason: is ignored, as it always was here: remove it`,
    ])
  })

  it('silence times: a date Date.parse reads, and epoch ms with a fraction, mean what they meant', () => {
    const utc = new Date(Date.UTC(2031, 0, 2, 3, 4, 5)).toUTCString()
    const { silences, warnings } = read({
      silences: [
        { matchers: { rule: 'a' }, ends_at: utc },
        { matchers: { rule: 'b' }, starts_at: '2031/01/02', ends_at: 1_950_000_000_000.25 },
      ],
    })
    expect(silences.map((s) => [s.startsAt, s.endsAt])).toEqual([
      [undefined, Date.UTC(2031, 0, 2, 3, 4, 5)],
      // Rounded up: against whole milliseconds, `now < 1950000000000.25` is `now < 1950000000001`.
      [Date.parse('2031/01/02'), 1_950_000_000_001],
    ])
    expect(warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      'silences[0].ends_at: a date that is not ISO is deprecated: write "2031-01-02T03:04:05.000Z"',
      `silences[1].starts_at: a date that is not ISO is deprecated: write "${new Date(Date.parse('2031/01/02')).toISOString()}"`,
    ])
  })

  it('dot paths: options take any key a log has (@timestamp, a/b, 0), as the targets did; the YAML keeps to identifiers', () => {
    const { rules, silences, warnings } = read({
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
    expect(warnings).toEqual([])
    const yaml = parseAgentConfig(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nrules: [{ group_by: ["@timestamp"] }]\n',
      'agent.yaml',
      yamlOptions,
    )
    expect(yaml.ok ? [] : yaml.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'rules[0].group_by[0]: expected a dot path like err.type, got "@timestamp"',
    ])
  })

  it('the YAML reads none of them', () => {
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
  const noWarnings = (w: OptionWarning): never => {
    throw new Error(w.message)
  }
  const channel = (type: 'sms' | 'chat' | 'mail' | 'voice', options: Record<string, unknown>, maxPerHour?: number) => {
    const result = readChannelOptions(type, options, maxPerHour, noWarnings)
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

  it('keys the targets ignored in a voice receiver or a per-kind template still are, with a warning each', () => {
    const warnings: OptionWarning[] = []
    const read = (type: 'sms' | 'voice', options: Record<string, unknown>) => {
      const result = readChannelOptions(type, options, undefined, (w) => warnings.push(w))
      if (!result.ok) throw new Error(JSON.stringify(result.problems))
      return result.value
    }
    expect(
      read('voice', { receivers: [{ label: 'primary', number: '+919800000004', name: 'Asha' }], audio: ['a.mp3'] }),
    ).toEqual(read('voice', { receivers: [{ label: 'primary', number: '+919800000004' }], audio: ['a.mp3'] }))
    expect(
      read('sms', { numbers: 919800000001, template: { firing: '{{title}}', repeat: 'again {{title}}' } }),
    ).toMatchObject({
      template: { firing: '{{title}}', resolved: undefined, digest: undefined },
    })
    expect(warnings.map((w) => `${w.code} ${w.path}`)).toEqual([
      `${ConfigWarningCodes.IGNORED_KEY} receivers[0].name`,
      `${ConfigWarningCodes.IGNORED_KEY} template.repeat`,
    ])
  })

  it('a target has no people: `people` is no option, its recipients are required, and it reaches no one by name', () => {
    expect(channelOptionKeys('voice')).toEqual(['receivers', 'audio', 'concurrency'])
    expect(channel('sms', { numbers: 919800000001 }).people).toEqual([])
    const problems = (type: 'sms' | 'mail' | 'voice', options: Record<string, unknown>) => {
      const result = readChannelOptions(type, options, undefined, noWarnings)
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
      const result = readChannelOptions(type, options, undefined, noWarnings)
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
