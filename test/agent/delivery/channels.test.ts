// The channel request builders and the CRM events (pure): a target's options, normalized as the
// YAML's channels are, give the exact requests the messaging API gets.
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type ChannelDefinition, type Delivery } from '../../../alerts'
import type { ChannelConfig } from '../../../agent/config/types'
import { buildChannelRequests } from '../../../agent/delivery/channels'
import { incidentActivities } from '../../../agent/delivery/record/incident-activities'
import { incidentEvent, sentActivity } from '../../../agent/delivery/record/incident-event'
import { normalizeChatOptions } from '../../../agent/transports/chat/options'
import { normalizeMailOptions } from '../../../agent/transports/mail/options'
import { secretsOf } from '../../../agent/transports/shared/alert-target'
import { normalizeSmsOptions } from '../../../agent/transports/sms/options'
import { normalizeVoiceOptions } from '../../../agent/transports/voice/options'
import { channelOf, rulesOf, type TestChannel } from '../../alerts/helpers'

const api = { messagingUrl: 'http://127.0.0.1:4010', apiKey: 'k' }
const line = JSON.stringify({ level: 50, time: 0, msg: 'db down', hostname: 'db-1', name: 'billing' })

function deliveryFor(channel: ChannelDefinition): Delivery {
  const engine = createAlertEngine({ channels: [channel], rules: rulesOf(undefined, [channel.name]) })
  const [delivery] = engine.ingest(line, 1_700_000_000_000)
  if (delivery === undefined) throw new Error('no delivery')
  return delivery
}

const requestsOf = (channel: ChannelConfig): ReturnType<typeof buildChannelRequests> =>
  buildChannelRequests(channel, deliveryFor(channel))

describe('request builders (pure)', () => {
  it('sms: one request with every number and the options', () => {
    const { channel } = normalizeSmsOptions(
      { ...api, numbers: [919800000001, '+91 98000 00002'], senderId: 'LOGX', route: 'tr' },
      {},
    )
    const [request] = requestsOf(channel)
    expect(request).toMatchObject({
      kind: 'sms',
      request: { text: 'FIRING db down (1x, default)', senderId: 'LOGX', route: 'tr' },
      summary: 'FIRING db down (1x, default)',
    })
    expect((request?.request as { numbers: unknown[] }).numbers.map(String)).toEqual([
      '919800000001',
      '+91 98000 00002',
    ])
  })

  it('chat: one request per recipient with the rendered variables', () => {
    const { channel } = normalizeChatOptions(
      {
        ...api,
        templateId: 5,
        numbers: ['+1555010', '+1555011'],
        variables: ['{{title}}', '{{hostname}}'],
        attachment: 'http://x/y.png',
      },
      {},
    )
    expect(requestsOf(channel).map((r) => r.request)).toEqual([
      { templateId: 5, number: '+1555010', variables: ['db down', 'db-1'], attachment: 'http://x/y.png' },
      { templateId: 5, number: '+1555011', variables: ['db down', 'db-1'], attachment: 'http://x/y.png' },
    ])
  })

  it('mail: html by default, text on request', () => {
    const html = normalizeMailOptions({ ...api, from: 'a@b.co', to: ['c@d.co'] }, {}).channel
    const [r] = requestsOf(html)
    expect(r?.request).toMatchObject({ from: 'a@b.co', to: ['c@d.co'], subject: '[FIRING] db down' })
    expect(String((r?.request as { message: string }).message)).toContain('<h2>db down</h2>')
    const text = normalizeMailOptions({ ...api, from: 'a@b.co', to: ['c@d.co'], format: 'text' }, {}).channel
    expect(String((requestsOf(text)[0]?.request as { message: string }).message)).not.toContain('<')
  })

  it('voice: receivers and audio', () => {
    const { channel } = normalizeVoiceOptions(
      { ...api, receivers: [{ label: 'oncall', number: '+15550100' }], audio: ['a.mp3'] },
      {},
    )
    expect(requestsOf(channel)).toEqual([
      {
        kind: 'voice',
        request: { receivers: [{ label: 'oncall', number: '+15550100' }], audioFiles: ['a.mp3'] },
        summary: 'called oncall; played a.mp3',
      },
    ])
  })

  it('builders ignore deliveries of another channel type', () => {
    const { channel } = normalizeSmsOptions({ ...api, numbers: [1234567] }, {})
    const chat = deliveryFor(channelOf({ type: 'chat', name: 'sms' }))
    expect(buildChannelRequests(channel, chat)).toEqual([])
  })
})

describe('incident events (pure)', () => {
  const of = (c: TestChannel): Delivery => deliveryFor(channelOf(c))

  it('carry what the lead needs and the activity', () => {
    const d = of({ type: 'sms' })
    const event = incidentEvent(d, sentActivity(d, 'FIRING db down'), undefined)
    expect(event).toMatchObject({
      title: 'db down',
      rule: 'default',
      kind: 'firing',
      count: 1,
      service: 'billing',
      host: 'db-1',
    })
    expect(event.activity).toEqual({
      type: 'MESSAGE',
      title: 'SMS sent (firing) via sms',
      notes: 'FIRING db down\ncount: 1 (1 new)',
    })
    expect(JSON.parse(JSON.stringify(event))).toEqual(event)
  })

  it('voice is a PHONECALL; counts, opening and resolve are NOTEs; escalations follow the step', () => {
    const voice = of({ type: 'voice', receivers: [], audio: ['a'] })
    expect(sentActivity(voice, 'x').type).toBe('PHONECALL')
    const opened = of({ type: 'incident' })
    expect(incidentActivities(opened)).toEqual([expect.objectContaining({ type: 'NOTE', title: 'Incident opened' })])
    const escalated = { ...opened, notice: { ...opened.notice, kind: 'escalated' as const, channels: ['voice'] } }
    expect(incidentActivities(escalated)[0]).toMatchObject({ type: 'PHONECALL', title: 'Escalated to voice (step 0)' })
  })

  it('secretsOf keeps keys, tokens and the lead URL path out', () => {
    expect(secretsOf(['k-1', undefined, 'http://h:1/webhooks/lead/acc?sig=2'])).toEqual([
      'k-1',
      'http://h:1/webhooks/lead/acc?sig=2',
      '/webhooks/lead/acc',
      '?sig=2',
    ])
  })
})
