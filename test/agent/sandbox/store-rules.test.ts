import { describe, expect, it } from 'vitest'
import {
  COMPACT_SLACK,
  evictable,
  FIRST_LEAD_ID,
  leadCounterAfter,
  overByteCap,
  pagePositions,
  recordBytes,
  recordId,
  retentionExcess,
  shouldCompact,
  shouldSweep,
  SWEEP_AT,
} from '../../../agent/sandbox/store-rules'

describe('the store rules', () => {
  it('1: a listing is newest first; limit caps the total; a page is a slice of that', () => {
    expect(pagePositions(5, 1, 2, undefined)).toEqual({ positions: [4, 3], total: 5 })
    expect(pagePositions(5, 3, 2, undefined)).toEqual({ positions: [0], total: 5 })
    expect(pagePositions(5, 2, 2, 3)).toEqual({ positions: [2], total: 3 })
    expect(pagePositions(5, 4, 2, undefined)).toEqual({ positions: [], total: 5 })
  })

  it('2: past the retention, as many of the oldest go as are over', () => {
    expect(retentionExcess(10, 10)).toBe(0)
    expect(retentionExcess(12, 10)).toBe(2)
  })

  it('3: dead slots are swept once they are SWEEP_AT and at least half the arrival list', () => {
    expect(shouldSweep(SWEEP_AT - 1, SWEEP_AT)).toBe(false)
    expect(shouldSweep(SWEEP_AT, SWEEP_AT * 2)).toBe(true)
    expect(shouldSweep(SWEEP_AT, SWEEP_AT * 2 + 1)).toBe(false)
  })

  it('4: the journal is rewritten once its appends pass the live records by more than the slack', () => {
    expect(shouldCompact(100 + COMPACT_SLACK, 100)).toBe(false)
    expect(shouldCompact(101 + COMPACT_SLACK, 100)).toBe(true)
  })

  it("5: a record's id is its kind's prefix and its seq", () => {
    expect(recordId('voice', 7)).toBe('obd-7')
    expect(recordId('activity', 8)).toBe('act-8')
    expect(recordId('sms', 9)).toBe('sms-9')
  })

  it('6: lead ids count from FIRST_LEAD_ID; a replayed lead moves the counter past its id', () => {
    const start = FIRST_LEAD_ID - 1
    expect(leadCounterAfter(start, 'lead', { lead_id: '2000' })).toBe(2000)
    expect(leadCounterAfter(2000, 'lead', { lead_id: '1500' })).toBe(2000)
    expect(leadCounterAfter(start, 'lead', { lead_id: 'x' })).toBe(start)
    expect(leadCounterAfter(start, 'sms', { lead_id: '5000' })).toBe(start)
  })

  it('7: past the byte cap the oldest go, any kind but the seeded lookups', () => {
    expect(overByteCap(1024, 1024)).toBe(false)
    expect(overByteCap(1025, 1024)).toBe(true)
    for (const kind of ['sms', 'mail', 'chat', 'voice', 'lead', 'activity', 'social', 'missed'] as const) {
      expect(evictable(kind), kind).toBe(true)
    }
    expect(evictable('instance')).toBe(false)
    expect(evictable('chat_group')).toBe(false)
  })

  it("8: a record's bytes are its JSON text's UTF-8 length", () => {
    expect(recordBytes('{"a":1}')).toBe(7)
    expect(recordBytes('{"t":"é"}')).toBe(10)
  })
})
