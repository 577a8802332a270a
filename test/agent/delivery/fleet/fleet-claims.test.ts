// The dispatcher's side of a fleet's notification log (agent/delivery/fleet/fleet-claims.ts), on a log
// played by the test: claims made ahead are what the item's turn uses while they hold, and an item
// another agent holds is woken by that agent's sent mark.
import { describe, expect, it } from 'vitest'
import { createFleetClaims } from '../../../../agent/delivery/fleet/fleet-claims'
import { HeldByPeer, noticeIdOf } from '../../../../agent/delivery/fleet/fleet-gate'
import type { Claim, FleetGate, FleetNotice } from '../../../../agent/delivery/fleet/types'

const LEASE = 30_000
const notice = (incident = 'db:1'): FleetNotice => ({
  incident,
  kind: 'firing',
  step: '0',
  channel: 'sms',
  part: 0,
  firedAt: 500,
})
const won: Claim = { outcome: 'won', idempotencyKey: 'lx-1', failover: false }

/** A log whose answers the test queues; it records each claim asked and lets the test announce marks. */
function playedLog(options: { listening?: boolean } = {}) {
  const answers: Claim[] = []
  const asked: string[] = []
  const marked: string[] = []
  const acked: string[] = []
  let announce: (noticeId: string) => void = () => undefined
  const gate: FleetGate = {
    claims: {
      leaseMs: LEASE,
      claim: async (n) => {
        asked.push(n.incident)
        return answers.shift() ?? won
      },
      sent: async (n) => void marked.push(n.incident),
      onSent: (handler) => void (announce = handler),
      listening: () => options.listening ?? true,
    },
    onAcked: (incident) => void acked.push(incident),
  }
  return { gate, answers, asked, marked, acked, announce: (n: FleetNotice) => announce(noticeIdOf(n)) }
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('claims made ahead', () => {
  it("are what the item's turn uses: one claim per notice, and the mark made once sent", async () => {
    const log = playedLog()
    let clock = 1_000
    const claims = createFleetClaims(
      log.gate,
      () => undefined,
      () => clock,
    )
    claims.ahead([notice('a'), notice('b')])
    expect(log.asked).toEqual(['a', 'b'])
    await settled()
    clock += LEASE / 2 - 1
    const taken = await claims.take('item-a', notice('a'))
    expect(taken?.key).toBe('lx-1')
    await taken?.done()
    expect(log.marked).toEqual(['a'])
    expect(log.asked).toEqual(['a', 'b'])
  })

  it('a win older than half the lease is claimed again at the turn (the lease renewed or lost)', async () => {
    const log = playedLog()
    let clock = 1_000
    const claims = createFleetClaims(
      log.gate,
      () => undefined,
      () => clock,
    )
    claims.ahead([notice('a')])
    await settled()
    clock += LEASE / 2
    log.answers.push({ outcome: 'done', by: 'web-2' })
    expect(await claims.take('item-a', notice('a'))).toBeUndefined()
    expect(log.asked).toEqual(['a', 'a'])
  })

  it('an acknowledgement found ahead drops the item and hands the ack over', async () => {
    const log = playedLog()
    const claims = createFleetClaims(log.gate, () => undefined)
    log.answers.push({ outcome: 'acked', by: 'web-2', ack: undefined })
    claims.ahead([notice('a')])
    expect(await claims.take('item-a', notice('a'))).toBeUndefined()
    expect(log.acked).toEqual(['a'])
    expect(log.asked).toEqual(['a'])
  })
})

describe('an item another agent holds', () => {
  it("waits without another claim, is woken by the holder's mark, and is then found sent", async () => {
    const log = playedLog()
    const woken: string[] = []
    const claims = createFleetClaims(log.gate, (id) => woken.push(id))
    log.answers.push({ outcome: 'held', by: 'web-2', retryAfterMs: 29_000 })
    claims.ahead([notice('a')])
    const held = await claims.take('item-a', notice('a')).catch((err: unknown) => err)
    // The wait covers only a lost announcement: a second, never past the holder's lease.
    expect(held).toBeInstanceOf(HeldByPeer)
    expect((held as HeldByPeer).retryAfterMs).toBe(1_000)
    expect(log.asked).toEqual(['a'])
    log.announce(notice('b'))
    expect(woken).toEqual([])
    log.announce(notice('a'))
    expect(woken).toEqual(['item-a'])
    log.answers.push({ outcome: 'done', by: 'web-2' })
    expect(await claims.take('item-a', notice('a'))).toBeUndefined()
    expect(log.asked).toEqual(['a', 'a'])
  })

  it('looks again at once when the mark was announced before the held answer came back', async () => {
    const log = playedLog()
    const claims = createFleetClaims(log.gate, () => undefined)
    log.announce(notice('a'))
    log.answers.push({ outcome: 'held', by: 'web-2', retryAfterMs: 29_000 })
    const held = await claims.take('item-a', notice('a')).catch((err: unknown) => err)
    expect((held as HeldByPeer).retryAfterMs).toBe(1)
  })

  it('without the announcements, looks again soon and more slowly each time', async () => {
    const log = playedLog({ listening: false })
    const woken: string[] = []
    const claims = createFleetClaims(log.gate, (id) => woken.push(id))
    const waits: number[] = []
    for (let i = 0; i < 3; i++) {
      log.answers.push({ outcome: 'held', by: 'web-2', retryAfterMs: 29_000 })
      waits.push(((await claims.take('item-a', notice('a')).catch((err: unknown) => err)) as HeldByPeer).retryAfterMs)
    }
    expect(waits).toEqual([50, 100, 200])
    log.announce(notice('a'))
    expect(woken).toEqual([])
  })
})
