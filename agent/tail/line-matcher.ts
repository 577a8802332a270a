// A byte prefilter over batches: the lines that contain any of the needles, found without decoding
// or parsing. The lines of a batch that sit in its read buffer are searched with one indexOf per
// needle over the whole buffer (a call per line costs more than the search itself), and a hit is
// mapped to its line by binary search on the line ends; only matching lines become objects.
//
// Buffer#indexOf scans fastest for a short pattern whose first byte is rare in the text (it
// memchr()s for that byte), and JSON is full of `"`, `:` and digits. So each needle is searched
// through an anchor: the window of up to ANCHOR_BYTES of it that starts with its rarest byte,
// rarity measured on the first run searched; every anchor hit is then checked against the whole needle.

import { batchLine, type LineBatch } from './batch'
import { TailError, TailErrorCodes } from './errors'
import type { TailLine } from './line-splitter'

export type LineMatcher = (batch: LineBatch) => TailLine[]

const ANCHOR_BYTES = 6
const SAMPLE_BYTES = 64 * 1024

interface Needle {
  readonly bytes: Buffer
  anchor: Buffer
  /** Where the anchor starts inside the needle. */
  anchorAt: number
}

export function createLineMatcher(needles: ReadonlyArray<string | Buffer>): LineMatcher {
  const list: Needle[] = needles.map((needle, index) => {
    const bytes = typeof needle === 'string' ? Buffer.from(needle) : needle
    // A needle without '\n' cannot match across two lines of a run, which the run search relies on.
    if (bytes.length === 0 || bytes.includes(0x0a)) {
      throw new TailError(TailErrorCodes.INVALID_OPTION, `needles[${index}]: must be non-empty and hold no '\\n'`, { path: `needles[${index}]` })
    }
    return { bytes, anchor: bytes, anchorAt: 0 }
  })
  let anchored = false

  function chooseAnchors(sample: Buffer): void {
    const counts = new Uint32Array(256)
    for (const byte of sample) counts[byte] = (counts[byte] as number) + 1
    for (const needle of list) {
      const width = Math.min(ANCHOR_BYTES, needle.bytes.length)
      let best = 0
      for (let at = 1; at + width <= needle.bytes.length; at++) {
        if ((counts[needle.bytes[at] as number] as number) <= (counts[needle.bytes[best] as number] as number)) best = at
      }
      needle.anchor = needle.bytes.subarray(best, best + width)
      needle.anchorAt = best
    }
    anchored = true
  }

  function lineHas(line: TailLine): boolean {
    const data = line.data
    for (const needle of list) if (data.indexOf(needle.bytes) !== -1) return true
    return false
  }

  /** Start of the first whole-needle match in buffer[start..end), or -1. */
  function find(needle: Needle, buffer: Buffer, start: number, end: number): number {
    const { bytes, anchor, anchorAt } = needle
    let at = buffer.indexOf(anchor, start + anchorAt)
    while (at !== -1) {
      const begin = at - anchorAt
      if (begin + bytes.length > end) return -1
      if (anchorAt === 0 && anchor.length === bytes.length) return begin
      if (buffer.compare(bytes, 0, bytes.length, begin, begin + bytes.length) === 0) return begin
      at = buffer.indexOf(anchor, at + 1)
    }
    return -1
  }

  return (batch) => {
    const chunk = batch.chunk
    if (chunk === undefined) return batch.lines.filter(lineHas)
    const { buffer, ends, first, maxLineBytes } = chunk
    const count = ends.length
    const end = (ends[count - 1] as number) + 1
    if (!anchored) chooseAnchors(buffer.subarray(chunk.start, Math.min(end, chunk.start + SAMPLE_BYTES)))
    const hit = new Uint8Array(count)
    let any = false
    for (const needle of list) {
      let position = find(needle, buffer, chunk.start, end)
      let low = 0
      while (position !== -1) {
        // First line whose '\n' lies after the match: the line holding it.
        let high = count - 1
        while (low < high) {
          const middle = (low + high) >>> 1
          if ((ends[middle] as number) < position) low = middle + 1
          else high = middle
        }
        const lineStart = low === 0 ? chunk.start : (ends[low - 1] as number) + 1
        // A cut line is only its first maxLineBytes bytes: a match past them is not in it (nor is
        // any later one in that line).
        if (position + needle.bytes.length <= lineStart + maxLineBytes) {
          hit[low] = 1
          any = true
        }
        position = find(needle, buffer, (ends[low] as number) + 1, end)
      }
    }
    const matched: TailLine[] = []
    if (first === 1 && lineHas(batchLine(batch, 0))) matched.push(batchLine(batch, 0))
    if (any) for (let k = 0; k < count; k++) if (hit[k] === 1) matched.push(batchLine(batch, first + k))
    return matched
  }
}
