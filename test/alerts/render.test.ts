import { describe, expect, it } from 'vitest'
import { compileChannel, compileChannels, type Channel } from '../../alerts/channels'
import { AlertsError } from '../../alerts/errors'
import type { Notice, NoticeKind } from '../../alerts/notice'
import { renderMessage, scrubSecrets, truncate } from '../../alerts/render'
import { channelOf, jsonLine, snapshotOf, type TestChannel } from './helpers'

const normalizeChannel = (written: TestChannel, _path: string): Channel => compileChannel(channelOf(written))

const stack = 'DbError: <b>down</b>\n    at connect (/app/db.js:10:7)'
const line = jsonLine({
  msg: 'db <down> & out',
  host: 'db-1',
  err: { type: 'DbError', message: 'down', stack },
  req: { url: '/a?b=1' },
})

function notice(kind: NoticeKind = 'firing', extra: Partial<Notice> = {}): Notice {
  return {
    kind,
    at: 0,
    newCount: 1,
    channels: undefined,
    channel: 'c',
    incident: snapshotOf(line, { lastSeen: 60_000, count: 42 }),
    ...extra,
  }
}

describe('rendering per channel', () => {
  it('sms: default text with the cause, one line, within the length limit', () => {
    const sms = normalizeChannel({ type: 'sms' }, 'c')
    expect(renderMessage(sms, notice())).toEqual({
      type: 'sms',
      text: 'FIRING db <down> & out: DbError: down (42x, r)',
    })
    const short = normalizeChannel({ type: 'sms', max_length: 20, template: '{{title}}\n{{err.stack}}' }, 'c')
    const msg = renderMessage(short, notice())
    expect(msg.type === 'sms' && msg.text).toBe('db <down> & out DbE…')
    expect(msg.type === 'sms' && msg.text.length).toBe(20)
  })

  it('sms: resolved and digest texts', () => {
    const sms = normalizeChannel({ type: 'sms' }, 'c')
    expect(renderMessage(sms, notice('resolved'))).toEqual({
      type: 'sms',
      text: 'RESOLVED db <down> & out after 42x (r)',
    })
    expect(renderMessage(sms, notice('digest', { suppressed: 7 }))).toEqual({
      type: 'sms',
      text: '7 more alerts suppressed (budget). Latest: db <down> & out',
    })
  })

  it('chat: template variables', () => {
    const chat = normalizeChannel(
      { type: 'chat', variables: ['{{status}}', '{{err.type}} on {{host}}', '{{count}}'] },
      'c',
    )
    expect(renderMessage(chat, notice('repeat'))).toEqual({
      type: 'chat',
      variables: ['STILL FIRING', 'DbError on db-1', '42'],
    })
  })

  it('mail: subject, text and HTML bodies with fields and an escaped stack', () => {
    const mail = normalizeChannel({ type: 'mail' }, 'c')
    const msg = renderMessage(mail, notice())
    if (msg.type !== 'mail') throw new Error('expected mail')
    expect(msg.subject).toBe('[FIRING] db <down> & out: DbError: down')
    expect(msg.text).toContain('error: DbError: down')
    expect(msg.text).toContain('host: db-1')
    expect(msg.text).toContain('req: {"url":"/a?b=1"}')
    expect(msg.text).toContain('at connect (/app/db.js:10:7)')
    expect(msg.html).toContain('<h2>db &#60;down&#62; &#38; out</h2>')
    expect(msg.html).toContain('<pre>DbError: &#60;b&#62;down&#60;/b&#62;')
    expect(msg.html).not.toContain('<b>down</b>')
  })

  it('voice: receivers and audio from options, per kind', () => {
    const voice = normalizeChannel(
      {
        type: 'voice',
        receivers: [{ label: 'oncall', number: '+15550100' }],
        audio: { firing: ['alarm.mp3'], resolved: ['ok.mp3'] },
      },
      'c',
    )
    expect(renderMessage(voice, notice())).toEqual({
      type: 'voice',
      receivers: [{ label: 'oncall', number: '+15550100' }],
      audioFiles: ['alarm.mp3'],
    })
    expect(renderMessage(voice, notice('resolved'))).toMatchObject({ audioFiles: ['ok.mp3'] })
    expect(renderMessage(voice, notice('digest'))).toMatchObject({ audioFiles: ['alarm.mp3'] })
  })

  it('incident: title and notes', () => {
    const msg = renderMessage(
      normalizeChannel({ type: 'incident' }, 'c'),
      notice('escalated', { incident: { ...notice().incident, step: 2 } }),
    )
    expect(msg.type === 'incident' && msg.notes).toContain('escalation step: 2')
    expect(msg.type === 'incident' && msg.notes).toContain('count: 42')
  })

  it('scrubs secrets from every string', () => {
    const msg = scrubSecrets({ type: 'mail', subject: 'key sk-12345', text: 'sk-12345', html: 'x sk-12345 y' }, [
      'sk-12345',
    ])
    expect(JSON.stringify(msg)).not.toContain('sk-12345')
  })

  it('truncates without splitting a surrogate pair', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…')
    expect(truncate('abc', 3)).toBe('abc')
  })

  it('refuses what it cannot run, with paths (the config reports these first, with their place)', () => {
    expect(() => compileChannels([channelOf({ type: 'sms' }), channelOf({ type: 'sms' })])).toThrow(
      'channels[1].name: ',
    )
    expect(() => compileChannels([channelOf({ type: 'chat', variables: ['{{'] })])).toThrow(AlertsError)
    expect(() => compileChannels([channelOf({ type: 'chat', variables: ['{{'] })])).toThrow(
      'channels[0].variables[0]: ',
    )
  })
})
