// A log stream's chunks become batches of whole lines, as a file's reads do, so the one pre-filter
// reads both; test-rule numbers lines from them.
import { describe, expect, it } from 'vitest'
import { createCandidateFilter } from '../../../agent/prefilter/candidate-filter'
import { createStreamLines, lineIndexOf } from '../../../agent/prefilter/stream-lines'
import type { LineBatch } from '../../../agent/tail'

function collect(
  chunks: (string | Buffer)[],
  maxLineBytes?: number,
): { lines: string[]; truncated: boolean[]; batches: LineBatch[] } {
  const lines = createStreamLines(maxLineBytes)
  const batches: LineBatch[] = []
  for (const chunk of chunks) lines.push(chunk, (b) => batches.push(b))
  lines.end((b) => batches.push(b))
  const all = batches.flatMap((b) => [...b.lines])
  return { lines: all.map((l) => l.data.toString('utf8')), truncated: all.map((l) => l.truncated), batches }
}

describe('stream lines', () => {
  it('joins lines cut across chunks, a multi-byte character included, and ends with the unterminated last line', () => {
    const bytes = Buffer.from('a\nbé\n\nc')
    expect(collect([bytes.subarray(0, 4), bytes.subarray(4)]).lines).toEqual(['a', 'bé', '', 'c'])
  })

  it('keeps the head of a line longer than the cap, marked cut, and goes on', () => {
    const { lines, truncated } = collect(['ok\n0123456789', 'abcdef', 'more\nnext\n'], 8)
    expect(lines).toEqual(['ok', '01234567', 'next'])
    expect(truncated).toEqual([false, true, false])
  })

  it('gives each line its index in its batch from its end offset', () => {
    const { batches } = collect(['x\nyy\n', 'z', 'zz\nw\n'])
    const indexes = batches.map((b) => b.lines.map((l) => lineIndexOf(b, l.offset)))
    expect(indexes).toEqual([
      [0, 1],
      [0, 1],
    ])
  })

  it('feeds the pre-filter: lines below the level are dropped on the bytes, odd layouts are kept', () => {
    const text =
      [
        '{"level":30,"msg":"fine"}',
        '{"level":50,"msg":"db down"}',
        '{"msg":"x","level" : 50}',
        '{"level":30,"msg":"y","level":50}',
        '2024-01-01 ERROR disk full',
        'plain info line',
      ].join('\n') + '\n'
    const { batches } = collect([text])
    const filter = createCandidateFilter(50)
    const kept = batches.flatMap((b) => filter(b).candidates.map((l) => l.data.toString('utf8')))
    expect(kept).toEqual([
      '{"level":50,"msg":"db down"}',
      '{"msg":"x","level" : 50}',
      '{"level":30,"msg":"y","level":50}',
      '2024-01-01 ERROR disk full',
    ])
  })
})

describe('lineIndexOf property', () => {
  it('finds every line of every batch, as a naive split of the whole text numbers them', async () => {
    const { default: fc } = await import('fast-check')
    // Short lines, empty ones, CRLF and lines over the cap, cut anywhere into chunks.
    const line = fc.oneof(
      fc.constantFrom('', '\r', 'a', '{"level":50}\r'),
      fc.string({ unit: fc.constantFrom('x', 'é', '\r', ' '), maxLength: 12 }),
    )
    await fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.boolean(),
        fc.uniqueArray(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 1, max: 10 }),
        (lines, terminated, rawCuts, maxLineBytes) => {
          const text = Buffer.from(lines.join('\n') + (terminated && lines.length > 0 ? '\n' : ''))
          const cuts = [...new Set(rawCuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
          const points = [0, ...cuts, text.length]
          const chunks = points.slice(1).map((end, i) => text.subarray(points[i], end))
          const { batches } = collect(chunks, maxLineBytes)
          // The naive numbering: split the whole text on '\n'; an unterminated last line is a line, an empty one is not.
          const naive = text.toString('utf8').split('\n')
          if (naive[naive.length - 1] === '') naive.pop()
          let next = 0
          for (const batch of batches) {
            batch.lines.forEach((l, index) => {
              expect(lineIndexOf(batch, l.offset)).toBe(index)
              const whole = Buffer.from(naive[next + index] as string)
              expect(l.data.equals(whole.subarray(0, maxLineBytes))).toBe(true)
              expect(l.truncated).toBe(whole.length > maxLineBytes)
            })
            next += batch.lineCount
          }
          expect(next).toBe(naive.length)
        },
      ),
      { numRuns: 500 },
    )
  })
})
