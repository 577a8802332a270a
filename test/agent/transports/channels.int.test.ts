// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import logx from 'logx'
import { describe, expect, it } from 'vitest'
import { apiOptions, closeLogger, streamOf, useRemoteSandbox } from './helpers'

const ctx = useRemoteSandbox('logx-channels-')
const { tmp } = ctx

describe('alert targets through logx({ transport }) and the sandbox', () => {
  it('logx-chat-alert next to logx/file, routed at level error, sends template variables', async () => {
    const file = join(tmp, 'app.log')
    const logger = logx({
      transport: {
        targets: [
          { target: 'logx/file', options: { destination: file } },
          {
            target: 'logx-chat-alert',
            level: 'error',
            options: {
              ...apiOptions(ctx.sandbox),
              templateId: 7,
              numbers: ['+919800000001', '+919800000002'],
              variables: ['{{status}}', '{{err.type}}', '{{count}}'],
            },
          },
        ],
      },
    })
    logger.info('hello')
    class DbError extends Error {}
    logger.error(new DbError('boom'), 'db failed')
    await closeLogger(logger)
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2)
    const chats = await ctx.sandbox.records('chat')
    expect(chats.map((c) => c.number).sort()).toEqual(['+919800000001', '+919800000002'])
    expect(chats[0]?.template_id).toBe(7)
    expect(chats[0]?.variable).toEqual(['FIRING', 'DbError', '1'])
  })

  it('logx-mail-alert sends subject and an HTML body with fields and an escaped stack; redacted fields never appear', async () => {
    // The logger's redact syntax, as an app would copy its own `redact` list here.
    const redact = ['*.password', 'cards[*].number', 'req.headers["x-api-key"]']
    const logger = logx({
      transport: {
        target: 'logx-mail-alert',
        options: { ...apiOptions(ctx.sandbox), from: 'alerts@example.com', to: ['ops@example.com'], redact },
      },
    })
    const fields = {
      user: { name: 'ann', password: 'hunter2' },
      cards: [{ number: '4111-planted' }],
      req: { url: '/pay', headers: { 'x-api-key': 'key-planted' } },
    }
    logger.error({ err: new Error('<script>x</script>'), ...fields }, 'payment <failed>')
    await closeLogger(logger)
    const [mail] = await ctx.sandbox.records('mail')
    // The subject names the cause, as text (the body escapes it).
    expect(mail?.subject).toBe('[FIRING] payment <failed>: Error: <script>x</script>')
    const body = String(mail?.message)
    expect(body).toContain('payment &#60;failed&#62;')
    expect(body).toContain('&#60;script&#62;x&#60;/script&#62;')
    expect(body).toContain('/pay')
    expect(body).not.toContain('<script>')
    expect(body).not.toContain('hunter2')
    expect(body).not.toContain('4111-planted')
    expect(body).not.toContain('key-planted')
    expect(body).not.toContain(ctx.sandbox.apiKey)
  })

  it('logx-voice-alert places a broadcast with receivers and audio from options', async () => {
    const logger = logx({
      transport: {
        target: 'logx-voice-alert',
        options: {
          ...apiOptions(ctx.sandbox),
          receivers: [{ label: 'oncall', number: '+15550100' }],
          audio: ['alarm.mp3'],
        },
      },
    })
    logger.fatal('datacenter down')
    await closeLogger(logger)
    const [call] = await ctx.sandbox.records('voice')
    expect(JSON.parse(String(call?.receiver))).toEqual([['oncall', '+15550100']])
    expect(JSON.parse(String(call?.attachment))).toEqual(['alarm.mp3'])
  })

  it('logx-incident records a lead per incident with NOTE activities, and keeps the lead across restarts', async () => {
    const stateDir = join(tmp, 'incident-state')
    const { messagingUrl: _url, apiKey: _key, ...crm } = apiOptions(ctx.sandbox)
    const options = { ...crm, stateDir, rules: [{ name: 'cache', repeat_interval: 0 }] }
    for (let run = 0; run < 2; run++) {
      const logger = logx({ transport: { target: 'logx-incident', options } })
      logger.error({ hostname: 'web-1' }, 'cache miss storm')
      await closeLogger(logger)
    }
    const leads = await ctx.sandbox.records('lead')
    expect(leads).toHaveLength(1)
    expect(leads[0]?.other_fields).toMatchObject({ host: 'web-1', rule: 'cache', count: '1' })
    const activities = await ctx.sandbox.records('activity')
    expect(activities).toHaveLength(2)
    expect(activities.map((a) => [a.activity_type, a.title, a.lead_id])).toEqual([
      ['NOTE', 'Incident opened', Number(leads[0]?.lead_id)],
      ['NOTE', 'Incident opened', Number(leads[0]?.lead_id)],
    ])
    expect(JSON.stringify(activities)).not.toContain(ctx.sandbox.activityToken)
  })

  it('a failing API never blocks logging, and the worker still exits within the drain bound', async () => {
    const logger = logx({
      transport: {
        target: 'logx-sms-alert',
        options: {
          messagingUrl: 'http://127.0.0.1:9',
          apiKey: 'k-secret',
          numbers: [919800000001],
          drainTimeoutMs: 300,
        },
      },
    })
    for (let i = 0; i < 1000; i++) expect(() => logger.error({ i }, `failure ${i}`)).not.toThrow()
    await closeLogger(logger)
  })

  it('a missing required option fails the target at start, naming the option', async () => {
    const logger = logx({ transport: { target: 'logx-sms-alert', options: { ...apiOptions(ctx.sandbox) } } })
    const failed = once(streamOf(logger), 'error')
    logger.error('x')
    const [err] = (await failed) as [Error]
    expect(err.message).toContain('logx-sms-alert: options.numbers: is required')
  })

  it('two targets of one worker on the same outbox file: the second fails at start, naming the option', async () => {
    const outbox = join(tmp, 'one-outbox.jsonl')
    const logger = logx({
      transport: {
        targets: [
          { target: 'logx-sms-alert', options: { ...apiOptions(ctx.sandbox), numbers: [919800000001], outbox } },
          {
            target: 'logx-chat-alert',
            options: { ...apiOptions(ctx.sandbox), templateId: 7, numbers: ['+919800000001'], outbox },
          },
        ],
      },
    })
    const failed = once(streamOf(logger), 'error')
    logger.error('x')
    const [err] = (await failed) as [Error]
    expect(err.message).toContain(
      `logx-chat-alert: options.outbox: ${outbox} is already the outbox of logx-sms-alert in this worker`,
    )
  })
})
