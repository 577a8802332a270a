// node:crypto for what must have strong randomness (a run-time silence's id, a console page's nonce).
// It is loaded by every agent that reads a file (sha256.ts hashes a checkpoint's file head), so this
// no longer saves memory: a file that asks here may import node:crypto itself, and this file then goes.
import * as crypto from 'node:crypto'

export function nodeCrypto(): typeof crypto {
  return crypto
}
