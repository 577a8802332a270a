// A short stable hash for keys (incident keys, absence keys): its own leaf, so any file of the domain
// may use it without importing what fingerprint.ts imports.
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** 53-bit string hash (cyrb53): short stable keys without node:crypto. */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  // The 53-bit value (21 bits of h2, 32 of h1) as 14 hex digits: Number#toString(16) of it is
  // several times slower than the hash itself.
  const high = 2097151 & h2
  const highHex = `${HEX[high >>> 16]}${HEX[(high >>> 8) & 255]}${HEX[high & 255]}`
  return `${highHex}${HEX[h1 >>> 24]}${HEX[(h1 >>> 16) & 255]}${HEX[(h1 >>> 8) & 255]}${HEX[h1 & 255]}`
}
