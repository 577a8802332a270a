// Several byte strings searched at once through a few anchors. A pass over the buffer per needle
// costs as much as the search itself when the needles are absent, which is the usual case, and each
// anchor hit handed back to JavaScript costs far more than a byte Buffer#indexOf skips natively. So
// the needles are covered by a small set of anchors (a byte, or a few bytes in a row, that each needle
// holds), chosen on a sample of the data as the cheapest ones that cover the most needles; each
// anchor is searched once, and each of its hits checked in place against the needles that hold it.
// A few bytes in a row are what make a common letter usable: `v` occurs on most lines of a web
// log, `vel` almost never (`level` still holds it), and the native search skips the others itself.
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
  /** Where the anchor sits in the needle. */
  readonly offset: number
}

interface AnchorGroup {
  /** A byte, or a string of a few bytes. */
  readonly anchor: number | Buffer
  readonly needles: readonly Anchored[]
}

const SAMPLE_BYTES = 64 * 1024
/** Anchors are bytes or strings of up to this many bytes from the needles. */
const MAX_ANCHOR_BYTES = 3
// Rough costs, in one unit, fitted on a 200 MB log4j file (a pass about 7-10 ms; a stop of the native
// search at a longer anchor's first byte about 14 ns; a hit handed to JavaScript about 28 ns, and its
// checks about 8 ns per needle): a pass over one byte; a stop at a longer anchor's first byte (where
// the native search compares the rest); a hit; and a check of a hit against one needle. With them the
// level words of that file go through `ER`, `RI`, `AL`, `AN` (55 ms) rather than `R`, `A` (75 ms).
const PASS_COST_PER_BYTE = 1
const FIRST_BYTE_COST = 500
const HIT_COST = 1000
const CHECK_COST = 300

interface Candidate {
  anchor: number | Buffer
  /** Its cost on the sample but for the checks of its hits, and how many hits there were. */
  cost: number
  hits: number
  holds(needle: Buffer): boolean
}

function occurrences(sample: Buffer, anchor: Buffer): number {
  let count = 0
  for (let at = sample.indexOf(anchor); at !== -1; at = sample.indexOf(anchor, at + 1)) count++
  return count
}

/** Every byte of the needles and every string of 2 to MAX_ANCHOR_BYTES of them, with its cost on `sample`. */
function candidatesOf(needles: readonly Buffer[], sample: Buffer): Candidate[] {
  const bytes = new Float64Array(256)
  for (const byte of sample) bytes[byte] = (bytes[byte] as number) + 1
  const pass = sample.length * PASS_COST_PER_BYTE
  const out: Candidate[] = []
  for (let byte = 0; byte < 256; byte++) {
    if (!needles.some((needle) => needle.includes(byte))) continue
    const hits = bytes[byte] as number
    out.push({ anchor: byte, cost: pass + hits * HIT_COST, hits, holds: (needle) => needle.includes(byte) })
  }
  const seen = new Set<string>()
  for (const needle of needles) {
    for (let length = 2; length <= MAX_ANCHOR_BYTES; length++) {
      for (let i = 0; i + length <= needle.length; i++) {
        const anchor = Buffer.from(needle.subarray(i, i + length))
        const name = anchor.toString('latin1')
        if (seen.has(name)) continue
        seen.add(name)
        const hits = occurrences(sample, anchor)
        const cost = pass + (bytes[anchor[0] as number] as number) * FIRST_BYTE_COST + hits * HIT_COST
        out.push({ anchor, cost, hits, holds: (n) => n.includes(anchor) })
      }
    }
  }
  return out
}

export function createAnchoredSearch(needles: readonly Buffer[]): AnchoredSearch {
  let groups: AnchorGroup[] | undefined

  /** Greedy: the anchor with the least cost per needle it covers, until every needle is covered. */
  function choose(sample: Buffer): AnchorGroup[] {
    const left = new Set(needles.filter((needle) => needle.length > 0))
    const candidates = candidatesOf([...left], sample)
    const chosen: AnchorGroup[] = []
    while (left.size > 0) {
      let best: Candidate | undefined
      let bestScore = Infinity
      for (const candidate of candidates) {
        let covers = 0
        for (const needle of left) if (candidate.holds(needle)) covers++
        const score = covers === 0 ? Infinity : (candidate.cost + candidate.hits * covers * CHECK_COST) / covers
        if (score < bestScore) {
          bestScore = score
          best = candidate
        }
      }
      const { anchor, holds } = best as Candidate
      const covered = [...left].filter(holds)
      for (const needle of covered) left.delete(needle)
      chosen.push({ anchor, needles: covered.map((bytes) => ({ bytes, offset: bytes.indexOf(anchor) })) })
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
      for (const { anchor, needles: anchored } of groups) {
        let at = buffer.indexOf(anchor, start)
        while (at !== -1 && at < end) {
          let next = at + 1
          for (const { bytes, offset } of anchored) {
            const begin = at - offset
            if (begin >= start && begin + bytes.length <= end && occursAt(buffer, begin, bytes)) {
              next = Math.max(next, onHit(begin) + 1)
              break
            }
          }
          at = buffer.indexOf(anchor, next)
        }
      }
    },
  }
}
