import { describe, expect, it } from 'vitest'
import { decodeAction, encodeAction } from '../../../agent/cluster/action-codec'
import { readClaimReply } from '../../../agent/cluster/claim-script'
import { createIncidentBuffer } from '../../../agent/cluster/incident-buffer'
import { claimKey, createKeys, idempotencyKey, sentRetentionMs, SENT_RETENTION_MS } from '../../../agent/cluster/keys'
import { ClusterError } from '../../../agent/cluster/errors'
import { notice } from './fixtures'

const keys = createKeys('logx:')

describe('claim keys', () => {
  it('name the incident, its generation, the kind, the step, the channel and the part', () => {
    expect(claimKey(keys, notice({ kind: 'escalated', step: '2', channel: 'voice', part: 1 }), '1700000000123')).toBe(
      'logx:n:db-down:1700000000123:escalated:2:voice:1',
    )
  })

  it('of a repeat carry no generation and no step: one repeat per interval, fleet-wide', () => {
    expect(claimKey(keys, notice({ kind: 'repeat', step: '7', windowMs: 60_000 }), '1')).toBe(
      'logx:n:db-down:repeat:sms:0',
    )
    expect(claimKey(keys, notice({ kind: 'digest', step: '', windowMs: 60_000 }), '1')).toBe(
      'logx:n:db-down:digest:sms:0',
    )
  })

  it('live a repeat interval for repeats, at least a week for the rest', () => {
    expect(sentRetentionMs(notice({ kind: 'repeat', windowMs: 60_000 }))).toBe(60_000)
    expect(sentRetentionMs(notice())).toBe(SENT_RETENTION_MS)
  })

  it('are under the configured prefix', () => {
    expect(claimKey(createKeys('team-a/'), notice(), '5')).toBe('team-a/n:db-down:5:firing:0:sms:0')
  })
})

describe('idempotency keys', () => {
  it('are lx- and 32 hex digits, the same for the same notice and seed on every agent', () => {
    const key = idempotencyKey(notice(), '1700000000123')
    expect(key).toMatch(/^lx-[0-9a-f]{32}$/)
    expect(idempotencyKey(notice({ firedAt: 5 }), '1700000000123')).toBe(key)
  })

  it('differ by seed (a new generation), kind, step, channel and part', () => {
    const base = idempotencyKey(notice(), '1')
    const others = [
      idempotencyKey(notice(), '2'),
      idempotencyKey(notice({ kind: 'resolved' }), '1'),
      idempotencyKey(notice({ step: '1' }), '1'),
      idempotencyKey(notice({ channel: 'chat' }), '1'),
      idempotencyKey(notice({ part: 1 }), '1'),
    ]
    expect(new Set([base, ...others]).size).toBe(6)
  })

  it('of repeats ignore the step, which agents may count differently', () => {
    expect(idempotencyKey(notice({ kind: 'repeat', step: '3' }), '9')).toBe(
      idempotencyKey(notice({ kind: 'repeat', step: '4' }), '9'),
    )
  })
})

describe('claim answers', () => {
  it('become claims with the key from the seed', () => {
    const n = notice()
    expect(readClaimReply(n, ['won', '42', '1'])).toEqual({
      outcome: 'won',
      idempotencyKey: idempotencyKey(n, '42'),
      failover: true,
    })
    expect(readClaimReply(n, ['held', 'b', '250'])).toEqual({ outcome: 'held', by: 'b', retryAfterMs: 250 })
    expect(readClaimReply(n, ['done', 'b'])).toEqual({ outcome: 'done', by: 'b' })
    expect(readClaimReply(n, ['acked', 'asha', '{"by":"asha","via":"cli","at":5}'])).toEqual({
      outcome: 'acked',
      by: 'asha',
      ack: { by: 'asha', via: 'cli', at: 5 },
    })
  })

  it('that are not understood are LOGX_CLUSTER_ERR_PROTOCOL', () => {
    expect(() => readClaimReply(notice(), ['bad', 'something else'])).toThrow(ClusterError)
    try {
      readClaimReply(notice(), ['bad', 'x'])
    } catch (err) {
      expect((err as ClusterError).code).toBe('LOGX_CLUSTER_ERR_PROTOCOL')
    }
  })
})

describe('the incident buffer', () => {
  it('merges deltas per incident: counts add up, first and last widen, buckets by second', () => {
    const buffer = createIncidentBuffer()
    buffer.add('k', { rule: 'db', title: 'db down', count: 2, first: 1_000, last: 1_500, windowMs: 60_000 })
    buffer.add('k', { rule: 'db', title: '', count: 3, first: 900, last: 2_100, windowMs: 60_000 })
    const batch = buffer.take()
    expect(buffer.size).toBe(0)
    const k = batch.get('k')
    expect(k).toMatchObject({ title: 'db down', count: 5, first: 900, last: 2_100 })
    expect([...(k?.buckets ?? [])]).toEqual([
      [1, 2],
      [2, 3],
    ])
  })

  it('keeps a batch that could not be written, merged under what came since', () => {
    const buffer = createIncidentBuffer()
    buffer.add('k', { rule: 'db', title: 'a', count: 1, first: 1, last: 1 })
    const batch = buffer.take()
    buffer.add('k', { rule: 'db', title: 'b', count: 2, first: 2, last: 2 })
    buffer.restore(batch)
    expect(buffer.take().get('k')).toMatchObject({ title: 'b', count: 3, first: 1, last: 2 })
  })

  it('is bounded: the least recently seen incident is dropped and counted', () => {
    const buffer = createIncidentBuffer(2)
    for (const key of ['a', 'b', 'a', 'c']) buffer.add(key, { rule: 'r', title: key, count: 1, first: 1, last: 1 })
    expect([...buffer.take().keys()]).toEqual(['a', 'c'])
    expect(buffer.dropped).toBe(1)
  })
})

describe('action entries', () => {
  it('round-trip every kind of action', () => {
    const silence = {
      id: 's1',
      matchers: { rule: 'db' },
      startsAt: 1,
      endsAt: 2,
      comment: undefined,
      createdBy: 'asha',
    }
    const actions = [
      { type: 'ack' as const, key: 'k', actor: { by: 'asha', via: 'cli' as const }, at: 5 },
      { type: 'resolve' as const, key: 'k', actor: { by: 'asha', via: 'console' as const, detail: 'done' }, at: 6 },
      { type: 'silence' as const, silence, at: 7 },
      { type: 'expire-silence' as const, silenceId: 's1', at: 8 },
      { type: 'source-resolve' as const, key: 'k', notify: false, endedAt: 9, at: 10 },
    ]
    for (const action of actions)
      expect(decodeAction(encodeAction(action, 'id1', 'a'))).toEqual({ ...action, id: 'id1', agent: 'a' })
  })

  it('that are not actions read as undefined', () => {
    expect(decodeAction(['id', 'x', 'agent', 'a', 'type', 'ack', 'at', '1'])).toBeUndefined()
    expect(decodeAction(['hello', 'world'])).toBeUndefined()
  })
})
