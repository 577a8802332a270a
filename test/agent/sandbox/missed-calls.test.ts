import { describe, expect, it } from 'vitest'
import { compactPhoneNumber, parseMissedCall, SANDBOX_MISSED_CALL_NUMBER } from '../../../agent/sandbox/missed-calls'

describe('a simulated missed call body', () => {
  it('stores numbers as digits, keeping a written leading +', () => {
    expect(compactPhoneNumber('+91 98000-00001')).toBe('+919800000001')
    expect(compactPhoneNumber('(555) 010.0001')).toBe('5550100001')
    expect(parseMissedCall({ caller: ' +1 (555) 010-0100 ' })).toEqual({
      ok: true,
      caller: '+15550100100',
      called: SANDBOX_MISSED_CALL_NUMBER,
    })
    expect(parseMissedCall({ caller: '919800000001', called: '+91 80 3333 3333' })).toEqual({
      ok: true,
      caller: '919800000001',
      called: '+918033333333',
    })
  })

  it('is called to the sandbox number unless told otherwise', () => {
    expect(SANDBOX_MISSED_CALL_NUMBER).toBe('15550199999')
  })

  it('names every bad field', () => {
    const fields = (body: unknown) => {
      const parsed = parseMissedCall(body)
      return parsed.ok ? [] : parsed.problems.map((p) => p.field)
    }
    expect(fields({})).toEqual(['caller'])
    expect(fields({ caller: 919800000001 })).toEqual(['caller'])
    expect(fields({ caller: 'call me maybe' })).toEqual(['caller'])
    expect(fields({ caller: '(((((' })).toEqual(['caller'])
    expect(fields({ caller: '1234' })).toEqual(['caller'])
    expect(fields({ caller: '1'.repeat(17) })).toEqual(['caller'])
    expect(fields({ caller: '12345', called: '' })).toEqual(['called'])
    expect(fields({ caller: '12345', called: null })).toEqual(['called'])
    expect(fields({ caller: '12345', calld: '15550100' })).toEqual(['calld'])
    expect(fields([])).toEqual(['(body)'])
    expect(fields(undefined)).toEqual(['(body)'])
  })
})
