import { describe, expect, it } from 'vitest'
import { bytesEqual, secretEquals } from '../../agent/secret-equal'

describe('secretEquals', () => {
  it('is true only for the same bytes', () => {
    expect(secretEquals('s3cret-key', 's3cret-key')).toBe(true)
    expect(secretEquals('s3cret-kez', 's3cret-key')).toBe(false)
    expect(secretEquals('t3cret-key', 's3cret-key')).toBe(false)
    expect(secretEquals('s3cret-ke', 's3cret-key')).toBe(false)
    expect(secretEquals('s3cret-keyy', 's3cret-key')).toBe(false)
    expect(secretEquals('', '')).toBe(true)
    // Compared as UTF-8 bytes: a different character of the same length in UTF-16 is not equal.
    expect(secretEquals('clé', 'cle\u0301')).toBe(false)
  })

  it('refuses a missing or repeated header', () => {
    expect(secretEquals(undefined, 'k')).toBe(false)
    expect(secretEquals(['k', 'k'], 'k')).toBe(false)
  })

  it('compares bytes whatever their values', () => {
    expect(bytesEqual(Uint8Array.of(0, 255, 128), Uint8Array.of(0, 255, 128))).toBe(true)
    expect(bytesEqual(Uint8Array.of(0, 255, 128), Uint8Array.of(0, 255, 129))).toBe(false)
    expect(bytesEqual(Uint8Array.of(1), Uint8Array.of())).toBe(false)
  })
})
