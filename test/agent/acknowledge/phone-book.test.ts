// people -> person by caller number (agent/acknowledge/phone-book.ts).
import { expect, it } from 'vitest'
import { createPhoneBook } from '../../../agent/acknowledge/phone-book'

const book = createPhoneBook([
  { name: 'asha', phone: '+91 98000 00001' },
  { name: 'ravi', phone: '+919800000003' },
  { name: 'nophone', phone: undefined },
  { name: 'desk', phone: 'reception' },
])

it('finds a person by their number however the API spells it', () => {
  expect(book.personOf('+919800000001')).toBe('asha')
  expect(book.personOf('919800000001')).toBe('asha')
  expect(book.personOf('09800000001')).toBe('asha')
  expect(book.personOf('0091 98000 00003')).toBe('ravi')
})

it('an unknown or unreadable number is nobody', () => {
  expect(book.personOf('+919800000002')).toBeUndefined()
  expect(book.personOf('reception')).toBeUndefined()
  expect(book.personOf('')).toBeUndefined()
  expect(book.personOf('00001')).toBeUndefined()
})

it('an exact number beats a match on the last 10 digits; among equals the first person wins', () => {
  const b = createPhoneBook([
    { name: 'national', phone: '9800000001' },
    { name: 'international', phone: '+91 98000 00001' },
    { name: 'twin', phone: '919800000001' },
  ])
  expect(b.personOf('919800000001')).toBe('international')
  expect(b.personOf('9800000001')).toBe('national')
  expect(b.personOf('09800000001')).toBe('national')
})
