// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import logx from 'logx'
import { describe, expect, it } from 'vitest'
import { apiOptions, closeLogger, useRemoteSandbox } from './helpers'

const run = promisify(execFile)
const ctx = useRemoteSandbox('logx-alerts-')
const { tmp } = ctx

describe('logx-sms-alert in an app (real worker threads, sandbox API)', () => {
  it('10,000 identical errors send ONE SMS and make one lead with an activity trail', async () => {
    const stateDir = join(tmp, 'state-10k')
    const logger = logx({
      transport: {
        pipeline: [
          { target: 'logx-tail-filter', options: {} },
          {
            target: 'logx-sms-alert',
            options: { ...apiOptions(ctx.sandbox), numbers: [919800000001], incident: true, stateDir },
          },
        ],
      },
    })
    for (let i = 0; i < 10_000; i++) {
      logger.info({ i }, 'request served')
      logger.error(
        { err: new Error(`query ${i} timed out`), name: 'billing', hostname: 'db-1' },
        `query ${i} timed out`,
      )
    }
    await closeLogger(logger)

    const sms = await ctx.sandbox.records('sms')
    expect(sms).toHaveLength(1)
    expect(sms[0]?.numbers).toEqual([919800000001])
    expect(String(sms[0]?.sms)).toContain('FIRING query 0 timed out (1x, default)')

    const leads = await ctx.sandbox.records('lead')
    expect(leads).toHaveLength(1)
    expect(leads[0]?.name).toBe('query 0 timed out')
    expect(leads[0]?.other_fields).toMatchObject({ rule: 'default', service: 'billing', host: 'db-1', count: '1' })
    const activities = await ctx.sandbox.records('activity')
    expect(activities).toHaveLength(1)
    expect(activities[0]).toMatchObject({
      activity_type: 'MESSAGE',
      title: 'SMS sent (firing) via sms',
      lead_id: Number(leads[0]?.lead_id),
    })
    expect(String(activities[0]?.notes)).toContain('FIRING query 0 timed out')
    // Keyed by the message's outbox item: one call each, one item behind both.
    const leadKey = String(leads[0]?.idempotency_key)
    expect(leadKey).toMatch(/^.+:lead$/)
    expect(activities[0]?.idempotency_key).toBe(leadKey.replace(/:lead$/, ':activity'))
    // The SMS itself carries its outbox item's id, the prefix of both CRM keys.
    expect(sms[0]?.idempotency_key).toBe(leadKey.replace(/:lead$/, ''))

    // The map survives: the lead id is kept for the incident's fingerprint.
    const map = JSON.parse(readFileSync(join(stateDir, 'incident-leads.json'), 'utf8'))
    expect(Object.values(map.leads)).toEqual([{ leadId: leads[0]?.lead_id, resolved: false }])
  })

  it('an app that exits right after logger.fatal() still delivers its alert (env fallbacks)', async () => {
    const app = join(__dirname, '..', '..', 'fixtures', 'transports', 'apps', 'alert-exit-app.js')
    const result = await run(
      process.execPath,
      [app, 'logx-sms-alert', JSON.stringify({ numbers: ['+91 98000 00002'] })],
      {
        env: { ...process.env, LOGX_MESSAGING_URL: ctx.sandbox.info.baseUrl, LOGX_API_KEY: ctx.sandbox.apiKey },
      },
    ).catch((err: { code?: number; stderr?: string }) => err)
    expect((result as { code?: number }).code).toBe(1)
    const sms = await ctx.sandbox.records('sms')
    expect(sms).toHaveLength(1)
    expect(sms[0]?.sms).toBe('FIRING fatal: cannot continue: Error: disk on fire (1x, default)')
    expect(JSON.stringify(sms)).not.toContain(ctx.sandbox.apiKey)
  })

  it('loses no alert while the sandbox fails 50% of requests', async () => {
    await ctx.sandbox.fault({ kind: 'error', status: 503, rate: 0.5 })
    const logger = logx({
      transport: {
        target: 'logx-sms-alert',
        options: {
          ...apiOptions(ctx.sandbox),
          numbers: [919800000003],
          rules: [{ group_by: ['job'] }],
          incident: true,
          retryDelayMs: 10,
          maxRetryDelayMs: 50,
          maxAttempts: 30,
          drainTimeoutMs: 8000,
        },
      },
    })
    for (let job = 0; job < 20; job++) logger.error({ job }, 'job failed')
    await closeLogger(logger)
    const sms = await ctx.sandbox.records('sms')
    expect(sms).toHaveLength(20)
    expect(new Set(sms.map((r) => r.sms)).size).toBe(1)
    expect(await ctx.sandbox.records('lead')).toHaveLength(20)
    expect(await ctx.sandbox.records('activity')).toHaveLength(20)
  })

  it('with a file outbox, an alert the API refused until exit is sent at the next start', async () => {
    const outbox = join(tmp, 'outbox', 'sms.jsonl')
    const options = { ...apiOptions(ctx.sandbox), numbers: [919800000004], outbox, drainTimeoutMs: 300 }
    await ctx.sandbox.fault({ kind: 'error', status: 503 })
    const first = logx({ transport: { target: 'logx-sms-alert', options } })
    first.error('payment provider unreachable')
    await closeLogger(first)
    expect(await ctx.sandbox.records('sms')).toHaveLength(0)

    await ctx.sandbox.reset()
    const second = logx({ transport: { target: 'logx-sms-alert', options } })
    const sms = await ctx.sandbox.waitFor('sms', 1)
    expect(sms.map((r) => r.sms)).toEqual(['FIRING payment provider unreachable (1x, default)'])
    await closeLogger(second)
    expect(await ctx.sandbox.records('sms')).toHaveLength(1)
  })
})
