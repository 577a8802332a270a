import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createChunkBatch } from '../../../agent/tail/batch'
import { createLineSplitter, type LineSplitter, type TailLine } from '../../../agent/tail/line-splitter'

const FILE = { fileId: '1:1', followId: 1, generation: 0, path: undefined }

/** The lines one push completes, as the tailer's batch gives them. */
function push(splitter: LineSplitter, chunk: Buffer, offset: number, maxLineBytes: number): TailLine[] {
  return [...(createChunkBatch(FILE, splitter.push(chunk, offset), chunk, offset, maxLineBytes)?.lines ?? [])]
}

function feed(
  chunks: readonly Buffer[],
  maxLineBytes: number,
  startOffset = 0,
): { lines: TailLine[]; splitter: LineSplitter } {
  const splitter = createLineSplitter(startOffset, maxLineBytes)
  const lines: TailLine[] = []
  let offset = startOffset
  for (const chunk of chunks) {
    lines.push(...push(splitter, chunk, offset, maxLineBytes))
    offset += chunk.length
  }
  return { lines, splitter }
}

/** What splitting the whole text at once must give: lines, the offset after each, the cut rule. */
function expected(
  text: Buffer,
  maxLineBytes: number,
  startOffset = 0,
): Array<{ data: string; offset: number; truncated: boolean }> {
  const out: Array<{ data: string; offset: number; truncated: boolean }> = []
  let start = 0
  for (let i = text.indexOf(0x0a); i !== -1; i = text.indexOf(0x0a, start)) {
    const line = text.subarray(start, i)
    out.push({
      data: line.subarray(0, maxLineBytes).toString('latin1'),
      offset: startOffset + i + 1,
      truncated: line.length > maxLineBytes,
    })
    start = i + 1
  }
  return out
}

const plain = (lines: readonly TailLine[]) =>
  lines.map((line) => ({ data: line.data.toString('latin1'), offset: line.offset, truncated: line.truncated }))

describe('line splitter', () => {
  it('emits complete lines with the offset after their newline, holding the partial rest', () => {
    const { lines, splitter } = feed([Buffer.from('ab\ncd\nef')], 100, 10)
    expect(plain(lines)).toEqual([
      { data: 'ab', offset: 13, truncated: false },
      { data: 'cd', offset: 16, truncated: false },
    ])
    expect(splitter.lineStart).toBe(16)
    expect(splitter.heldBytes).toBe(2)
  })

  it('completes a held line once, across several chunks', () => {
    const { lines } = feed([Buffer.from('a'), Buffer.from('b'), Buffer.from('c\nd\n')], 100)
    expect(plain(lines)).toEqual([
      { data: 'abc', offset: 4, truncated: false },
      { data: 'd', offset: 6, truncated: false },
    ])
  })

  it('cuts a line over the cap at the cap, counts it, and skips to its newline', () => {
    const { lines, splitter } = feed(
      [Buffer.from('x'.repeat(7)), Buffer.from('x'.repeat(7)), Buffer.from('x\nok\n')],
      5,
    )
    expect(plain(lines)).toEqual([
      { data: 'xxxxx', offset: 16, truncated: true },
      { data: 'ok', offset: 19, truncated: false },
    ])
    expect(splitter.truncatedLines).toBe(1)
  })

  it('keeps a line of exactly the cap whole', () => {
    const { lines } = feed([Buffer.from('abc'), Buffer.from('de\n')], 5)
    expect(plain(lines)).toEqual([{ data: 'abcde', offset: 6, truncated: false }])
  })

  it('finish() emits the unterminated last line at the end offset, once', () => {
    const splitter = createLineSplitter(0, 100)
    const lines: TailLine[] = push(splitter, Buffer.from('a\nlast'), 0, 100)
    for (const last of [splitter.finish(6), splitter.finish(6)]) if (last !== undefined) lines.push(last)
    expect(plain(lines)).toEqual([
      { data: 'a', offset: 2, truncated: false },
      { data: 'last', offset: 6, truncated: false },
    ])
  })

  it('gives the line begun in an earlier chunk as a copy, and the rest as positions in the chunk', () => {
    const splitter = createLineSplitter(0, 4)
    const none = splitter.push(Buffer.from('he'), 0)
    expect(none.head).toBeUndefined()
    expect(none.ends).toHaveLength(0)
    const chunk = Buffer.from('ld\nab\ncd\ntoolong\nef\n')
    const split = splitter.push(chunk, 2)
    expect(split.head).toMatchObject({ offset: 5, truncated: false })
    expect(split.head?.data.toString()).toBe('held')
    // 'toolong' is a position like the others; its length says it is cut.
    expect(split.start).toBe(3)
    expect([...split.ends]).toEqual([5, 8, 16, 19])
    // The read buffer is reused for the next read: the head must not be a view of it.
    chunk.fill(0)
    expect(split.head?.data.toString()).toBe('held')
    expect(splitter.truncatedLines).toBe(1)
  })

  it('any chunking of any bytes gives the lines of splitting it at once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(0x0a, 0x0a, 0x00, 0xff, 0x0d), fc.integer({ min: 0, max: 255 })), {
          maxLength: 400,
        }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 1000 }),
        (bytes, cuts, maxLineBytes, startOffset) => {
          const text = Buffer.from(bytes)
          const chunks: Buffer[] = []
          let position = 0
          let i = 0
          while (position < text.length) {
            const size = cuts[i++ % cuts.length] as number
            chunks.push(text.subarray(position, position + size))
            position += size
          }
          const { lines, splitter } = feed(chunks, maxLineBytes, startOffset)
          const want = expected(text, maxLineBytes, startOffset)
          expect(plain(lines)).toEqual(want)
          expect(splitter.truncatedLines).toBe(want.filter((line) => line.truncated).length)
          expect(splitter.lineStart).toBe(want.length === 0 ? startOffset : (want.at(-1)?.offset as number))
        },
      ),
      { numRuns: 500 },
    )
  })
})
