// What the pre-filter decides of a line from its first bytes (agent/prefilter/line-marks.ts), one
// test per rule. Rule 1 (lines kept from earlier reads) is candidate-filter.ts's: tested there too.
import { describe, expect, it } from 'vitest'
import { createCandidateFilter } from '../../../agent/prefilter/candidate-filter'
import {
  BELOW,
  CANDIDATE,
  headRuleApplies,
  jsonLineMark,
  lineIndexAt,
  markAfterHit,
  SEARCHED,
  textLineMark,
} from '../../../agent/prefilter/line-marks'
import { createLineBatch } from '../../../agent/tail/batch'

const MAX = 1000
const ERROR = 50

describe('line marks', () => {
  it('1. a line kept from earlier reads is a candidate, whatever it holds', () => {
    const origin = { fileId: '1:1', followId: 1, generation: 0, path: 'a.log' }
    const line = { data: Buffer.from('{"level":10,"msg":"trace"}'), offset: 27, truncated: false }
    const batch = createLineBatch(origin, line)
    expect(createCandidateFilter(ERROR)(batch).candidates).toHaveLength(1)
  })
  it('2. a { line cut at max_line_bytes is a candidate', () => {
    expect(jsonLineMark(MAX + 1, MAX, 10, ERROR)).toBe(CANDIDATE)
  })
  it('3. a {"level":V, line at or above the threshold, or a { line in another layout, is a candidate', () => {
    expect(jsonLineMark(40, MAX, 50, ERROR)).toBe(CANDIDATE)
    expect(jsonLineMark(40, MAX, -1, ERROR)).toBe(CANDIDATE)
  })
  it('4. a {"level":V, line below the threshold is searched', () => {
    expect(jsonLineMark(40, MAX, 30, ERROR)).toBe(SEARCHED)
  })
  it('5. a plain-text line cut at max_line_bytes is a candidate', () => {
    expect(textLineMark(MAX + 1, MAX, -1, 20, ERROR)).toBe(CANDIDATE)
  })
  it('6. a head rule applies where the first byte allows one; for a digit only with - third or , twentieth', () => {
    expect(headRuleApplies(1, undefined, undefined)).toBe(true)
    expect(headRuleApplies(0, 0x2d, 0x2c)).toBe(false)
    expect(headRuleApplies(2, 0x2d, undefined)).toBe(true)
    expect(headRuleApplies(2, 0x30, 0x2c)).toBe(true)
    expect(headRuleApplies(2, 0x30, 0x30)).toBe(false)
  })
  it('7. a head rule or a first token at or above the threshold makes a candidate', () => {
    expect(textLineMark(40, MAX, 50, -1, ERROR)).toBe(CANDIDATE)
    expect(textLineMark(40, MAX, -1, 60, ERROR)).toBe(CANDIDATE)
  })
  it('8. a first token below the threshold makes the line below', () => {
    expect(textLineMark(40, MAX, -1, 30, ERROR)).toBe(BELOW)
  })
  it('9. any other plain-text line is searched', () => {
    expect(textLineMark(40, MAX, -1, -1, ERROR)).toBe(SEARCHED)
    expect(textLineMark(40, MAX, 30, -1, ERROR)).toBe(SEARCHED)
  })
  it('10. a hit belongs to the line whose end is the first at or after it', () => {
    const ends = Int32Array.from([9, 19, 29])
    expect([0, 9, 10, 19, 25, 29].map((at) => lineIndexAt(ends, at))).toEqual([0, 0, 1, 1, 2, 2])
  })
  it('11. a hit makes its line a candidate unless it is below', () => {
    expect([SEARCHED, CANDIDATE, BELOW].map(markAfterHit)).toEqual([CANDIDATE, CANDIDATE, BELOW])
  })
})
