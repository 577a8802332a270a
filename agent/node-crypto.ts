// node:crypto, loaded when first asked for. Loading it costs about 0.7 MB of memory and compiles a
// dozen built-in modules, and an agent that reads, alerts and pages on the embedded sandbox needs
// none of it (sha256.ts, secret-equal.ts and outbox/item-id.ts do its small jobs). What must have
// strong randomness (a console token, a page's nonce) asks here, when it is made.
export function nodeCrypto(): typeof import('node:crypto') {
  return require('node:crypto') as typeof import('node:crypto')
}
