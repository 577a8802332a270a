// One test per numbered rule of alerts/kinds/ratio.ts.
import { describe, expect, it } from 'vitest'
import { ratioExceeded } from '../../../alerts/kinds/ratio'

describe('ratio decisions', () => {
  it('1. fewer than min_lines lines of the source: no page', () => {
    expect(ratioExceeded({ matching: 50, total: 199, above: 0.05, minLines: 200 })).toBe(false)
  })

  it('2. more matching lines than lines counted: no page', () => {
    expect(ratioExceeded({ matching: 300, total: 200, above: 0.05, minLines: 200 })).toBe(false)
  })

  it('3. a page when the share is above `above`', () => {
    expect(ratioExceeded({ matching: 10, total: 200, above: 0.05, minLines: 200 })).toBe(false)
    expect(ratioExceeded({ matching: 11, total: 200, above: 0.05, minLines: 200 })).toBe(true)
  })
})
