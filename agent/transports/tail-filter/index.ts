// logx-tail-filter: a transform step for pipelines. It passes on only the lines some rule selects,
// annotated with that rule, and decides on the bytes first, with the agent's own pre-filter: a
// line below every rule's level is dropped without being decoded or parsed.
import { Transform } from 'node:stream'
import { lowestLevel, parseLine, selectRule } from '../../../alerts'
import { createCandidateFilter } from '../../prefilter/candidate-filter'
import { createStreamLines } from '../../prefilter/stream-lines'
import type { LineBatch } from '../../tail'
import { annotateLine } from './annotate'
import { normalizeTailFilterOptions } from './options'

export type { TailFilterOptionsInput } from './options'

export interface TailFilterStats {
  lines: number
  candidates: number
  passed: number
}

export function createTailFilter(raw: unknown): Transform & { stats(): TailFilterStats } {
  const options = normalizeTailFilterOptions(raw)
  const filter = createCandidateFilter(lowestLevel(options.rules))
  const lines = createStreamLines()
  const stats: TailFilterStats = { lines: 0, candidates: 0, passed: 0 }
  let out: string[] = []

  const onBatch = (batch: LineBatch): void => {
    stats.lines += batch.lineCount
    for (const candidate of filter(batch).candidates) {
      if (candidate.data.length === 0) continue
      stats.candidates++
      const line = parseLine(candidate.data.toString('utf8'), options.source)
      const rule = selectRule(options.rules, line)
      if (rule === undefined) continue
      stats.passed++
      out.push(options.annotate ? annotateLine(line, rule.name) : line.raw)
    }
  }

  function take(): string | undefined {
    if (out.length === 0) return undefined
    const text = `${out.join('\n')}\n`
    out = []
    return text
  }

  const transform = new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      try {
        lines.push(chunk, onBatch)
      } catch {
        // A line that breaks the filter is dropped, never the stream.
      }
      callback(null, take())
    },
    flush(callback) {
      lines.end(onBatch)
      callback(null, take())
    },
  })
  return Object.assign(transform, { stats: () => ({ ...stats }) })
}

export default async function tailFilter(raw: unknown): Promise<Transform> {
  return createTailFilter(raw)
}
