// One phone, written many ways: the YAML's `+91 98000 00001`, an API caller id `919800000001`,
// `09800000001` with the trunk prefix, `0091...` dialled from abroad. validate.ts owns the grammar.
import { describe, expect, it } from 'vitest'
import { phoneKey, phoneKeysMatch, samePhone } from '../../../agent/messaging/validate'

describe('phoneKey', () => {
  it('keeps the digits, without a leading 00', () => {
    expect(phoneKey('+91 98000-00001')).toBe('919800000001')
    expect(phoneKey(' (080) 3333.3333 ')).toBe('08033333333')
    expect(phoneKey('0091 98000 00001')).toBe('919800000001')
  })

  it('is undefined for what is no phone number', () => {
    for (const text of ['', 'private', 'unknown', '+91 98000 0000x', '112', '((((((', '++919800000001']) {
      expect(phoneKey(text), text).toBeUndefined()
    }
  })
})

describe('samePhone', () => {
  it('the same digits however they are grouped', () => {
    expect(samePhone('+91 98000 00001', '919800000001')).toBe(true)
    expect(samePhone('+1 (555) 019-9999', '15550199999')).toBe(true)
    expect(samePhone('0091 98000 00001', '+919800000001')).toBe(true)
  })

  it('a country or trunk prefix on one side only: the last 10 digits decide', () => {
    expect(samePhone('09800000001', '+91 98000 00001')).toBe(true)
    expect(samePhone('09800000001', '919800000001')).toBe(true)
    expect(samePhone('9800000001', '+919800000001')).toBe(true)
    expect(samePhone('5550199999', '15550199999')).toBe(true)
  })

  it('different numbers of the same length never match, whatever their suffix', () => {
    expect(samePhone('+919800000001', '+449800000001')).toBe(false)
    expect(samePhone('+919800000001', '+919800000002')).toBe(false)
  })

  it('numbers shorter than 10 digits match exactly or not at all', () => {
    expect(samePhone('12345', '12345')).toBe(true)
    expect(samePhone('12345', '912345')).toBe(false)
    expect(samePhone('800000001', '9800000001')).toBe(false)
    expect(samePhone('800000001', '+919800000001')).toBe(false)
  })

  it('what is no number matches nothing, not even itself', () => {
    expect(samePhone('private', 'private')).toBe(false)
    expect(samePhone('', '')).toBe(false)
    expect(phoneKeysMatch('', '')).toBe(false)
  })
})
