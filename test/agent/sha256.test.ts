// What users rely on: a checkpoint saved by an earlier version names its file by the SHA-256 of the
// file's head, so the digest must stay the standard one (FIPS 180-2's vectors) for it to match.
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../agent/sha256'

describe('sha256', () => {
  it('gives the standard digests, so saved checkpoints still match their files', () => {
    expect(sha256(Buffer.from('abc')).toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(sha256('').toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })

  it('hashes a text as its UTF-8 bytes', () => {
    expect(sha256('clé').equals(sha256(Buffer.from('clé', 'utf8')))).toBe(true)
  })
})
