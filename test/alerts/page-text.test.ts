// What a page says beyond the title: the error behind it, and how to acknowledge it.
import { describe, expect, it } from 'vitest'
import { compileChannel } from '../../alerts/channels'
import type { Notice, NoticeKind } from '../../alerts/notice'
import { renderMessage, type RenderOptions } from '../../alerts/render'
import {
  channelOf,
  createClock,
  createConfiguredEngine,
  createTestEngine,
  jsonLine,
  snapshotOf,
  type TestChannel,
} from './helpers'

const hint = 'Ack: give a missed call to +918033333333'
const ack: RenderOptions = { ackHint: hint, ackAudio: 'ack-howto.mp3' }
const line = jsonLine({ msg: 'query failed', err: { type: 'TypeError', message: 'connection refused' } })
const render = (written: TestChannel, n: Notice, options: RenderOptions = ack) =>
  renderMessage(compileChannel(channelOf(written)), n, options)

function notice(
  kind: NoticeKind = 'firing',
  extra: Partial<Notice['incident']> = {},
  more: Partial<Notice> = {},
): Notice {
  return {
    kind,
    at: 0,
    newCount: 1,
    channels: undefined,
    channel: 'c',
    incident: snapshotOf(line, { rule: 'default', ...extra }),
    ...more,
  }
}

describe('the cause in a page', () => {
  it('the default SMS says what broke', () => {
    const engine = createTestEngine({ channels: [{ type: 'sms' }] })
    const [page] = engine.ingest(
      JSON.stringify({
        level: 50,
        msg: 'query failed',
        err: {
          type: 'TypeError',
          message: 'connection refused',
          stack: 'TypeError: connection refused\n    at q (/app/db.js:1:1)',
        },
      }),
      0,
    )
    expect(page?.message).toEqual({
      type: 'sms',
      text: 'FIRING query failed: TypeError: connection refused (1x, default)',
    })
    // log.error(err): the message is the error's message, said once; a generic Error adds nothing.
    const [again] = engine.ingest(
      JSON.stringify({ level: 50, msg: 'socket hang up', err: { type: 'Error', message: 'socket hang up' } }),
      0,
    )
    expect(again?.message).toEqual({ type: 'sms', text: 'FIRING socket hang up (1x, default)' })
    const [typed] = engine.ingest(
      JSON.stringify({ level: 50, msg: 'socket hang up!', err: { type: 'EPIPEError', message: 'socket hang up!' } }),
      0,
    )
    expect(typed?.message).toEqual({ type: 'sms', text: 'FIRING socket hang up!: EPIPEError (1x, default)' })
  })

  it('{{error}} in a template, empty when the line has none; chat and mail defaults show it', () => {
    expect(render({ type: 'sms', template: '{{error}}|{{title}}' }, notice(), {})).toEqual({
      type: 'sms',
      text: 'TypeError: connection refused|query failed',
    })
    const plain = jsonLine({ msg: 'slow' })
    expect(render({ type: 'sms', template: '[{{error}}]' }, { ...notice(), incident: snapshotOf(plain) }, {})).toEqual({
      type: 'sms',
      text: '[]',
    })
    expect(render({ type: 'chat' }, notice(), {})).toEqual({
      type: 'chat',
      variables: ['FIRING', 'query failed: TypeError: connection refused', '1', 'default'],
    })
    const mail = render({ type: 'mail' }, notice(), {})
    expect(mail.type === 'mail' && [mail.subject, mail.text.includes('error: TypeError: connection refused')]).toEqual([
      '[FIRING] query failed: TypeError: connection refused',
      true,
    ])
  })
})

