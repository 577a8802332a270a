// How a notice is named in a fleet's notification log: the same name on every agent that decided it,
// once per opening for what happens once, once per interval for what comes back, and nothing for
// what a person did by hand (the agent it was done on sends it).
import { describe, expect, it } from 'vitest'
import type { Delivery, Notice } from '../../../../alerts'
import { fleetNoticeOf, HeldByPeer } from '../../../../agent/delivery/fleet/fleet-gate'
import { jsonLine, snapshotOf } from '../../../alerts/helpers'

const line = jsonLine({ msg: 'db down' })

function delivery(kind: Notice['kind'], extra: Partial<Notice> = {}, step = 0): Delivery {
  const notice = {
    kind,
    at: 1_000,
    incident: snapshotOf(line, { key: 'db:1', firedAt: 500, step }),
    newCount: 1,
    channels: undefined,
    channel: 'sms',
    ...extra,
  }
  return { notice, channelType: 'sms', message: { text: 'x' } } as unknown as Delivery
}

const windows = { repeatMs: 3_600_000, ackTimeoutMs: 600_000 }

describe('fleetNoticeOf', () => {
  it("names a firing and an escalation by their step, for the incident's opening", () => {
    expect(fleetNoticeOf(delivery('firing'), 'sms', 0, windows)).toEqual({
      incident: 'db:1',
      kind: 'firing',
      step: '0',
      channel: 'sms',
      part: 0,
      firedAt: 500,
    })
    expect(fleetNoticeOf(delivery('escalated', {}, 2), 'voice', 1, windows)).toMatchObject({
      kind: 'escalated',
      step: '2',
      channel: 'voice',
      part: 1,
    })
    expect(fleetNoticeOf(delivery('resolved'), 'sms', 0, windows)).toMatchObject({ kind: 'resolved', step: '' })
  })

  it('claims what comes back once per interval: a repeat, a re-page after ack_timeout, a digest', () => {
    expect(fleetNoticeOf(delivery('repeat'), 'sms', 0, windows)?.windowMs).toBe(3_600_000)
    const unack = delivery('unacknowledged', { actor: { by: 'ack_timeout', via: 'timeout' } })
    expect(fleetNoticeOf(unack, 'sms', 0, windows)?.windowMs).toBe(600_000)
    expect(fleetNoticeOf(delivery('digest'), 'sms', 0, windows)?.windowMs).toBe(60_000)
  })

  it('leaves what a person did by hand to the agent it was done on; a missed call is named by its time', () => {
    expect(
      fleetNoticeOf(delivery('acknowledged', { actor: { by: 'asha', via: 'console' } }), 'logx.incident', 0, windows),
    ).toBeUndefined()
    expect(
      fleetNoticeOf(delivery('resolved', { actor: { by: 'asha', via: 'cli' } }), 'logx.incident', 0, windows),
    ).toBeUndefined()
    const call = delivery('acknowledged', { actor: { by: 'asha', via: 'missed_call' }, at: 1_234 })
    expect(fleetNoticeOf(call, 'logx.incident', 0, windows)).toMatchObject({
      kind: 'acknowledged',
      step: 'missed_call|1234',
    })
  })
})

describe('HeldByPeer', () => {
  it('is a wait of the item alone: soon at first, twice as late each time, at most a second, never past the lease', () => {
    const held = new HeldByPeer('web-2', 25_000)
    expect(held).toMatchObject({ recoverable: true, held: true, retryAfterMs: 50, code: 'LOGX_DELIVERY_HELD' })
    expect(held.message).toContain('web-2')
    expect([1, 2, 3, 4, 5, 9].map((times) => new HeldByPeer('web-2', 25_000, times).retryAfterMs)).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ])
    expect(new HeldByPeer('web-2', 30, 3).retryAfterMs).toBe(30)
  })

  it("woken by the holder's mark, only covers a lost announcement: a second, doubling to 8, never past the lease", () => {
    expect([0, 1, 2, 3, 9].map((times) => new HeldByPeer('web-2', 25_000, times, true).retryAfterMs)).toEqual([
      1000, 2000, 4000, 8000, 8000,
    ])
    expect(new HeldByPeer('web-2', 3_000, 3, true).retryAfterMs).toBe(3_000)
  })
})
