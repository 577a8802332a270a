import { describe, expect, it } from 'vitest'
import { createLinkTracker } from '../../../agent/cluster/link-tracker'

describe('the link tracker', () => {
  it('runs the up work on every transition to up, the first connect after a degraded start too', () => {
    let now = 0
    const reported: string[] = []
    const tracker = createLinkTracker(
      () => now,
      (status) => reported.push(status.status),
    )
    let upWork = 0
    tracker.onUp(() => upWork++)
    tracker.down('Redis unreachable: ECONNREFUSED')
    now = 10
    tracker.up()
    expect(upWork).toBe(1)
    expect(tracker.counters).toEqual({ degradedEpisodes: 1, reconnects: 0 })
    tracker.up()
    expect(upWork).toBe(1)
    tracker.down('Redis unreachable: ECONNRESET')
    tracker.up()
    expect(upWork).toBe(2)
    expect(tracker.counters).toEqual({ degradedEpisodes: 2, reconnects: 1 })
    expect(reported).toEqual(['up', 'degraded', 'up'])
  })

  it('changes nothing once closed', () => {
    const tracker = createLinkTracker(() => 0)
    tracker.close()
    tracker.down('Redis unreachable: ECONNREFUSED')
    tracker.up()
    expect(tracker.status().reason).toBe('not connected yet')
    expect(tracker.counters.degradedEpisodes).toBe(0)
  })
})
