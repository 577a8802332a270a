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
import { batchLine, type LineBatch, type LineChunk, type TailLine } from '../tail'
import { createAnchoredSearch } from './anchored-search'
import {
  bracketTokenAt,
  HEAD_RULE_BY_BYTE,
  headLevel,
  jsonPrefixLevel,
  JSON_KEY_ESCAPE,
  JSON_LEVEL_KEY_END,
  JSON_PREFIX_V_AT,
  leadingTokenLevel,
  LEVEL_KEYS,
  levelKeyTokenAt,
  OPEN_BRACE_BYTE,
  otherLevelKeyAt,
  syslogPriorityAt,
  upperCaseNeedles,
  viewOf,
} from './level-evidence'

export interface CandidateScan {
  /** Lines that may be selected, in file order. */
  candidates: TailLine[]
  /** Lines whose first byte is not `{` (a `json` source counts them as parse errors). */
  notJson: number
}

export type CandidateFilter = (batch: LineBatch) => CandidateScan

const NEWLINE = 0x0a
const LESS = 0x3c
const DASH = 0x2d
const COMMA = 0x2c
const OPEN_BRACKET = 0x5b
const LETTER_V = 0x76
/** Stands in for a blanked prefix `v`: any byte that is not `v` would do. */
const BLANK = 0x00
/** A line's mark: a candidate, or a line whose level is known to be below the threshold (no search may make it one). */
const CANDIDATE = 1
const BELOW = 2

type TokenCheck = (buf: Buffer, at: number, end: number, threshold: number) => boolean

