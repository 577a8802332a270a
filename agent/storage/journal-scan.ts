// A journal read back at open, line by line, sorted into what it holds. Pure but for the reading.
//
//   1. A complete line that parses and that the caller takes is a record, kept.
//   2. A complete line that is empty is nothing (a torn line ended by an earlier version).
//   3. A complete line that does not parse, or that the caller refuses, is bad: the file is damaged.
//   4. Zero bytes before a line's text (a power cut on a file system that extended the file but
//      lost the data): stripped, the file is damaged, the text after them is read by rules 1-3; a
//      line of nothing but zeros is bad.
//   5. The bytes after the last newline: none is a clean end. Text that parses and is taken is a
//      record whose newline was not written, kept. Anything else holding no zero byte is a torn
//      last record (a kill mid-append): dropped, and the file is not damaged for it. Zero bytes
//      there are damage (rule 4).
import { openLineReader, type LineReader } from './line-reader'

export interface JournalScan {
  /** The text of each record kept (rules 1, 4, 5), in order. */
  kept: string[]
  /** Lines that could not be used (rules 3, 4). */
  bad: number
  /** The first of them, 1-based. */
  firstBad: number | undefined
  /** Zero bytes were found (rule 4). */
  zeros: boolean
  /** Rule 5. */
  end: 'clean' | 'unended-record' | 'torn'
  /** Offset just past the last newline. */
  endOffset: number
  /** Lines in the file, empty ones included (what the journal counts toward compaction). */
  lines: number
}

const ZEROS = /^\0+/

/** Rules 1-4 for one line: its text to keep, or undefined. */
function take(line: string, scan: JournalScan, onRecord: (record: unknown) => unknown): string | undefined {
  let text = line
  if (text.startsWith('\0')) {
    scan.zeros = true
    text = text.replace(ZEROS, '')
  }
  let record: unknown
  try {
    record = JSON.parse(text)
  } catch {
    return undefined
  }
  return onRecord(record) === false ? undefined : text
}

function scanLines(reader: LineReader, onRecord: (record: unknown) => unknown): JournalScan {
  const scan: JournalScan = {
    kept: [],
    bad: 0,
    firstBad: undefined,
    zeros: false,
    end: 'clean',
    endOffset: 0,
    lines: 0,
  }
  for (let next = reader.next(); next !== undefined; next = reader.next()) {
    if (next.line === '') continue
    scan.lines++
    const kept = take(next.line, scan, onRecord)
    if (kept !== undefined) scan.kept.push(kept)
    else {
      scan.bad++
      scan.firstBad ??= scan.lines
    }
  }
  scan.endOffset = reader.offset
  if (reader.tail === 0) return scan
  const rest = reader.rest()
  const kept = take(rest.toString('utf8'), scan, onRecord)
  if (kept !== undefined) {
    scan.kept.push(kept)
    scan.end = 'unended-record'
  } else if (rest.includes(0)) {
    scan.zeros = true
    scan.bad++
    scan.firstBad ??= scan.lines + 1
  } else scan.end = 'torn'
  return scan
}

/** Reads `path` (undefined: there is no such file), handing each record to `onRecord` as it goes. */
export function scanJournal(path: string, onRecord: (record: unknown) => unknown): JournalScan | undefined {
  let reader: LineReader
  try {
    reader = openLineReader(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  try {
    return scanLines(reader, onRecord)
  } finally {
    reader.close()
  }
}

/** Whether the file is damaged: records (or zeros) that cannot be read, not just a torn last one. */
export function damaged(scan: JournalScan): boolean {
  return scan.bad > 0 || scan.zeros
}
