// One test per numbered rule of alerts/kinds/spike.ts.
import { describe, expect, it } from 'vitest'
import { isSpike, type SpikeInput } from '../../../alerts/kinds/spike'

const MIN = 60_000
const input = (extra: Partial<SpikeInput>): SpikeInput => ({
  ...{ current: 50, baseline: 60, watchedMs: 2 * 60 * MIN, factor: 5, min: 20, windowMs: MIN, baselineMs: 60 * MIN },
  ...extra,
})

describe('spike decisions', () => {
  it('1. fewer than min lines in the window is never a spike', () => {
    expect(isSpike(input({ current: 19, baseline: 0 }))).toBe(false)
  })

  it('2. no baseline yet while the rule has watched less than window + baseline', () => {
    expect(isSpike(input({ watchedMs: 61 * MIN - 1 }))).toBe(false)
    expect(isSpike(input({ watchedMs: 61 * MIN }))).toBe(true)
  })

  it("3. a spike is factor times the baseline's rate over a window; absent from the baseline, min is one", () => {
    expect(isSpike(input({ current: 25, baseline: 300 }))).toBe(true)
    expect(isSpike(input({ current: 24, baseline: 300 }))).toBe(false)
    expect(isSpike(input({ current: 20, baseline: 0 }))).toBe(true)
    // A factor with a fraction (a noisy kind): 1.5 times 40 a window is 60.
    expect(isSpike(input({ factor: 1.5, current: 60, baseline: 2400 }))).toBe(true)
    expect(isSpike(input({ factor: 1.5, current: 59, baseline: 2400 }))).toBe(false)
  })
})
