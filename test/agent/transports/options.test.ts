import { describe, expect, it } from 'vitest'
import { normalizeChatOptions } from '../../../agent/transports/chat/options'
import { normalizeIncidentOptions } from '../../../agent/transports/incident/options'
import { normalizeMailOptions } from '../../../agent/transports/mail/options'
import { TransportError, TransportErrorCodes } from '../../../agent/transports/shared/errors'
import { normalizeSmsOptions } from '../../../agent/transports/sms/options'
import { normalizeTailFilterOptions } from '../../../agent/transports/tail-filter/options'
import { normalizeVoiceOptions } from '../../../agent/transports/voice/options'

const api = { messagingUrl: 'http://127.0.0.1:4010', apiKey: 'key-from-options' }
const crm = {
  leadWebhook: 'http://127.0.0.1:4010/webhooks/lead/acc',
  activityWebhook: 'http://127.0.0.1:4010/webhooks/activity',
  activityToken: 'tok',
}
const noEnv = {}

function failure(fn: () => unknown): TransportError {
  try {
    fn()
  } catch (err) {
    if (err instanceof TransportError) return err
    throw err
  }
  throw new Error('expected a TransportError')
}

describe('missing or bad options fail at start, naming the option', () => {
  it.each([
    ['sms', () => normalizeSmsOptions({ ...api }, noEnv), 'numbers', 'logx-sms-alert: options.numbers: is required'],
    ['sms', () => normalizeSmsOptions({ ...api, numbers: [] }, noEnv), 'numbers', 'must not be empty'],
    ['sms', () => normalizeSmsOptions({ ...api, numbers: ['call me'] }, noEnv), 'numbers[0]', 'phone number'],
    ['sms', () => normalizeSmsOptions({ numbers: [1234567] }, noEnv), 'messagingUrl', 'LOGX_MESSAGING_URL'],
    [
      'sms',
      () => normalizeSmsOptions({ numbers: [1234567], messagingUrl: api.messagingUrl }, noEnv),
      'apiKey',
      'LOGX_API_KEY',
    ],
    ['sms', () => normalizeSmsOptions({ ...api, numbers: [1234567], bogus: 1 }, noEnv), 'bogus', 'unknown option'],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], rules: [{ level: 'loud' }] }, noEnv),
      'rules[0].level',
      'expected a level',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], rules: [{ match: { user: '/(/' } }] }, noEnv),
      'rules[0].match.user',
      'invalid regular expression',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], rules: [{ msg: 'a', message: 'b' }] }, noEnv),
      'rules[0].msg',
      'earlier name of "message"',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], silences: [{ matchers: {}, ends_at: 1 }] }, noEnv),
      'silences[0].matchers',
      'must not be empty',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], maxPerHour: 2.5 }, noEnv),
      'maxPerHour',
      'positive integer',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], redact: ['user.password', 'a..b'] }, noEnv),
      'redact[1]',
      'at column 3: empty segment',
    ],
    ['sms', () => normalizeSmsOptions({ ...api, numbers: [1234567], rules: [] }, noEnv), 'rules', 'must not be empty'],
    ['sms', () => normalizeSmsOptions({ ...api, numbers: [1234567], retry: 3 }, noEnv), 'retry', 'expected an object'],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], incident: true }, noEnv),
      'leadWebhook',
      'LOGX_LEAD_WEBHOOK',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], rules: [{ name: 'a' }, { incident: true }] }, noEnv),
      'rules[1].incident',
      'needs the incident option',
    ],
    [
      'sms',
      () => normalizeSmsOptions({ ...api, numbers: [1234567], drainTimeoutMs: -1 }, noEnv),
      'drainTimeoutMs',
      'positive',
    ],
    ['chat', () => normalizeChatOptions({ ...api, numbers: ['+919800000001'] }, noEnv), 'templateId', 'is required'],
    ['chat', () => normalizeChatOptions({ ...api, templateId: 3 }, noEnv), 'numbers', 'is required'],
    [
      'chat',
      () => normalizeChatOptions({ ...api, templateId: 3, numbers: ['919800000001'] }, noEnv),
      'numbers[0]',
      'country prefix',
    ],
    ['mail', () => normalizeMailOptions({ ...api, to: ['a@b.co'] }, noEnv), 'from', 'is required'],
    ['mail', () => normalizeMailOptions({ ...api, from: 'a@b.co' }, noEnv), 'to', 'is required'],
    ['mail', () => normalizeMailOptions({ ...api, from: 'a@b.co', to: ['nope'] }, noEnv), 'to[0]', 'e-mail'],
    ['voice', () => normalizeVoiceOptions({ ...api, audio: ['a.mp3'] }, noEnv), 'receivers', 'is required'],
    [
      'voice',
      () => normalizeVoiceOptions({ ...api, receivers: [{ label: 'a', number: '+15550100' }] }, noEnv),
      'audio',
      'is required',
    ],
    [
      'voice',
      () => normalizeVoiceOptions({ ...api, receivers: [{ label: 'a' }], audio: ['a.mp3'] }, noEnv),
      'receivers[0].number',
      'is required',
    ],
    [
      'voice',
      () => normalizeVoiceOptions({ ...api, receivers: [{ label: 'a', number: 'x' }], audio: ['a.mp3'] }, noEnv),
      'receivers[0].number',
      'phone',
    ],
    [
      'incident',
      () => normalizeIncidentOptions({ leadWebhook: crm.leadWebhook, activityWebhook: crm.activityWebhook }, noEnv),
      'activityToken',
      'LOGX_ACTIVITY_TOKEN',
    ],
    [
      'incident',
      () => normalizeIncidentOptions({ ...crm, leadWebhook: 'not a url' }, noEnv),
      'leadWebhook',
      'http(s) URL',
    ],
    [
      'tail-filter',
      () => normalizeTailFilterOptions({ rules: [{ msg: '(' }] }),
      'rules[0].msg',
      'invalid regular expression',
    ],
    ['tail-filter', () => normalizeTailFilterOptions({ annotate: 'yes' }), 'annotate', 'true or false'],
  ])('%s: %s', (_target, fn, option, text) => {
    const err = failure(fn)
    expect(err.code).toBe(TransportErrorCodes.INVALID_OPTION)
    expect(err.option).toBe(option)
    expect(err.message).toContain(`options.${option}: `)
    expect(err.message).toContain(text)
  })
})

