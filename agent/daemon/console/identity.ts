// How the command line knows the process on the console's port is the agent that wrote
// `<state_dir>/console.json` before it sends that agent a token: the file (mode 0600) holds a random
// key made at start; the CLI sends a random challenge to POST /api/identity (no token needed) and
// checks the answer is HMAC-SHA256(key, challenge). A process that took the port after the agent
// died (or another user's listener) cannot read the key, so cannot answer.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** Bytes of a challenge; it travels as lowercase hex. */
export const CHALLENGE_BYTES = 32
export const CHALLENGE_PATTERN = /^[0-9a-f]{64}$/

export function newChallenge(): string {
  return randomBytes(CHALLENGE_BYTES).toString('hex')
}

/** A key for console.json: 32 random bytes, base64url. */
export function newIdentityKey(): string {
  return randomBytes(32).toString('base64url')
}

/** What the agent answers to `challenge`: HMAC-SHA256 under its key, lowercase hex. */
export function identityProof(key: string, challenge: string): string {
  return createHmac('sha256', key).update(challenge, 'utf8').digest('hex')
}

/** Whether `proof` is the answer to `challenge` under `key`, compared in constant time. */
export function proofHolds(key: string, challenge: string, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false
  return timingSafeEqual(Buffer.from(identityProof(key, challenge), 'hex'), Buffer.from(proof, 'hex'))
}
