import { describe, expect, it } from 'vitest'
import { confirmStopped, planTick, type TickFacts } from '../../../agent/tail/tick-plan'

const facts = (overrides: Partial<TickFacts> = {}): TickFacts => ({
  phase: 'active',
  detached: false,
  fresh: false,
  readOffset: 100,
  size: 100,
  tickSize: 100,
  ...overrides,
})

describe('planTick', () => {
  it('1. a new file in probation is read, and settled once it did not grow over a tick', () => {
    expect(planTick(facts({ phase: 'probation', readOffset: 0, size: 40, tickSize: 40 }))).toEqual({
      kind: 'read',
      settled: true,
    })
    expect(planTick(facts({ phase: 'probation', readOffset: 0, size: 60, tickSize: 40 }))).toEqual({
      kind: 'read',
      settled: false,
    })
  })

  it('2. a deleted or renamed-away file read to its end and quiet over the tick is released if it stopped', () => {
    const finished = facts({ detached: true, fresh: true })
    expect(planTick(finished)).toEqual({ kind: 'release-if-stopped' })
    // Not read since the last tick (its turn may still find a truncation), not at its end, or still growing: read it.
    expect(planTick({ ...finished, fresh: false })).toEqual({ kind: 'read', settled: false })
    expect(planTick({ ...finished, readOffset: 50 })).toEqual({ kind: 'read', settled: false })
    expect(planTick({ ...finished, tickSize: 80 })).toEqual({ kind: 'read', settled: false })
  })

  it('2. the stat of its open handle confirms it stopped, or says how far it grew', () => {
    expect(confirmStopped(100, 100)).toEqual({ kind: 'release' })
    expect(confirmStopped(undefined, 100)).toEqual({ kind: 'release' })
    expect(confirmStopped(180, 100)).toEqual({ kind: 'grew', size: 180 })
  })

  it('3. a parked file is checked for being a copy still', () => {
    expect(planTick(facts({ phase: 'parked', readOffset: 0 }))).toEqual({ kind: 'check-copy' })
  })

  it('4. a quiet file at its end costs nothing', () => {
    expect(planTick(facts())).toEqual({ kind: 'idle' })
  })

  it('5. a file that grew (an event missed) is read', () => {
    expect(planTick(facts({ size: 150 }))).toEqual({ kind: 'read', settled: false })
  })
})
