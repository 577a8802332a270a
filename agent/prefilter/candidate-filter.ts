// The agent's byte pre-filter over whole batches: which lines may carry a level some rule takes
// (the candidates), found by searching each read buffer natively rather than looking at every line.
// A line is dropped only when no way the full path (`alerts/line.ts`, `alerts/detect-level.ts`)
// could give it a level at or above the threshold applies; every candidate still goes through the
// full path, so the filter changes what is parsed, never what is selected.
//
// Per line it costs one pass over the tailer's line ends reading one byte, or the ten of
// `{"level":V,`. Then, once per read buffer and only when a line needs it:
// - lines starting `{"level":V,` with V below the threshold: a search for another top-level
//   `"level"` key (JSON keeps the last), which logx and pino never write, and for `\u` (a key
//   spelled with escapes). Every such line has `"level"` at its start, which a search would find
//   once per line; so the `v` of each of those prefixes is blanked in the buffer for the time of
//   the search (and put back before the filter returns), and one memchr-speed search for `vel"`
//   finds only the other ones;
// - other lines (plain text): the head rules (glog, logcat, `error:`) read at the line's start
//   when its first byte allows one (a table read per line, and Windows CBS's `, Error` read where
//   the stamp puts it). Where none applies, detect-level takes the line's earliest token, so a
//   line whose stamp is followed by an upper-case level word (log4j, Spark, Zookeeper, Python's
//   logging) is settled by that word: a candidate at or above the threshold, never one below it,
//   whatever the rest of the line holds. Then, over the stretch of lines left unsettled, the
//   upper-case level words, searched through a few rare anchors that together occur in all of
//   them (see anchored-search.ts), and `level` / `lvl=` / `severity=`, `[` and `<`, each hit
//   checked in place for the token detect-level would read there (the keys too are searched
//   through their rarest byte). A file whose every line starts that way is never searched.
// A line completed across two reads, a line cut at max_line_bytes and a line starting with `{` in
// any other layout are always candidates. Line objects are built for the candidates only.
//
// The rules of a line's first bytes are line-marks.ts; the pass and the searches, chunk-scanner.ts.
import { batchLine, type LineBatch } from '../tail'
import { createChunkScanner, scanChunk } from './chunk-scanner'
import { OPEN_BRACE_BYTE } from './level-evidence'
import { CANDIDATE } from './line-marks'
import type { CandidateFilter, CandidateScan } from './types'

export type { CandidateFilter, CandidateScan } from './types'

export function createCandidateFilter(threshold: number): CandidateFilter {
  // Reused across batches: the threshold's searches and the scratch arrays.
  const scanner = createChunkScanner(threshold)

  return (batch: LineBatch): CandidateScan => {
    const chunk = batch.chunk
    const candidates = []
    let notJson = 0
    // Rule 1: a line kept from earlier reads: no search, the full path decides.
    const first = chunk === undefined ? batch.lineCount : chunk.first
    for (let i = 0; i < first; i++) {
      const line = batchLine(batch, i)
      candidates.push(line)
      if (line.data[0] !== OPEN_BRACE_BYTE) notJson++
    }
    if (chunk === undefined) return { candidates, notJson }
    notJson += scanChunk(scanner, chunk)
    const { marks } = scanner
    const count = chunk.ends.length
    for (let k = 0; k < count; k++) if (marks[k] === CANDIDATE) candidates.push(batchLine(batch, first + k))
    return { candidates, notJson }
  }
}
