// The miner's bound on hostile input (issue #29: a million distinct random lines, memory stays
// bounded): what it holds is counted (kinds, ids, aliases, leaves, remembered forms), not timed or
// weighed, at checkpoints through the flood.
import { describe, expect, it } from 'vitest'
import { createKindMiner } from '../../../alerts/kinds/miner'
import { MEMO_MAX } from '../../../alerts/kinds/miner-memo'
import { parseLine } from '../../../alerts/line'

const MAX = 1000
// 200 times the bound: a leak of evicted forms shows long before (the drill floods a million lines).
const LINES = 200_000

/** A word of letters only (nothing for the masking to make `<*>`), distinct for each n. */
function letters(n: number): string {
  let word = ''
  let rest = n
  do {
    word += String.fromCharCode(97 + (rest % 26))
    rest = Math.floor(rest / 26)
  } while (rest > 0)
  return word
}

/** Line i: distinct first words (a leaf and a kind each), a varying count of words after. */
function hostile(i: number): string {
  const scrambled = (i * 2654435761) >>> 0
  const words = [letters(i), letters(scrambled)]
  for (let k = 0; k < scrambled % 5; k++) words.push(letters((scrambled >>> (k * 3)) & 0xffff))
  return `ERROR ${words.join(' ')}`
}

describe('the miner on 200,000 distinct random lines', () => {
  it('keeps kinds, ids, leaves and remembered forms within the bound, and counts the evictions', () => {
    const miner = createKindMiner({ max: MAX })
    for (let i = 0; i < LINES; i++) {
      miner.mine(parseLine(hostile(i)))
      if (i % 50_000 !== 49_999) continue
      const sizes = miner.sizes()
      expect(sizes.recent).toBeLessThanOrEqual(MAX)
      expect(sizes.leafKinds).toBeLessThanOrEqual(MAX)
      expect(sizes.leaves).toBeLessThanOrEqual(MAX)
      expect(sizes.ids).toBeLessThanOrEqual(4 * MAX)
      expect(sizes.aliases).toBeLessThanOrEqual(4 * MAX)
      // An evicted kind's own form leaves the exact map with it, not at the map's next clear.
      expect(sizes.exactForms).toBeLessThanOrEqual(MAX)
      expect(sizes.memoForms).toBeLessThanOrEqual(MEMO_MAX)
    }
    const stats = miner.stats()
    expect(stats.mined).toBe(LINES)
    expect(stats.kinds).toBeLessThanOrEqual(MAX)
    expect(stats.evicted).toBeGreaterThan(LINES - 2 * MAX)
  }, 120_000)
})
