// `kinds --per-line`'s answer: one id per input line, each the id its line's kind has once the input
// is mined. A line mined before a later merge carries the id of a kind that was absorbed since, so
// the ids are held and resolved through the miner (`resolve`) when the input ends, not printed as
// they come. Rules:
//  1. Each line keeps an index into a table of the distinct (source, id) pairs seen: 4 bytes a line
//     (a Uint32Array that doubles), one table entry per distinct id, never a string per line.
//  2. At the end each table entry is resolved once (`resolve(source, id) ?? id`) and the lines are
//     written in order, in chunks, waiting for a full stream.
//  3. Bounded on any input: when the table reaches `maxIds` distinct ids (only a flood of distinct
//     lines gets there; a log of 10,000 kinds has about as many ids) or `maxLines` lines are held, the
//     lines held so far are resolved and written, and both are emptied: lines after that point resolve
//     on their own. The caller asks (`full`) between reads, where it can wait.
import type { KindMiner } from '../../../alerts/kinds'
import type { ChunkedOutput } from './chunked-output'

export interface PerLineLimits {
  maxIds: number
  maxLines: number
}

export interface PerLineIds {
  /** `lines` input lines whose event got `id` from source `source`. */
  add(source: string | undefined, id: string, lines: number): void
  /** Rule 3: the table or the lines are at their bound; `write` now. */
  full(): boolean
  /** Rule 2: every held line resolved and written; held nothing after. */
  write(): Promise<void>
  /** Distinct ids and lines held now (for tests of the bound). */
  held(): { ids: number; lines: number }
}

const FIRST_LINES = 1 << 16

export function createPerLineIds(miner: KindMiner, output: ChunkedOutput, limits: PerLineLimits): PerLineIds {
  let indexBySource = new Map<string | undefined, Map<string, number>>()
  let sources: (string | undefined)[] = []
  let ids: string[] = []
  let lineIds = new Uint32Array(FIRST_LINES)
  let count = 0

  const indexOf = (source: string | undefined, id: string): number => {
    let bySource = indexBySource.get(source)
    if (bySource === undefined) {
      bySource = new Map<string, number>()
      indexBySource.set(source, bySource)
    }
    let index = bySource.get(id)
    if (index === undefined) {
      index = ids.length
      bySource.set(id, index)
      ids.push(id)
      sources.push(source)
    }
    return index
  }

  return {
    add(source, id, lines) {
      const index = indexOf(source, id)
      if (count + lines > lineIds.length) {
        const grown = new Uint32Array(Math.max(lineIds.length * 2, count + lines))
        grown.set(lineIds.subarray(0, count))
        lineIds = grown
      }
      lineIds.fill(index, count, count + lines)
      count += lines
    },
    full: () => ids.length >= limits.maxIds || count >= limits.maxLines,
    async write() {
      const resolved = ids.map((id, i) => `${miner.resolve(sources[i], id) ?? id}\n`)
      const held = lineIds
      const heldCount = count
      indexBySource = new Map()
      sources = []
      ids = []
      lineIds = new Uint32Array(FIRST_LINES)
      count = 0
      for (let i = 0; i < heldCount; i++) {
        output.push(resolved[held[i] as number] as string)
        if ((i & 0xfff) === 0xfff) await output.flushIfFull()
      }
    },
    held: () => ({ ids: ids.length, lines: count }),
  }
}
