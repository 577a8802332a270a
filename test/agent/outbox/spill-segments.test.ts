// Which spill segments are written, read and deleted: one test per rule of spill-segments.ts.
import { describe, expect, it } from 'vitest'
import {
  firstWriterSegment,
  nextReadSegment,
  segmentAfterEmpty,
  segmentsBetween,
} from '../../../agent/outbox/spill-segments'

describe('spill segments (agent/outbox/spill-segments.ts)', () => {
  it('1. the writer starts past every segment found, never on one a crash may have torn', () => {
    expect(firstWriterSegment({ seg: 2, offset: 0 }, [2, 3])).toBe(4)
    expect(firstWriterSegment({ seg: 2, offset: 10 }, [])).toBe(3)
    expect(firstWriterSegment({ seg: 2, offset: 0 }, [])).toBe(2)
  })

  it("2. the reader moves to the next existing segment, else to the writer's, else waits", () => {
    expect(nextReadSegment([1, 3, 5], 1, 9)).toBe(3)
    expect(nextReadSegment([1], 1, 4)).toBe(4)
    expect(nextReadSegment([1], 1, 1)).toBeUndefined()
  })

  it('3. the segments from the one left up to the new one are deleted', () => {
    expect(segmentsBetween([0, 1, 2, 3, 4], 1, 3)).toEqual([1, 2])
    expect(segmentsBetween([0, 1, 2], 0, 0)).toEqual([])
  })

  it('4. an emptied spill moves to a fresh segment when anything was read or exists, else stays', () => {
    expect(segmentAfterEmpty([], { seg: 2, offset: 30 }, 2)).toBe(3)
    expect(segmentAfterEmpty([2, 5], { seg: 2, offset: 0 }, 5)).toBe(6)
    expect(segmentAfterEmpty([], { seg: 2, offset: 0 }, 2)).toBeUndefined()
  })
})