export function createCandidateFilter(threshold: number): CandidateFilter {
  const upper = createAnchoredSearch(upperCaseNeedles(threshold).map((needle) => Buffer.from(needle)))
  // `level`, `lvl=` and `severity=` through their rarest byte too (`v` in most logs, which all three
  // hold): `l` and `e` are everywhere in prose.
  const levelKey = createAnchoredSearch(LEVEL_KEYS)
  // Reused across batches: where the blanked prefixes are, and which lines are candidates.
  let blanked = new Int32Array(2048)
  let marks = new Uint8Array(2048)

  return (batch) => {
    const chunk = batch.chunk
    const candidates: TailLine[] = []
    let notJson = 0
    // A line kept from earlier reads: no search, the full path decides.
    const first = chunk === undefined ? batch.lineCount : chunk.first
    for (let i = 0; i < first; i++) {
      const line = batchLine(batch, i)
      candidates.push(line)
      if (line.data[0] !== OPEN_BRACE_BYTE) notJson++
    }
    if (chunk === undefined) return { candidates, notJson }
    const count = chunk.ends.length
    if (marks.length < count) marks = new Uint8Array(count)
    else marks.fill(0, 0, count)
    notJson += scanChunk(chunk, marks)
    for (let k = 0; k < count; k++) if (marks[k] === CANDIDATE) candidates.push(batchLine(batch, first + k))
    return { candidates, notJson }
  }

  /** Marks the chunk's candidates; returns how many of its lines do not start with `{`. */
  function scanChunk(chunk: LineChunk, marks: Uint8Array): number {
    const { buffer, ends, maxLineBytes } = chunk
    const count = ends.length
    if (blanked.length < count) blanked = new Int32Array(count)
    let low = 0
    let notJson = 0
    // The bytes the searches for plain-text evidence must cover: from the first line whose level
    // is not settled by its first bytes to the end of the last one.
    let textFrom = -1
    let textTo = -1
    let start = chunk.start
    const view = viewOf(buffer)
    try {
      for (let k = 0; k < count; k++) {
        const end = ends[k] as number
        const first = buffer[start] as number
        if (first === OPEN_BRACE_BYTE) {
          // A cut line: the full path sees only its first bytes, and decides.
          const level = end - start > maxLineBytes ? -1 : jsonPrefixLevel(buffer, start, end, view)
          if (level === -1 || level >= threshold) {
            marks[k] = CANDIDATE
          } else {
            buffer[start + JSON_PREFIX_V_AT] = BLANK
            blanked[low++] = start + JSON_PREFIX_V_AT
          }
        } else {
          notJson++
          // The head rules only where the first bytes allow one (a table read, and for a digit the third or twentieth byte).
          const head = HEAD_RULE_BY_BYTE[first] as number
          const ruled = head === 1 || (head === 2 && (buffer[start + 2] === DASH || buffer[start + 19] === COMMA))
          const headMost = ruled ? headLevel(buffer, start, end) : -1
          // With no head rule, a level word after the stamp is the line's first token, which decides.
          const leading = headMost === -1 ? leadingTokenLevel(buffer, start, end, view) : -1
          if (end - start > maxLineBytes || headMost >= threshold || leading >= threshold) marks[k] = CANDIDATE
          else if (leading !== -1) marks[k] = BELOW
          else {
            if (textFrom === -1) textFrom = start
            textTo = end + 1
          }
        }
        start = end + 1
      }
      if (low > 0) {
        const end = (ends[count - 1] as number) + 1
        markHits(chunk, marks, chunk.start, end, JSON_LEVEL_KEY_END, otherLevelKeyAt)
        markHits(chunk, marks, chunk.start, end, JSON_KEY_ESCAPE, undefined)
      }
    } finally {
      for (let i = 0; i < low; i++) buffer[blanked[i] as number] = LETTER_V
    }
    if (textFrom !== -1) searchText(chunk, marks, textFrom, textTo)
    return notJson
  }

  /**
   * The searches for plain-text evidence over buffer[from..end). A function of its own: V8 inlines
   * the searches' checks into it, which it no longer did once they were part of the per-line loop.
   */
  function searchText(chunk: LineChunk, marks: Uint8Array, from: number, end: number): void {
    const { buffer } = chunk
    upper.search(buffer, from, end, (at) => markLine(chunk, marks, at))
    levelKey.search(buffer, from, end, (at) =>
      levelKeyTokenAt(buffer, at, end, threshold) ? markLine(chunk, marks, at) : at,
    )
    markHits(chunk, marks, from, end, OPEN_BRACKET, bracketTokenAt)
    markHits(chunk, marks, from, end, LESS, angleTokenAt)
  }

  /** `<word>` anywhere, or `<PRI>` at the start of a line. */
  function angleTokenAt(buf: Buffer, at: number, end: number): boolean {
    if (bracketTokenAt(buf, at, end, threshold)) return true
    return (at === 0 || buf[at - 1] === NEWLINE) && syslogPriorityAt(buf, at, end, threshold)
  }

  /** Marks the line holding buffer position `at` (binary search on the line ends) unless its level is known to be below; returns where that line ends. */
  function markLine(chunk: LineChunk, marks: Uint8Array, at: number): number {
    const { ends } = chunk
    let low = 0
    let high = ends.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((ends[middle] as number) < at) low = middle + 1
      else high = middle
    }
    if (marks[low] !== BELOW) marks[low] = CANDIDATE
    return ends[low] as number
  }

  /**
   * Marks the lines of the chunk holding `needle` in buffer[from..end) (where `check`, given the
   * hit's position and `end`, says the token there counts). The search goes on after the end of
   * each line it marks.
   */
  function markHits(
    chunk: LineChunk,
    marks: Uint8Array,
    from: number,
    end: number,
    needle: Buffer | number,
    check: TokenCheck | undefined,
  ): void {
    const { buffer } = chunk
    let at = buffer.indexOf(needle, from)
    while (at !== -1 && at < end) {
      if (check !== undefined && !check(buffer, at, end, threshold)) {
        at = buffer.indexOf(needle, at + 1)
        continue
      }
      at = buffer.indexOf(needle, markLine(chunk, marks, at) + 1)
    }
  }
}
