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
      () => normalizeTailFilterOptions({ rules: [{ message: '(' }] }),
      'rules[0].message',
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

  it('the earlier forms, never released, are refused: msg, retry, a redact key with blanks', () => {
    const sms = { ...api, numbers: [1234567] }
    expect(() => normalizeSmsOptions({ ...sms, rules: [{ msg: 'timeout' }] }, noEnv)).toThrow(
      'logx-sms-alert: options.rules[0].msg: unknown key "msg"',
    )
    expect(() =>
      normalizeMailOptions({ ...api, from: 'a@b.co', to: ['c@d.co'], retry: { retries: 5 } }, noEnv),
    ).toThrow(/logx-mail-alert: options\.retry: /)
    expect(() => normalizeSmsOptions({ ...sms, redact: ['card number'] }, noEnv)).toThrow(
      /logx-sms-alert: options\.redact\[0\]: /,
    )
  })

  it('a tail filter reads the same rules, compiled', () => {
    const { rules } = normalizeTailFilterOptions({
      rules: [{ name: 'slow', level: 'warn', match: { 'req.url': '/^\\/api/' } }],
    })
    expect(rules.map((r) => [r.name, r.minLevel, r.match.length])).toEqual([['slow', 40, 1]])
  })
})
