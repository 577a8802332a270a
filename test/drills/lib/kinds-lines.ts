// Lines for the kinds drill and the backlog test: error lines of random letters-only words (a seeded
// mulberry32, so a run can be replayed), each a kind of its own. No digit for the miner to mask, and
// the token count (2-8) and the first two words (3-8 letters each) differ from line to line, so the
// miner's tree leaves (token count and two leading tokens) hardly ever meet.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

/** Lines per chunk handed to the write stream: ~2 MB, so a million lines are ~20 writes. */
const CHUNK_LINES = 50_000

/** A source of distinct error lines, `count` at a time, from `seed`. */
export function distinctLines(seed: number): (count: number) => string {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  const word = (): string => {
    let letters = ''
    for (let n = 3 + (next() % 6); n > 0; n--) letters += String.fromCharCode(97 + (next() % 26))
    return letters
  }
  return (count) => {
    const parts: string[] = []
    for (let i = 0; i < count; i++) parts.push(`ERROR ${Array.from({ length: 2 + (next() % 7) }, word).join(' ')}\n`)
    return parts.join('')
  }
}

/**
 * Appends `count` distinct lines to `path` through one stream in big chunks, with `between(k)`'s bytes
 * (binary lines, 10 MB lines) after chunk k when given. Resolves once all is on the file.
 */
export async function appendDistinctLines(
  path: string,
  count: number,
  seed: number,
  between?: (chunk: number) => Buffer | undefined,
): Promise<void> {
  const out = createWriteStream(path, { flags: 'a', highWaterMark: 4 * 1024 * 1024 })
  const lines = distinctLines(seed)
  for (let chunk = 0, left = count; left > 0; chunk++, left -= CHUNK_LINES) {
    if (!out.write(lines(Math.min(CHUNK_LINES, left)))) await once(out, 'drain')
    const extra = between?.(chunk)
    if (extra !== undefined && !out.write(extra)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}
