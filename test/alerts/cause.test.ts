import { describe, expect, it } from 'vitest'
import { causeOf } from '../../alerts/cause'

describe('the cause of a line', () => {
  it('is the error type and message, from err as pino serializes it, else from error', () => {
    expect(
      causeOf({ err: { type: 'TypeError', message: 'connection refused', stack: 'TypeError: …' } }, 'query failed'),
    ).toBe('TypeError: connection refused')
    expect(causeOf({ err: { name: 'DbError', message: 'down' } }, 'query failed')).toBe('DbError: down')
    expect(causeOf({ error: { message: 'disk full' } }, 'write failed')).toBe('disk full')
    expect(causeOf({ error: 'ECONNRESET' }, 'upstream failed')).toBe('ECONNRESET')
    expect(causeOf({ err: { type: 'Error', message: 'disk on fire' } }, 'cannot continue')).toBe('Error: disk on fire')
  })

  it("shows only the type when the message is the line's message already (log.error(err))", () => {
    expect(causeOf({ err: { type: 'TypeError', message: 'connection refused' } }, 'connection refused')).toBe(
      'TypeError',
    )
    expect(causeOf({ error: 'connection refused' }, 'connection refused')).toBe('')
    // The generic type alone says nothing the page does not.
    expect(causeOf({ err: { type: 'Error', message: 'query 0 timed out' } }, 'query 0 timed out')).toBe('')
    expect(causeOf({ err: { type: 'Error' } }, 'x')).toBe('')
  })

  it('is empty when the line names no error, and one line when it does', () => {
    expect(causeOf({ msg: 'x' }, 'x')).toBe('')
    expect(causeOf({ err: 'not an object', error: 42 }, 'x')).toBe('not an object')
    expect(causeOf({ err: [1, 2] }, 'x')).toBe('')
    expect(causeOf({ err: { type: 'E', message: 'line one\n  line two' } }, 'x')).toBe('E: line one line two')
    // Inherited properties are not the line's.
    expect(causeOf(Object.create({ err: { type: 'Inherited' } }) as Record<string, unknown>, 'x')).toBe('')
  })
})
