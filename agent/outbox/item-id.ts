// An outbox item's id: a version 4 UUID. It names an item in the journal, the spill and a fleet's
// claims, so it must not repeat among the items outboxes ever hold; it is no secret and guards
// nothing, so a predictable generator will do: Math.random, seeded by V8 from the system's entropy
// in every process. Strong randomness (node:crypto) is kept for what guards something: a run-time
// silence's id, a console page's nonce, the console's token.

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

function randomWord(): number {
  return (Math.random() * 0x100000000) >>> 0
}

function hex4(word: number): string {
  return HEX[word >>> 24]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!
}

export function newItemId(): string {
  const a = hex4(randomWord())
  // The version (4) and the variant (10xx) take six of the 128 bits, as RFC 9562 lays them out.
  const b = hex4((randomWord() & 0xffff0fff) | 0x00004000)
  const c = hex4(((randomWord() & 0x3fffffff) | 0x80000000) >>> 0)
  const d = hex4(randomWord())
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`
}
