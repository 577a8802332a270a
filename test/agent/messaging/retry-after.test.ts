import { describe, expect, it } from 'vitest'
import { parseRetryAfter } from '../../../agent/messaging'

describe('Retry-After', () => {
  it('parses delta seconds and HTTP dates into milliseconds from now; anything else is no hint', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000)
    expect(parseRetryAfter(' 1.5 ', 0)).toBe(1500)
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:05 GMT', 1000)).toBe(4000)
    // A date already past asks for no wait, not a negative one.
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:05 GMT', 9000)).toBe(0)
    expect(parseRetryAfter('soon', 0)).toBeUndefined()
    expect(parseRetryAfter('', 0)).toBeUndefined()
    expect(parseRetryAfter(undefined, 0)).toBeUndefined()
  })
})
