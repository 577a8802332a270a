// SHA-256 (FIPS 180-4) without node:crypto, which costs the agent 0.7 MB of memory and a dozen
// built-in modules to load, for hashes of a few hundred bytes: a checkpoint's file head, the
// console's token. The output is the same as createHash('sha256'), so saved checkpoints still match.

/** The first 32 bits of the fractional part of `root(prime)` for the first `count` primes. */
function fractionBits(count: number, root: (x: number) => number): Uint32Array {
  const out = new Uint32Array(count)
  for (let candidate = 2, found = 0; found < count; candidate++) {
    let prime = true
    for (let d = 2; d * d <= candidate; d++) if (candidate % d === 0) prime = false
    if (!prime) continue
    const value = root(candidate)
    out[found++] = (value - Math.floor(value)) * 0x100000000
  }
  return out
}

const ROUND_CONSTANTS = fractionBits(64, Math.cbrt)
const INITIAL_STATE = fractionBits(8, Math.sqrt)
const schedule = new Uint32Array(64)

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

export function sha256(data: Uint8Array): Buffer {
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian), in whole 64-byte blocks.
  const padded = Buffer.alloc(Math.ceil((data.length + 9) / 64) * 64)
  padded.set(data)
  padded[data.length] = 0x80
  padded.writeUInt32BE(Math.floor(data.length / 0x20000000), padded.length - 8)
  padded.writeUInt32BE((data.length * 8) >>> 0, padded.length - 4)
  const state = Uint32Array.from(INITIAL_STATE)
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) schedule[i] = padded.readUInt32BE(block + i * 4)
    for (let i = 16; i < 64; i++) {
      const w15 = schedule[i - 15]!
      const w2 = schedule[i - 2]!
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3)
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10)
      schedule[i] = schedule[i - 16]! + s0 + schedule[i - 7]! + s1
    }
    let [a, b, c, d, e, f, g, h] = state as unknown as [number, number, number, number, number, number, number, number]
    for (let i = 0; i < 64; i++) {
      const t1 =
        (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[i]! + schedule[i]!) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      h = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    state[0]! += a
    state[1]! += b
    state[2]! += c
    state[3]! += d
    state[4]! += e
    state[5]! += f
    state[6]! += g
    state[7]! += h
  }
  const digest = Buffer.alloc(32)
  for (let i = 0; i < 8; i++) digest.writeUInt32BE(state[i]!, i * 4)
  return digest
}
