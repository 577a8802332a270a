// logx-tail-filter: a transform step for pipelines. It passes on only the lines some rule selects,
// annotated with that rule, and decides on the bytes first: a line below every rule's level is
// dropped without being decoded or parsed.
import { Transform } from 'node:stream'
import { lowestLevel, parseLine, selectRule } from '../../../alerts'
import { createLineSplitter } from '../shared/line-splitter'
import { annotateLine } from './annotate'
import { normalizeTailFilterOptions } from './options'
import { mayBeCandidate } from '../shared/prefilter'

export type { TailFilterOptionsInput } from './options'

export interface TailFilterStats {
  lines: number
  candidates: number
  passed: number
}

export function createTailFilter(raw: unknown): Transform & { stats(): TailFilterStats } {
  const options = normalizeTailFilterOptions(raw)
  const lowest = lowestLevel(options.rules)
  const splitter = createLineSplitter()
  const stats: TailFilterStats = { lines: 0, candidates: 0, passed: 0 }
  let out: string[] = []

  const onLine = (buf: Buffer, start: number, end: number): void => {
    stats.lines++
    if (!mayBeCandidate(buf, start, end, lowest)) return
    stats.candidates++
    const line = parseLine(buf.toString('utf8', start, end), options.source)
    const rule = selectRule(options.rules, line)
    if (rule === undefined) return
    stats.passed++
    out.push(options.annotate ? annotateLine(line, rule.name) : line.raw)
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
        splitter.push(chunk, onLine)
      } catch {
        // A line that breaks the filter is dropped, never the stream.
      }
      callback(null, take())
    },
    flush(callback) {
      splitter.end(onLine)
      callback(null, take())
    },
  })
  return Object.assign(transform, { stats: () => ({ ...stats }) })
}

export default async function tailFilter(raw: unknown): Promise<Transform> {
  return createTailFilter(raw)
}
