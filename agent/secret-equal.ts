// Compares a secret someone sent with the one expected, in a time that depends on their lengths
// only: every byte is looked at, so how long a wrong key takes to refuse tells nothing about how
// much of it was right. The bytes are compared here rather than with crypto.timingSafeEqual so that
// the embedded sandbox's key check does not load node:crypto (0.7 MB of the agent's memory).

/** Equal bytes, looked at whole. */
export function bytesEqual(given: Uint8Array, expected: Uint8Array): boolean {
  if (given.length !== expected.length) return false
  let difference = 0
  for (let i = 0; i < given.length; i++) difference |= given[i]! ^ expected[i]!
  return difference === 0
}

/** A header's value against the expected secret: false for a missing or repeated header. */
export function secretEquals(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false
  return bytesEqual(Buffer.from(given), Buffer.from(expected))
}
