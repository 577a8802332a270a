// What an action on an incident means (agent/acknowledge/action-rules.ts), one test per rule.
import { describe, expect, it } from 'vitest'
import type { IncidentSnapshot } from '../../../alerts'
import { callAckTime, doneWord, keyNamed, refusal } from '../../../agent/acknowledge/action-rules'

const KEYS = ['errors:9f2c4e01', 'errors:9f2d0000', 'slow:abcd1234']

describe('action rules', () => {
  it('1. an id names a key by 4+ leading characters of the key or of its hash; two matches are ambiguous', () => {
    expect(keyNamed('slow', KEYS)).toBe('slow:abcd1234')
    expect(keyNamed('abcd', KEYS)).toBe('slow:abcd1234')
    expect(keyNamed('abc', KEYS)).toBeUndefined()
    expect(keyNamed('9f2c', KEYS)).toBe('errors:9f2c4e01')
    expect(keyNamed('9f2', KEYS)).toBeUndefined()
    expect(keyNamed('errors', KEYS)).toBe('ambiguous')
    expect(keyNamed('cd12', KEYS)).toBeUndefined()
  })

  it('2. a refusal is 404 for an unknown incident and 409 otherwise, naming who acknowledged when known', () => {
    expect(refusal({ ok: false, reason: 'unknown' }, undefined)).toMatchObject({ status: 404 })
    expect(refusal({ ok: false, reason: 'pending' }, undefined).error).toMatch(/still pending/)
    expect(refusal({ ok: false, reason: 'not-acknowledged' }, undefined)).toMatchObject({ status: 409 })
    expect(refusal({ ok: false, reason: 'already-acknowledged' }, undefined).error).toBe('already acknowledged')
    const ack = { by: 'asha', via: 'missed_call', at: Date.UTC(2024, 4, 1, 10) }
    const incident = { ack } as unknown as IncidentSnapshot
    expect(refusal({ ok: false, reason: 'already-acknowledged' }, incident)).toEqual({
      ok: false,
      status: 409,
      error: 'already acknowledged by asha (missed call) at 2024-05-01T10:00:00.000Z',
    })
  })

  it('3. a missed call acknowledges at its own time, never later than now', () => {
    expect(callAckTime(1_000, 5_000)).toBe(1_000)
    expect(callAckTime(9_000, 5_000)).toBe(5_000)
  })

  it('4. the log names an action by its past participle', () => {
    expect(['ack', 'unack', 'resolve'].map((a) => doneWord(a as 'ack'))).toEqual([
      'acknowledged',
      'unacknowledged',
      'resolved',
    ])
  })
})
