// Several byte strings searched at once through a few anchor bytes. Buffer#indexOf runs at memchr
// speed for a single rare byte and far slower for a pattern that starts with a common one, and a
// pass over the buffer per needle costs as much as the search itself when the needles are absent,
// which is the usual case. So the needles are covered by a small set of bytes (each needle holds at
// least one), chosen on a sample of the data as the rarest ones that cover the most needles; each
// anchor is searched once, and each of its hits checked in place against the needles that hold it.
// The choice only changes the speed: every occurrence of every needle is found whatever the sample.

export interface AnchoredSearch {
  /**
   * Calls `onHit` with the start of each needle occurrence in buffer[start..end) (a needle must
   * lie wholly inside); `onHit` returns where the search may resume (the end of the line it
   * marked), and occurrences before that are skipped. No order across anchors.
   */
  search(buffer: Buffer, start: number, end: number, onHit: (at: number) => number): void
}

interface Anchored {
  readonly bytes: Buffer
  /** Where the anchor byte sits in the needle. */
  readonly offset: number
}

interface AnchorGroup {
  readonly byte: number
  readonly needles: readonly Anchored[]
}

const SAMPLE_BYTES = 64 * 1024
// Rough costs, in the same unit: a pass over one byte of buffer, and one hit handled in JavaScript.
const PASS_COST_PER_BYTE = 1
const HIT_COST = 400

export function createAnchoredSearch(needles: readonly Buffer[]): AnchoredSearch {
  let groups: AnchorGroup[] | undefined

  function choose(sample: Buffer): AnchorGroup[] {
    const counts = new Float64Array(256)
    for (const byte of sample) counts[byte] = (counts[byte] as number) + 1
    const left = new Set(needles.filter((needle) => needle.length > 0))
    const chosen: AnchorGroup[] = []
    while (left.size > 0) {
      let best = -1
      let bestScore = Infinity
      for (let byte = 0; byte < 256; byte++) {
        let covers = 0
        for (const needle of left) if (needle.includes(byte)) covers++
        if (covers === 0) continue
        const score = (sample.length * PASS_COST_PER_BYTE + (counts[byte] as number) * HIT_COST) / covers
        if (score < bestScore) {
          bestScore = score
          best = byte
        }
      }
      const covered = [...left].filter((needle) => needle.includes(best))
      for (const needle of covered) left.delete(needle)
      chosen.push({ byte: best, needles: covered.map((bytes) => ({ bytes, offset: bytes.indexOf(best) })) })
    }
    return chosen
  }

  function occursAt(buffer: Buffer, begin: number, bytes: Buffer): boolean {
    for (let i = 0; i < bytes.length; i++) if (buffer[begin + i] !== bytes[i]) return false
    return true
  }

  return {
    search(buffer, start, end, onHit) {
      groups ??= choose(buffer.subarray(start, Math.min(end, start + SAMPLE_BYTES)))
      for (const { byte, needles: anchored } of groups) {
        let at = buffer.indexOf(byte, start)
        while (at !== -1 && at < end) {
          let next = at + 1
          for (const { bytes, offset } of anchored) {
            const begin = at - offset
            if (begin >= start && begin + bytes.length <= end && occursAt(buffer, begin, bytes)) {
              next = Math.max(next, onHit(begin) + 1)
              break
            }
          }
          at = buffer.indexOf(byte, next)
        }
      }
    },
  }
}
