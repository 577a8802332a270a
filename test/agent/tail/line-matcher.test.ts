import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createChunkBatch, type LineBatch } from '../../../agent/tail/batch'
import { createLineMatcher, createTailer, TailErrorCodes } from '../../../agent/tail'
import { createLineSplitter } from '../../../agent/tail/line-splitter'
import { makeTempDir } from './helpers'

/** Batches as the tailer builds them: one per chunk that completes a line. */
function batchesOf(chunks: readonly Buffer[], maxLineBytes: number): LineBatch[] {
  const splitter = createLineSplitter(0, maxLineBytes)
  const batches: LineBatch[] = []
  let offset = 0
  for (const chunk of chunks) {
    const batch = createChunkBatch({ fileId: '1:1', generation: 0, path: undefined }, splitter.push(chunk, offset), chunk, offset, maxLineBytes)
    if (batch !== undefined) batches.push(batch)
    offset += chunk.length
  }
  return batches
}

describe('line matcher', () => {
  it('finds the lines holding any needle, in order', () => {
    const match = createLineMatcher(['"level":50', Buffer.from('"level":60')])
    const text = '{"level":30,"msg":"a"}\n{"level":50,"msg":"b"}\n{"level":60,"msg":"c"}\n{"msg":"d","level":50}\nlevel 50\n'
    const [batch] = batchesOf([Buffer.from(text)], 1000)
    expect(match(batch as LineBatch).map((line) => line.data.toString())).toEqual(['{"level":50,"msg":"b"}', '{"level":60,"msg":"c"}', '{"msg":"d","level":50}'])
  })

  it('rejects empty needles and needles with a newline', () => {
    expect(() => createLineMatcher([''])).toThrow(expect.objectContaining({ code: TailErrorCodes.INVALID_OPTION }))
    expect(() => createLineMatcher(['a\nb'])).toThrow(expect.objectContaining({ code: TailErrorCodes.INVALID_OPTION }))
  })

  it('agrees with a per-line search for any text, chunking and needles', () => {
    const alphabet = fc.constantFrom(...'ab"l:5\n'.split(''))
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 300 }).map((chars) => chars.join('')),
        fc.array(fc.array(fc.constantFrom(...'ab"l:5'.split('')), { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 30 }),
        (text, needles, chunkSize, maxLineBytes) => {
          const bytes = Buffer.from(text)
          const chunks: Buffer[] = []
          for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize))
          const match = createLineMatcher(needles)
          for (const batch of batchesOf(chunks, maxLineBytes)) {
            const want = batch.lines.filter((line) => needles.some((needle) => line.data.includes(needle)))
            expect(match(batch)).toEqual(want)
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('works on the batches of a real tailer', async () => {
    const { dir, cleanup } = makeTempDir('matcher')
    try {
      const file = join(dir, 'app.log')
      writeFileSync(file, '')
      const tailer = await createTailer({ paths: file, readChunkBytes: 512, pollIntervalMs: 25 })
      let text = ''
      for (let i = 0; i < 500; i++) text += `{"level":${i % 7 === 0 ? 50 : 30},"i":${i}}\n`
      appendFileSync(file, text)
      const match = createLineMatcher(['"level":50'])
      const found: number[] = []
      let lines = 0
      for await (const batch of tailer) {
        lines += batch.lines.length
        for (const line of match(batch)) found.push((JSON.parse(line.data.toString()) as { i: number }).i)
        if (lines === 500) break
      }
      await tailer.close()
      expect(found).toEqual(Array.from({ length: 72 }, (_, k) => k * 7))
    } finally {
      cleanup()
    }
  })
})
