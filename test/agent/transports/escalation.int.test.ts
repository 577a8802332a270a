// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import logx from 'logx'
import { describe, expect, it } from 'vitest'
import { apiOptions, closeLogger, useRemoteSandbox } from './helpers'

const ctx = useRemoteSandbox('logx-escalation-', { resetEach: false })

describe('one incident across targets of one worker', () => {
  it('escalates chat -> sms, resolves, and leaves one lead with the whole trail', async () => {
    const api = apiOptions(ctx.sandbox)
    const { messagingUrl: _url, apiKey: _key, ...crm } = api
    const rules = [
      {
        name: 'payments',
        notify: ['chat'],
        escalate: [{ after: '100ms', notify: ['sms'] }],
        resolve_after: '1s',
        send_resolved: true,
      },
    ]
    const common = { rules, tickMs: 25, incident: true }
    const logger = logx({
      transport: {
        targets: [
          { target: 'logx-chat-alert', options: { ...api, ...common, templateId: 4, numbers: ['+919800000001'] } },
          { target: 'logx-sms-alert', options: { ...api, ...common, numbers: [919800000001] } },
          { target: 'logx-incident', options: { ...crm, rules, tickMs: 25 } },
        ],
      },
    })
    logger.error({ hostname: 'pay-1' }, 'card processor down')

    // Events, not sleeps: each step is awaited by polling the sandbox with a bounded deadline.
    const chats = await ctx.sandbox.waitFor('chat', 1)
    const sms = await ctx.sandbox.waitFor('sms', 2)
    await ctx.sandbox.waitFor('chat', 2)
    await closeLogger(logger)

    expect(chats[0]?.variable).toEqual(['FIRING', 'card processor down', '1', 'payments'])
    expect(sms.map((r) => r.sms)).toEqual([
      'ESCALATED card processor down (1x, payments)',
      'RESOLVED card processor down after 1x (payments)',
    ])
    expect((await ctx.sandbox.records('chat')).map((r) => (r.variable as string[])[0])).toEqual(['FIRING', 'RESOLVED'])

    const leads = await ctx.sandbox.records('lead')
    expect(leads).toHaveLength(1)
    const trail = (await ctx.sandbox.records('activity')).map((a) => `${a.activity_type} ${a.title}`)
    expect(new Set((await ctx.sandbox.records('activity')).map((a) => a.lead_id))).toEqual(
      new Set([Number(leads[0]?.lead_id)]),
    )
    expect(trail.sort()).toEqual(
      [
        'MESSAGE CHAT sent (firing) via chat',
        'MESSAGE CHAT sent (resolved) via chat',
        'MESSAGE Escalated to sms (step 1)',
        'MESSAGE SMS sent (escalated) via sms',
        'MESSAGE SMS sent (resolved) via sms',
        'NOTE Incident opened',
        'NOTE Resolved',
      ].sort(),
    )
  })
})
