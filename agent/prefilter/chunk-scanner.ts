// The pre-filter's work on one read buffer: a pass over the line ends reading the first bytes of each
// line (line-marks.ts decides from them), then the searches over the lines left to them. The state
// is what every batch reuses: the threshold's searches and two scratch arrays (where the blanked
// prefixes are, and each line's mark). How the searches stay cheap is candidate-filter.ts's header.
import type { LineChunk } from '../tail'
import { createAnchoredSearch, type AnchoredSearch } from './anchored-search'
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
import {
  CANDIDATE,
  headRuleApplies,
  jsonLineMark,
  lineIndexAt,
  markAfterHit,
  SEARCHED,
  textLineMark,
} from './line-marks'

const NEWLINE = 0x0a
const LESS = 0x3c
const OPEN_BRACKET = 0x5b
const LETTER_V = 0x76
/** Stands in for a blanked prefix `v`: any byte that is not `v` would do. */
const BLANK = 0x00

type TokenCheck = (buf: Buffer, at: number, end: number, threshold: number) => boolean

/** What every batch reuses: the threshold's searches and the scratch arrays. A plain object, one shape. */
export interface ChunkScanner {
  readonly threshold: number
  readonly upper: AnchoredSearch
  /** `level`, `lvl=` and `severity=` through their rarest byte too (`v` in most logs, which all three hold). */
  readonly levelKey: AnchoredSearch
  readonly angleTokenAt: TokenCheck
  /** Each line's mark (line-marks.ts), for the chunk last scanned. */
  marks: Uint8Array
  /** Where the blanked prefixes are. */
  blanked: Int32Array
}

export function createChunkScanner(threshold: number): ChunkScanner {
  return {
    threshold,
    upper: createAnchoredSearch(upperCaseNeedles(threshold).map((needle) => Buffer.from(needle))),
    levelKey: createAnchoredSearch(LEVEL_KEYS),
    /** `<word>` anywhere, or `<PRI>` at the start of a line. */
    angleTokenAt: (buf, at, end) =>
      bracketTokenAt(buf, at, end, threshold) ||
      ((at === 0 || buf[at - 1] === NEWLINE) && syslogPriorityAt(buf, at, end, threshold)),
    marks: new Uint8Array(2048),
    blanked: new Int32Array(2048),
  }
}

/** Marks the chunk's lines in `scanner.marks`; returns how many of them do not start with `{`. */
export function scanChunk(scanner: ChunkScanner, chunk: LineChunk): number {
  const count = chunk.ends.length
  if (scanner.marks.length < count) scanner.marks = new Uint8Array(count)
  else scanner.marks.fill(0, 0, count)
  if (scanner.blanked.length < count) scanner.blanked = new Int32Array(count)
  const { buffer, ends, maxLineBytes } = chunk
  const { marks, blanked, threshold } = scanner
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
        const level = end - start > maxLineBytes ? -1 : jsonPrefixLevel(buffer, start, end, view)
        if (jsonLineMark(end - start, maxLineBytes, level, threshold) === CANDIDATE) marks[k] = CANDIDATE
        else {
          buffer[start + JSON_PREFIX_V_AT] = BLANK
          blanked[low++] = start + JSON_PREFIX_V_AT
        }
      } else {
        notJson++
        const head = HEAD_RULE_BY_BYTE[first] as number
        const ruled = head !== 0 && headRuleApplies(head, buffer[start + 2], buffer[start + 19])
        const headMost = ruled ? headLevel(buffer, start, end) : -1
        const leading = headMost === -1 ? leadingTokenLevel(buffer, start, end, view) : -1
        const mark = textLineMark(end - start, maxLineBytes, headMost, leading, threshold)
        if (mark !== SEARCHED) marks[k] = mark
        else {
          if (textFrom === -1) textFrom = start
          textTo = end + 1
        }
      }
      start = end + 1
    }
    if (low > 0) {
      const end = (ends[count - 1] as number) + 1
      markHits(scanner, chunk, chunk.start, end, JSON_LEVEL_KEY_END, otherLevelKeyAt)
      markHits(scanner, chunk, chunk.start, end, JSON_KEY_ESCAPE, undefined)
    }
  } finally {
    for (let i = 0; i < low; i++) buffer[blanked[i] as number] = LETTER_V
  }
  if (textFrom !== -1) searchText(scanner, chunk, textFrom, textTo)
  return notJson
}

/**
 * The searches for plain-text evidence over buffer[from..end). A function of its own: V8 inlines
 * the searches' checks into it, which it no longer did once they were part of the per-line loop.
 */
function searchText(scanner: ChunkScanner, chunk: LineChunk, from: number, end: number): void {
  const { buffer } = chunk
  const { threshold } = scanner
  scanner.upper.search(buffer, from, end, (at) => markLine(scanner, chunk, at))
  scanner.levelKey.search(buffer, from, end, (at) =>
    levelKeyTokenAt(buffer, at, end, threshold) ? markLine(scanner, chunk, at) : at,
  )
  markHits(scanner, chunk, from, end, OPEN_BRACKET, bracketTokenAt)
  markHits(scanner, chunk, from, end, LESS, scanner.angleTokenAt)
}

/** Marks the line holding buffer position `at` (rules 10 and 11); returns where that line ends. */
function markLine(scanner: ChunkScanner, chunk: LineChunk, at: number): number {
  const line = lineIndexAt(chunk.ends, at)
  const { marks } = scanner
  marks[line] = markAfterHit(marks[line] as number)
  return chunk.ends[line] as number
}

/**
 * Marks the lines of the chunk holding `needle` in buffer[from..end) (where `check`, given the
 * hit's position and `end`, says the token there counts). The search goes on after the end of
 * each line it marks.
 */
function markHits(
  scanner: ChunkScanner,
  chunk: LineChunk,
  from: number,
  end: number,
  needle: Buffer | number,
  check: TokenCheck | undefined,
): void {
  const { buffer } = chunk
  let at = buffer.indexOf(needle, from)
  while (at !== -1 && at < end) {
    if (check !== undefined && !check(buffer, at, end, scanner.threshold)) {
      at = buffer.indexOf(needle, at + 1)
      continue
    }
    at = buffer.indexOf(needle, markLine(scanner, chunk, at) + 1)
  }
}
