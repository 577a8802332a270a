// A log stream's chunks become batches of whole lines, as a file's reads do, so the one pre-filter
// reads both; test-rule numbers lines from them.
import { describe, expect, it } from 'vitest'
import { createCandidateFilter } from '../../../agent/delivery/candidate-filter'
import { createStreamLines, lineIndexOf } from '../../../agent/delivery/stream-lines'
import type { LineBatch } from '../../../agent/tail'

function collect(chunks: (string | Buffer)[], maxLineBytes?: number): { lines: string[]; truncated: boolean[]; batches: LineBatch[] } {
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
    expect(indexes).toEqual([[0, 1], [0, 1]])
  })

  it('feeds the pre-filter: lines below the level are dropped on the bytes, odd layouts are kept', () => {
    const text = [
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
    expect(kept).toEqual(['{"level":50,"msg":"db down"}', '{"msg":"x","level" : 50}', '{"level":30,"msg":"y","level":50}', '2024-01-01 ERROR disk full'])
  })
})
