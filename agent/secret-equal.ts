// Compares a secret someone sent with the one expected in a time that tells nothing of it: both are
// hashed to digests of one length and compared with node:crypto's timingSafeEqual, so neither how
// long a wrong key takes to refuse nor its length says how much of it was right.
import { timingSafeEqual } from 'node:crypto'
import { sha256 } from './sha256'

/** Two digests compared whole; false, not a throw, when their lengths differ. */
export function bytesEqual(given: Uint8Array, expected: Uint8Array): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** A header's value against the expected secret: false for a missing or repeated header. */
export function secretEquals(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false
  return timingSafeEqual(sha256(given), sha256(expected))
}
