// What users rely on: the sandbox's API key, its webhook token and the console's token let in the
// exact secret only; a missing, repeated, shorter or longer one is refused, never an exception.
import { describe, expect, it } from 'vitest'
import { bytesEqual, secretEquals } from '../../agent/secret-equal'
import { sha256 } from '../../agent/sha256'

describe('secretEquals', () => {
  it('is true only for the same bytes', () => {
    expect(secretEquals('s3cret-key', 's3cret-key')).toBe(true)
    expect(secretEquals('s3cret-kez', 's3cret-key')).toBe(false)
    expect(secretEquals('t3cret-key', 's3cret-key')).toBe(false)
    expect(secretEquals('', '')).toBe(true)
    // Compared as UTF-8 bytes: a different character of the same length in UTF-16 is not equal.
    expect(secretEquals('clé', 'cle\u0301')).toBe(false)
  })

  it('refuses a shorter or a longer secret without throwing', () => {
    expect(secretEquals('s3cret-ke', 's3cret-key')).toBe(false)
    expect(secretEquals('s3cret-keyy', 's3cret-key')).toBe(false)
    expect(secretEquals('', 's3cret-key')).toBe(false)
  })

  it('refuses a missing or repeated header', () => {
    expect(secretEquals(undefined, 'k')).toBe(false)
    expect(secretEquals(['k', 'k'], 'k')).toBe(false)
  })
})

describe('bytesEqual', () => {
  it('matches equal digests and refuses others, of any length, without throwing', () => {
    expect(bytesEqual(sha256('token'), sha256('token'))).toBe(true)
    expect(bytesEqual(sha256('token'), sha256('tokem'))).toBe(false)
    expect(bytesEqual(Uint8Array.of(1), Uint8Array.of())).toBe(false)
  })
})
