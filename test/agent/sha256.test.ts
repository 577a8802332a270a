import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../agent/sha256'

describe('sha256', () => {
  it('gives the standard digests', () => {
    expect(sha256(Buffer.alloc(0)).toString('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
    expect(sha256(Buffer.from('abc')).toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(sha256(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toString('hex')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
  })

  it('equals node:crypto at every length across the padding boundaries, and for a long input', () => {
    for (let length = 0; length <= 300; length++) {
      const data = randomBytes(length)
      expect(sha256(data).toString('hex'), `length ${length}`).toBe(createHash('sha256').update(data).digest('hex'))
    }
    const long = randomBytes(100_003)
    expect(sha256(long)).toEqual(createHash('sha256').update(long).digest())
  })

  it('reads a view at its offset, not its whole buffer', () => {
    const whole = randomBytes(512)
    const view = whole.subarray(100, 356)
    expect(sha256(view)).toEqual(createHash('sha256').update(view).digest())
  })
})