describe('environment fallbacks', () => {
  const env = {
    LOGX_MESSAGING_URL: 'http://env.example:1',
    LOGX_API_KEY: 'env-key',
    LOGX_LEAD_WEBHOOK: 'http://env.example:1/webhooks/lead/x',
    LOGX_ACTIVITY_WEBHOOK: 'http://env.example:1/webhooks/activity',
    LOGX_ACTIVITY_TOKEN: 'env-token',
  }

  it('fills the API and the CRM from the environment', () => {
    const o = normalizeSmsOptions({ numbers: [1234567], incident: true }, env)
    expect(o.api).toEqual({ messagingUrl: 'http://env.example:1', apiKey: 'env-key' })
    expect(o.crm).toEqual({
      leadWebhook: env.LOGX_LEAD_WEBHOOK,
      activityWebhook: env.LOGX_ACTIVITY_WEBHOOK,
      activityToken: 'env-token',
      stateDir: undefined,
    })
  })

  it('options win over the environment', () => {
    const o = normalizeSmsOptions({ ...api, numbers: [1234567], incident: true, ...crm }, env)
    expect(o.api).toEqual(api)
    expect(o.crm?.activityToken).toBe('tok')
  })

  it('normalizes defaults', () => {
    const o = normalizeSmsOptions({ ...api, numbers: [1234567] }, noEnv)
    expect(o.common).toMatchObject({
      drainTimeoutMs: 5000,
      tickMs: 1000,
      redact: [],
      outboxPath: undefined,
      silences: [],
    })
    expect(o.common.rules.map((r) => [r.name, r.minLevel, r.notify])).toEqual([['default', 50, ['sms']]])
    expect(o.crm).toBeUndefined()
    expect(o.channel).toEqual({
      type: 'sms',
      name: 'sms',
      maxPerHour: undefined,
      numbers: ['1234567'],
      senderId: undefined,
      route: undefined,
      templateId: undefined,
      template: { firing: undefined, resolved: undefined, digest: undefined },
      maxLength: 160,
      people: [],
    })
  })
})

/** The deprecation warnings `run` gives (process.emitWarning reports them on the next tick). */
async function warningsOf(
  target: string,
  run: () => unknown,
): Promise<{ code: string | undefined; message: string }[]> {
  const seen: { code: string | undefined; message: string }[] = []
  const listener = (w: Error & { code?: string }): void => {
    if (w.name === 'DeprecationWarning' && w.message.startsWith(`${target}: `))
      seen.push({ code: w.code, message: w.message })
  }
  process.on('warning', listener)
  try {
    run()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', listener)
  }
  return seen
}

