// One test per rule of agent/daemon/batch-slices.ts (rules 2 to 4 through a real reader:
// source-reader-slices.int.test.ts).
import { describe, expect, it } from 'vitest'
import { linesThrough, SLICE_LINES, sliceEnd, turnOfTheLoop } from '../../../agent/daemon/batch-slices'

describe('batch slices', () => {
  it('rule 1: a batch of at most SLICE_LINES candidates is one slice', () => {
    expect(sliceEnd(0, 300)).toBe(300)
    expect(sliceEnd(0, SLICE_LINES)).toBe(SLICE_LINES)
  })

  it('rule 2: a bigger batch is cut every SLICE_LINES candidates, the last slice holding the rest', () => {
    const count = 2 * SLICE_LINES + 5
    const ends: number[] = []
    for (let from = 0; from < count; from = sliceEnd(from, count)) ends.push(sliceEnd(from, count))
    expect(ends).toEqual([SLICE_LINES, 2 * SLICE_LINES, count])
  })

  it('rule 3: the line count through a candidate counts the filtered lines before it', () => {
    // Lines end at 10, 25, 40, 41, 90: a candidate ending at 40 is the third line.
    const ends = [10, 25, 40, 41, 90]
    expect(linesThrough(ends.length, (i) => ends[i] as number, 40)).toBe(3)
    expect(linesThrough(ends.length, (i) => ends[i] as number, 90)).toBe(5)
    expect(linesThrough(ends.length, (i) => ends[i] as number, 10)).toBe(1)
  })

  it('rule 4: between slices the event loop turns (what waits for the loop runs first)', async () => {
    let waiting = false
    setImmediate(() => (waiting = true))
    await Promise.resolve()
    expect(waiting).toBe(false)
    await turnOfTheLoop()
    expect(waiting).toBe(true)
  })

  it('rule 5: an offset no line ends at gives no count (nothing committed)', () => {
    const ends = [10, 25, 40]
    expect(linesThrough(ends.length, (i) => ends[i] as number, 26)).toBeUndefined()
    expect(linesThrough(0, () => 0, 10)).toBeUndefined()
  })
})
