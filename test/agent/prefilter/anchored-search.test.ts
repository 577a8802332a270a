import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAnchoredSearch } from '../../../agent/prefilter/anchored-search'

/** Indexes of the lines the search reports, resuming after the end of each line it reports (as the candidate filter does). */
function reportedLines(text: Buffer, needles: readonly Buffer[]): number[] {
  const ends: number[] = []
  for (let i = text.indexOf(0x0a); i !== -1; i = text.indexOf(0x0a, i + 1)) ends.push(i)
  const lines = new Set<number>()
  const end = (ends.at(-1) ?? -1) + 1
  createAnchoredSearch(needles).search(text, 0, end, (at) => {
    const line = ends.findIndex((lineEnd) => lineEnd >= at)
    lines.add(line)
    return ends[line] as number
  })
  return [...lines].sort((a, b) => a - b)
}

function linesHolding(text: Buffer, needles: readonly Buffer[]): number[] {
  const lines = text.toString('latin1').split('\n').slice(0, -1)
  return lines.flatMap((line, index) =>
    needles.some((needle) => line.includes(needle.toString('latin1'))) ? [index] : [],
  )
}

describe('createAnchoredSearch', () => {
  it('finds the level words of a text log through a few anchor bytes', () => {
    const text = Buffer.from(
      '2026-01-01T00:00:00Z INFO ok\n2026-01-01T00:00:01Z ERROR failed\nFATAL: gone\nWARN x\nno level\nPANIC\n',
    )
    const needles = ['ERR', 'FATAL', 'PANIC', 'ALERT', 'CRIT'].map((word) => Buffer.from(word))
    expect(reportedLines(text, needles)).toEqual([1, 2, 5])
  })

  it('reports exactly the lines holding a needle, for any text and needles', () => {
    const alphabet = fc.constantFrom(...'ABERTaeL: \n'.split(''))
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 400 }).map((chars) => chars.join('')),
        fc.array(
          fc
            .array(fc.constantFrom(...'ABERTaeL: '.split('')), { minLength: 1, maxLength: 6 })
            .map((chars) => Buffer.from(chars.join(''))),
          { minLength: 1, maxLength: 5 },
        ),
        (text, needles) => {
          const bytes = Buffer.from(`${text}\n`)
          expect(reportedLines(bytes, needles)).toEqual(linesHolding(bytes, needles))
        },
      ),
      { numRuns: 500 },
    )
  })
})
