// One test per numbered rule of alerts/absence-decisions.ts.
import { describe, expect, it } from 'vitest'
import {
  evictFrom,
  lineEnds,
  movesOnLine,
  REORDER_MS,
  restoredLastSeen,
  tickStep,
} from '../../alerts/absence-decisions'

const key = (placedAt: number, lastSeen: number, open = false) => ({ placedAt, lastSeen, open })
const FOR = 60_000

describe('absence decisions', () => {
  it('1. a line moves its key to the end of its map only once the key took its place REORDER_MS ago', () => {
    expect(movesOnLine(key(1000, 1500), 1000 + REORDER_MS - 1)).toBe(false)
    expect(movesOnLine(key(1000, 1500), 1000 + REORDER_MS)).toBe(true)
  })

  it("2. a line ends the key's absence incident only when one is open", () => {
    expect(lineEnds(key(0, 0, true))).toBe(true)
    expect(lineEnds(key(0, 0, false))).toBe(false)
  })

  it('3. a tick stops at a key placed within `for`, passes an open or recent one, and finds the others due', () => {
    expect(tickStep(key(10_000, 10_000), FOR, 10_000 + FOR - 1)).toBe('stop')
    expect(tickStep(key(0, 500), FOR, FOR)).toBe('pass')
    expect(tickStep(key(0, 0, true), FOR, 2 * FOR)).toBe('pass')
    expect(tickStep(key(0, 500), FOR, FOR + 500)).toBe('due')
  })

  it('4. past the bound the restored keys go first, then the live ones', () => {
    expect(evictFrom(5, 5, 10)).toBeUndefined()
    expect(evictFrom(6, 5, 10)).toBe('restored')
    expect(evictFrom(11, 0, 10)).toBe('live')
  })

  it('5. a saved key comes back only whole, of the same grouping and not watched already, never older than the restart', () => {
    const paths = ['host']
    const none = () => false
    const saved = { key: 'hb:1', lastSeen: 1000, labels: { host: 'web1' } }
    expect(restoredLastSeen(saved, paths, none, 5000)).toBe(5000)
    expect(restoredLastSeen({ ...saved, lastSeen: 9000 }, paths, none, 5000)).toBe(9000)
    expect(restoredLastSeen({ ...saved, key: 7 }, paths, none, 5000)).toBeUndefined()
    expect(restoredLastSeen({ ...saved, lastSeen: Number.NaN }, paths, none, 5000)).toBeUndefined()
    expect(restoredLastSeen({ ...saved, lastSeen: '1000' }, paths, none, 5000)).toBeUndefined()
    expect(restoredLastSeen({ ...saved, labels: { host: 'web1', zone: 'a' } }, paths, none, 5000)).toBeUndefined()
    expect(restoredLastSeen({ ...saved, labels: ['web1'] }, paths, none, 5000)).toBeUndefined()
    expect(restoredLastSeen(saved, paths, (k) => k === 'hb:1', 5000)).toBeUndefined()
  })
})