describe("rules, silences and channels: the YAML config's vocabulary", () => {
  it("rules and silences come out normalized as the YAML's do, the channel as a YAML channel", () => {
    const o = normalizeChatOptions(
      {
        ...api,
        templateId: 4,
        numbers: ['+91 98000 00001'],
        maxPerHour: 3,
        rules: [
          {
            name: 'db',
            match: { 'err.type': '/^Db/' },
            message: 'timeout',
            notify: 'chat',
            escalate: [{ after: '10 m', notify: 'sms' }],
          },
        ],
        silences: [{ matchers: { rule: 'db' }, ends_at: '2030-01-01T00:00:00Z' }],
      },
      noEnv,
    )
    expect(o.common.rules).toEqual([
      expect.objectContaining({
        name: 'db',
        match: [{ kind: 'regex', path: 'err.type', regex: /^Db/ }],
        message: /timeout/,
        notify: ['chat'],
        escalate: [{ afterMs: 600_000, notify: ['sms'] }],
      }),
    ])
    expect(o.common.silences).toEqual([
      {
        matchers: [{ kind: 'equals', path: 'rule', value: 'db' }],
        startsAt: undefined,
        endsAt: Date.parse('2030-01-01T00:00:00Z'),
        comment: undefined,
      },
    ])
    expect(o.channel).toMatchObject({
      type: 'chat',
      name: 'chat',
      numbers: ['+919800000001'],
      templateId: 4,
      maxPerHour: 3,
    })
  })

  it('the earlier rule keys still work, each use a deprecation warning naming the option and the key to write, once', async () => {
    const options = {
      ...api,
      numbers: [1234567],
      rules: [{ name: 'db', msg: 'timeout', fields: { 'err.type': 'DbError' }, channels: ['sms'] }],
    }
    let first: ReturnType<typeof normalizeSmsOptions> | undefined
    const warnings = await warningsOf('logx-sms-alert', () => {
      first = normalizeSmsOptions(options, noEnv)
      normalizeSmsOptions(options, noEnv)
    })
    expect(warnings).toEqual([
      {
        code: 'LOGX_DEP_RULE_KEY',
        message:
          'logx-sms-alert: options.rules[0].msg: "msg" is deprecated: write "message" (a "/pattern/flags" string, or a bare pattern)',
      },
      {
        code: 'LOGX_DEP_RULE_KEY',
        message: expect.stringMatching(
          /^logx-sms-alert: options\.rules\[0\]\.fields: "fields" is deprecated: write "match"/,
        ),
      },
      {
        code: 'LOGX_DEP_RULE_KEY',
        message: 'logx-sms-alert: options.rules[0].channels: "channels" is deprecated: write "notify"',
      },
    ])
    const current = normalizeSmsOptions(
      {
        ...api,
        numbers: [1234567],
        rules: [{ name: 'db', message: 'timeout', match: { 'err.type': 'DbError' }, notify: ['sms'] }],
      },
      noEnv,
    )
    expect(first?.common.rules).toEqual(current.common.rules)
  })

  it('retry is accepted, says it is ignored, and is not passed on (the outbox retries)', async () => {
    let o: ReturnType<typeof normalizeMailOptions> | undefined
    const warnings = await warningsOf('logx-mail-alert', () => {
      o = normalizeMailOptions({ ...api, from: 'a@b.co', to: ['c@d.co'], retry: { retries: 5 } }, noEnv)
    })
    expect(warnings).toEqual([
      {
        code: 'LOGX_DEP_RETRY_OPTION',
        message: expect.stringContaining('logx-mail-alert: options.retry: is deprecated and ignored'),
      },
    ])
    expect(o?.common).not.toHaveProperty('retry')
  })

  it('a redact key with blanks or quotes, which targets split at dots, still censors that key, with a warning', async () => {
    let o: ReturnType<typeof normalizeSmsOptions> | undefined
    const warnings = await warningsOf('logx-sms-alert', () => {
      o = normalizeSmsOptions(
        { ...api, numbers: [1234567], redact: ['user.password', 'card number', "req.o'brien"] },
        noEnv,
      )
    })
    expect(o?.common.redact).toEqual([['user', 'password'], ['card number'], ['req', "o'brien"]])
    expect(warnings).toEqual([
      {
        code: 'LOGX_DEP_VALUE_FORM',
        message:
          'logx-sms-alert: options.redact[1]: a key with blanks or quotes outside brackets is deprecated: write ["card number"]',
      },
      {
        code: 'LOGX_DEP_VALUE_FORM',
        message:
          'logx-sms-alert: options.redact[2]: a key with blanks or quotes outside brackets is deprecated: write req["o\'brien"]',
      },
    ])
  })

  it('a tail filter reads the same rules, compiled', () => {
    const { rules } = normalizeTailFilterOptions({
      rules: [{ name: 'slow', level: 'warn', match: { 'req.url': '/^\\/api/' } }],
    })
    expect(rules.map((r) => [r.name, r.minLevel, r.match.length])).toEqual([['slow', 40, 1]])
  })
})
