// The agent's byte pre-filter over whole batches: which lines may carry a level some rule takes
// (the candidates), found by searching each read buffer natively rather than looking at every line.
// A line is dropped only when no way the full path (`alerts/line.ts`, `alerts/detect-level.ts`)
// could give it a level at or above the threshold applies; every candidate still goes through the
// full path, so the filter changes what is parsed, never what is selected.
//
// Per line it costs one pass over the tailer's line offsets reading one byte, or the ten of
// `{"level":V,`. Then, once per read buffer and only when a line needs it:
// - lines starting `{"level":V,` with V below the threshold: a search for another top-level
//   `level` key (JSON keeps the last), which logx and pino never write;
// - other lines (plain text): searches for the upper-case level words, `level`, `[` and `<`,
//   each hit checked in place for the token detect-level would read there.
// Lines outside the tailer's contiguous run (a line completed across two reads, a cut line) and
// lines starting with `{` in any other layout are always candidates.
import { getBatchRun, type BatchRun } from '../tail/batch'
import type { LineBatch, TailLine } from '../tail'
import {
  bracketTokenAt,
  glogLevel,
  JSON_EXTRA_LEVEL_KEYS,
  jsonPrefixLevel,
  levelKeyTokenAt,
  OPEN_BRACE_BYTE,
  syslogPriorityAt,
  upperCaseNeedles,
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
const OPEN_BRACKET = 0x5b
const LEVEL = Buffer.from('level')

export function createCandidateFilter(threshold: number): CandidateFilter {
  const upper = upperCaseNeedles(threshold).map((needle) => Buffer.from(needle))
  const jsonKeys = JSON_EXTRA_LEVEL_KEYS.map((needle) => Buffer.from(needle))

  return (batch) => {
    const lines = batch.lines
    const run = getBatchRun(batch)
    const marks = new Uint8Array(lines.length)
    let notJson = 0
    const from = run?.from ?? lines.length
    const to = run?.to ?? lines.length
    // Outside the run: no search, the full path decides.
    for (let i = 0; i < lines.length; i++) {
      if (i >= from && i < to) continue
      marks[i] = 1
      if ((lines[i] as TailLine).data[0] !== OPEN_BRACE_BYTE) notJson++
    }
    if (run !== undefined) notJson += scanRun(run, lines, marks)
    const candidates: TailLine[] = []
    for (let i = 0; i < lines.length; i++) if (marks[i] === 1) candidates.push(lines[i] as TailLine)
    return { candidates, notJson }
  }

  /** Marks the run's candidates; returns how many of its lines do not start with `{`. */
  function scanRun(run: BatchRun, lines: readonly TailLine[], marks: Uint8Array): number {
    const { buffer, bufferOffset } = run
    let notJson = 0
    let lowJson = false
    let text = false
    let start = run.start
    for (let i = run.from; i < run.to; i++) {
      const end = (lines[i] as TailLine).offset - bufferOffset - 1
      const first = buffer[start] as number
      if (first === OPEN_BRACE_BYTE) {
        const level = jsonPrefixLevel(buffer, start, end)
        if (level === -1 || level >= threshold) marks[i] = 1
        else lowJson = true
      } else {
        notJson++
        if (first !== NEWLINE && glogLevel(first) >= threshold) marks[i] = 1
        else text = true
      }
      start = end + 1
    }
    if (lowJson) for (const needle of jsonKeys) markHits(run, lines, marks, needle, undefined)
    if (text) {
      for (const needle of upper) markHits(run, lines, marks, needle, undefined)
      markHits(run, lines, marks, LEVEL, levelKeyTokenAt)
      markHits(run, lines, marks, OPEN_BRACKET, bracketTokenAt)
      markHits(run, lines, marks, LESS, angleTokenAt)
    }
    return notJson
  }

  /** `<word>` anywhere, or `<PRI>` at the start of a line. */
  function angleTokenAt(buf: Buffer, at: number, end: number): boolean {
    if (bracketTokenAt(buf, at, end, threshold)) return true
    return (at === 0 || buf[at - 1] === NEWLINE) && syslogPriorityAt(buf, at, end, threshold)
  }

  /**
   * Marks the lines of the run holding `needle` (where `check`, given the hit's position and the
   * end of the run, says the token there counts). The line of a hit is found by binary search on
   * the line offsets; the search goes on after that line's end once it is marked.
   */
  function markHits(
    run: BatchRun,
    lines: readonly TailLine[],
    marks: Uint8Array,
    needle: Buffer | number,
    check: ((buf: Buffer, at: number, end: number, threshold: number) => boolean) | undefined,
  ): void {
    const { buffer, bufferOffset, end } = run
    let low = run.from
    let at = buffer.indexOf(needle, run.start)
    while (at !== -1 && at < end) {
      if (check !== undefined && !check(buffer, at, end, threshold)) {
        at = buffer.indexOf(needle, at + 1)
        continue
      }
      let high = run.to - 1
      while (low < high) {
        const middle = (low + high) >>> 1
        if ((lines[middle] as TailLine).offset - bufferOffset - 1 < at) low = middle + 1
        else high = middle
      }
      marks[low] = 1
      at = buffer.indexOf(needle, (lines[low] as TailLine).offset - bufferOffset)
    }
  }
}
