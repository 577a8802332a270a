import { describe, expect, it } from 'vitest'
import { RULE_ANNOTATION } from '../../alerts/engine'
import { createClock, createTestEngine, silenceOf } from './helpers'

const error = (msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: 50, time: 0, msg, ...extra })

describe('alert engine', () => {
  it('one failure repeated 10,000 times is one SMS', () => {
    const clock = createClock()
    const engine = createTestEngine({ channels: [{ type: 'sms' }] })
    const sent = []
    for (let i = 0; i < 10_000; i++) sent.push(...engine.ingest(error(`request ${i} failed`), clock.advance(1)))
    expect(sent).toHaveLength(1)
    expect(sent[0]?.message).toEqual({ type: 'sms', text: 'FIRING request 0 failed (1x, default)' })
    expect(engine.stats()).toMatchObject({ lines: 10_000, selected: 10_000, openIncidents: 1, deliveries: 1 })
  })

  it('ignores lines below the threshold and plain text without a level', () => {
    const engine = createTestEngine({ channels: [{ type: 'sms' }] })
    expect(engine.ingest(JSON.stringify({ level: 30, msg: 'fine' }), 0)).toEqual([])
    expect(engine.ingest('hello', 0)).toEqual([])
    expect(engine.ingest('[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6', 0)).toHaveLength(
      1,
    )
  })

  it('escalates chat -> sms -> voice across channels', () => {
    const clock = createClock()
    const engine = createTestEngine({
      rules: [
        {
          notify: ['chat'],
          escalate: [
            { after: '5m', notify: ['sms'] },
            { after: '15m', notify: ['voice'] },
          ],
        },
      ],
      channels: [
        { type: 'chat' },
        { type: 'sms' },
        { type: 'voice', receivers: [{ label: 'a', number: '+1555' }], audio: ['x.mp3'] },
      ],
    })
    expect(engine.ingest(error('down'), clock.now()).map((d) => d.notice.channel)).toEqual(['chat'])
    expect(engine.tick(clock.advance(5 * 60_000)).map((d) => [d.notice.kind, d.notice.channel])).toEqual([
      ['escalated', 'sms'],
    ])
    expect(engine.tick(clock.advance(10 * 60_000)).map((d) => [d.notice.kind, d.channelType])).toEqual([
      ['escalated', 'voice'],
    ])
  })

  it('silences mute, and the budget folds the overflow into a digest', () => {
    const clock = createClock()
    const engine = createTestEngine({ rules: [{ group_by: ['id'] }], channels: [{ type: 'sms', max_per_hour: 2 }] })
    engine.addSilence(silenceOf({ matchers: { id: 'muted' }, ends_at: clock.now() + 1000 }), clock.now())
    expect(engine.ingest(error('x', { id: 'muted' }), clock.now())).toEqual([])
    const sent = []
    for (let i = 0; i < 10; i++) sent.push(...engine.ingest(error('x', { id: `n${i}` }), clock.advance(1)))
    expect(sent).toHaveLength(2)
    const [digest] = engine.tick(clock.advance(3_600_000))
    expect(digest?.message).toEqual({ type: 'sms', text: '8 more alerts suppressed (budget). Latest: x' })
    expect(engine.stats()).toMatchObject({ silenced: 1, suppressed: 8, digests: 1 })
  })

  it('redacted paths and secrets never reach the message', () => {
    const engine = createTestEngine({
      rules: [{ title: '{{msg}} {{user.password}}' }],
      channels: [{ type: 'mail' }],
      redact: ['user.password', 'headers.authorization'],
      secrets: ['sandbox-api-key'],
    })
    const [d] = engine.ingest(
      error('login failed with sandbox-api-key', {
        user: { password: 'hunter2' },
        headers: { authorization: 'Bearer abc' },
      }),
      0,
    )
    const text = JSON.stringify(d?.message)
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('Bearer abc')
    expect(text).not.toContain('sandbox-api-key')
    expect(text).toContain('[redacted]')
  })

  it('a secret inside the line never reaches the incident title, fields or any message', () => {
    const engine = createTestEngine({
      channels: [{ type: 'incident' }, { type: 'sms' }],
      secrets: ['tok-"quoted"-123', 'sandbox-api-key'],
    })
    const deliveries = engine.ingest(
      error('auth failed for sandbox-api-key', { header: 'X-O-TOKEN: tok-"quoted"-123' }),
      0,
    )
    expect(deliveries).toHaveLength(2)
    for (const d of deliveries) {
      const all = JSON.stringify(d)
      expect(all).not.toContain('sandbox-api-key')
      expect(all).not.toContain('tok-\\"quoted\\"-123')
      expect(d.notice.incident.title).toBe('auth failed for [redacted]')
      expect(d.notice.incident.lastLine.record.header).toBe('X-O-TOKEN: [redacted]')
    }
  })

  it('trusts the rule annotation of logx-tail-filter', () => {
    const engine = createTestEngine({
      rules: [{ name: 'warns', level: 'warn', title: 'W {{msg}}' }],
      channels: [{ type: 'sms' }],
    })
    const [d] = engine.ingest(JSON.stringify({ level: 40, msg: 'slow', [RULE_ANNOTATION]: 'warns' }), 0)
    expect(d?.notice.incident.rule).toBe('warns')
  })

  it('flush sends the digest the budget still owes', () => {
    const engine = createTestEngine({ rules: [{ group_by: ['id'] }], channels: [{ type: 'sms', max_per_hour: 1 }] })
    engine.ingest(error('x', { id: 1 }), 0)
    engine.ingest(error('x', { id: 2 }), 1)
    expect(engine.flush(2).map((d) => d.message)).toEqual([
      { type: 'sms', text: '1 more alerts suppressed (budget). Latest: x' },
    ])
  })

  it('flush sends what group_wait still holds', () => {
    const engine = createTestEngine({ rules: [{ group_wait: '1m' }], channels: [{ type: 'sms' }] })
    expect(engine.ingest(error('x'), 0)).toEqual([])
    expect(engine.flush(1)).toHaveLength(1)
  })

  it('stays bounded with a flood of distinct fingerprints', () => {
    const engine = createTestEngine({
      rules: [{ group_by: ['id'] }],
      channels: [{ type: 'sms', max_per_hour: 10 }],
      maxIncidents: 1000,
    })
    for (let i = 0; i < 50_000; i++) engine.ingest(error('x', { id: i }), i)
    expect(engine.stats()).toMatchObject({ openIncidents: 1000, evicted: 49_000, deliveries: 10 })
  })
})

describe('recording channels', () => {
  it('an incident channel hears every notice, whichever channels a step names', () => {
    const clock = createClock()
    const engine = createTestEngine({
      rules: [{ notify: 'chat', escalate: [{ after: '5m', notify: 'voice' }] }],
      channels: [{ type: 'incident' }],
    })
    expect(engine.ingest(error('down'), clock.now()).map((d) => d.notice.kind)).toEqual(['firing'])
    const [escalated] = engine.tick(clock.advance(5 * 60_000))
    expect([escalated?.notice.kind, escalated?.notice.channels, escalated?.channelType]).toEqual([
      'escalated',
      ['voice'],
      'incident',
    ])
  })
})