describe('the acknowledgement hint', () => {
  it('sms: the hint fits whole within max_length; the body is cut first', () => {
    const title = `payment provider timed out ${'while charging the card '.repeat(12)}`
    const msg = render({ type: 'sms', max_length: 160 }, notice('firing', { title }))
    if (msg.type !== 'sms') throw new Error('sms expected')
    expect(msg.text.length).toBeLessThanOrEqual(160)
    expect(msg.text.endsWith(`… ${hint}`)).toBe(true)
    expect(msg.text.startsWith('FIRING payment provider timed out')).toBe(true)
    // A short page is not cut at all.
    expect(render({ type: 'sms' }, notice())).toEqual({
      type: 'sms',
      text: `FIRING query failed: TypeError: connection refused (1x, default) ${hint}`,
    })
  })

  it('sms: a template that places {{ack}} itself gets it there, once', () => {
    expect(render({ type: 'sms', template: '{{ack}} / {{title}}' }, notice())).toEqual({
      type: 'sms',
      text: `${hint} / query failed`,
    })
  })

  it('pages of an unacknowledged incident carry it; acknowledgements, resolves and digests do not', () => {
    for (const kind of ['firing', 'repeat', 'escalated', 'unacknowledged'] as const) {
      expect(render({ type: 'sms', template: '{{status}}' }, notice(kind))).toMatchObject({
        text: expect.stringContaining(hint),
      })
    }
    const acked = { status: 'acknowledged' as const, ack: { by: 'asha', via: 'console' as const, at: 0 } }
    expect(render({ type: 'sms', template: '{{status}}' }, notice('acknowledged', acked))).toEqual({
      type: 'sms',
      text: 'ACKNOWLEDGED',
    })
    expect(render({ type: 'sms', template: '{{status}}' }, notice('unacknowledged'), {})).toEqual({
      type: 'sms',
      text: 'UNACKNOWLEDGED',
    })
    expect(render({ type: 'sms' }, notice('resolved'))).toEqual({
      type: 'sms',
      text: 'RESOLVED query failed after 1x (default)',
    })
    expect(render({ type: 'sms' }, notice('digest', {}, { suppressed: 2 }))).toEqual({
      type: 'sms',
      text: '2 more alerts suppressed (budget). Latest: query failed',
    })
    expect(render({ type: 'sms', template: '[{{ack}}]' }, notice('resolved'))).toMatchObject({
      text: expect.not.stringContaining(hint),
    })
  })

  it('chat: on the last variable unless a variable places {{ack}}', () => {
    expect(render({ type: 'chat', variables: ['{{status}}', '{{title}}'] }, notice())).toEqual({
      type: 'chat',
      variables: ['FIRING', `query failed ${hint}`],
    })
    expect(render({ type: 'chat', variables: ['{{title}}', '{{ack}}', '{{count}}'] }, notice())).toEqual({
      type: 'chat',
      variables: ['query failed', hint, '1'],
    })
    const long = render({ type: 'chat', variables: ['{{title}}'] }, notice('firing', { title: 'x'.repeat(5000) }))
    expect(long.type === 'chat' && [long.variables[0]?.length, long.variables[0]?.endsWith(`… ${hint}`)]).toEqual([
      1024,
      true,
    ])
  })

  it('mail: a line in the text and a paragraph in the HTML', () => {
    const mail = render({ type: 'mail' }, notice())
    if (mail.type !== 'mail') throw new Error('mail expected')
    expect(mail.text.split('\n').slice(0, 3)).toEqual(['query failed', '', hint])
    expect(mail.html).toContain(`<p><strong>Ack: give a missed call to +918033333333</strong></p>`)
  })

  it("voice: the how-to audio after the page's own", () => {
    const voice: TestChannel = {
      type: 'voice',
      receivers: [{ label: 'ravi', number: '+919800000003' }],
      audio: { firing: ['alert.mp3'], resolved: ['ok.mp3'] },
    }
    expect(render(voice, notice('escalated'))).toMatchObject({ audioFiles: ['alert.mp3', 'ack-howto.mp3'] })
    expect(render(voice, notice('resolved'))).toMatchObject({ audioFiles: ['ok.mp3'] })
    expect(render(voice, notice('escalated'), {})).toMatchObject({ audioFiles: ['alert.mp3'] })
  })

  it('the trail says who acknowledged, how and when', () => {
    const at = Date.UTC(2025, 0, 1)
    const msg = render(
      { type: 'incident' },
      notice(
        'acknowledged',
        { status: 'acknowledged', ack: { by: 'asha', via: 'missed_call', at } },
        { actor: { by: 'asha', via: 'missed_call', detail: 'missed call from +919800000001' } },
      ),
    )
    if (msg.type !== 'incident') throw new Error('incident expected')
    expect(msg.notes).toContain('ACKNOWLEDGED: query failed')
    expect(msg.notes).toContain('error: TypeError: connection refused')
    expect(msg.notes).toContain('by: asha via missed_call (missed call from +919800000001)')
    expect(msg.notes).toContain('acknowledged at: 2025-01-01T00:00:00.000Z')
  })

  it('from the config: the engine pages with the configured hint until the incident is acknowledged', () => {
    const clock = createClock()
    const engine = createConfiguredEngine({
      config: {
        people: { asha: { phone: '+919800000001' } },
        channels: { sms: { type: 'sms', people: ['asha'] } },
        acknowledge: { missed_call_number: '+918033333333', hint: 'Ack: give a missed call to {{number}}' },
        rules: [{ name: 'errors', notify: ['sms'], ack_timeout: '30m' }],
      },
    })
    const [page] = engine.ingest(JSON.stringify({ level: 50, msg: 'query failed' }), clock.now())
    expect(page?.message).toEqual({ type: 'sms', text: `FIRING query failed (1x, errors) ${hint}` })
    engine.acknowledgeFor('asha', { by: 'asha', via: 'missed_call' }, clock.advance(1), false)
    const [again] = engine.tick(clock.advance(30 * 60_000))
    expect(again?.message).toEqual({ type: 'sms', text: `UNACKNOWLEDGED query failed (1x, errors) ${hint}` })
  })
})
