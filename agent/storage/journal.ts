// A state file kept as an append-only journal: one JSON line per record, appended with one write per
// call (O(1) in the size of the state), replayed at open line by line (never read into memory whole),
// and compacted by replacing the whole file, durably (replace-file.ts), with the records that still
// describe the state. Replay hands over every whole line that parses (journal-scan.ts); a line cut
// by a kill mid-append is cut off at open, so that what is appended next starts a line of its own;
// a damaged file is kept aside and rewritten with what it still holds (corrupt-state.ts).
//
// Appends are not fsynced one by one (a disk flush per step would cap throughput): they survive a
// crash of the process. fsync() makes them survive a crash of the machine; compaction always does.
import { appendFileSync, closeSync, fsyncSync, openSync, truncateSync } from 'node:fs'
import { keepAside, reportCorruptState } from './corrupt-state'
import { fsyncFile } from './fsync'
import { damaged, scanJournal, type JournalScan } from './journal-scan'
import { replaceFile } from './replace-file'
import { writeAll } from './write-all'
import { basename } from 'node:path'

export interface JournalOptions {
  /**
   * Keep one descriptor open for appends (a journal appended to on every step: the outbox's), closed
   * by close(). Without it each append opens and closes the file, and the journal needs no close().
   */
  holdOpen?: boolean
  /** What reports and metrics call the file (`incidents`, `outbox`...); default its base name. */
  name?: string
}

/** Journals are created readable by their owner only: they hold phone numbers and log lines. */
const FILE_MODE = 0o600

const linesOf = (records: readonly unknown[]): string => {
  let text = ''
  for (const record of records) text += `${JSON.stringify(record)}\n`
  return text
}

/** Appends records to a JSON-lines file that is never replayed (dead letters), with one write. */
export function appendRecords(path: string, records: readonly unknown[]): void {
  appendFileSync(path, linesOf(records), { mode: FILE_MODE })
}

export class Journal {
  private fd: number | undefined
  private lineCount = 0
  private unsynced = false

  readonly name: string

  constructor(
    readonly path: string,
    private readonly holdOpen: boolean,
    name?: string,
  ) {
    this.name = name ?? basename(path)
  }

  /** Lines in the file since it was opened or compacted, unreadable ones included. */
  get lines(): number {
    return this.lineCount
  }

  /** The records, one line each, with one write: after a crash all of them are there or none. */
  append(records: readonly unknown[]): void {
    if (records.length === 0) return
    this.unsynced = true
    const text = linesOf(records)
    if (this.holdOpen) writeAll((this.fd ??= openSync(this.path, 'a', FILE_MODE)), text)
    else appendFileSync(this.path, text, { mode: FILE_MODE })
    this.lineCount += records.length
  }

  /** Replaces the file with `records` (fsynced, renamed, directory fsynced); appends go on after them. */
  compact(records: readonly unknown[]): void {
    replaceFile(this.path, linesOf(records))
    // A held descriptor points at the file replaced.
    this.closeFd()
    this.lineCount = records.length
    // The new file holds everything appended so far, and was fsynced before the rename.
    this.unsynced = false
  }

  /** Whether appends were made since the last call (or compaction); the caller fsyncs them. */
  takeUnsynced(): boolean {
    const unsynced = this.unsynced
    this.unsynced = false
    return unsynced
  }

  /** fsyncs what was appended. */
  fsync(): void {
    if (this.fd !== undefined) fsyncSync(this.fd)
    else fsyncFile(this.path, { missingOk: true })
  }

  close(): void {
    this.closeFd()
  }

  private closeFd(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }

  /**
   * Replays the file into `onRecord` (which may refuse a record by returning false); a missing file
   * is an empty journal. A torn last record is cut off (said, not kept aside); a damaged file
   * (journal-scan.ts) is kept aside and rewritten with the records it still holds (corrupt-state.ts).
   */
  replay(onRecord: (record: unknown) => unknown): void {
    const scan = scanJournal(this.path, onRecord)
    if (scan === undefined) return
    this.lineCount = scan.lines
    if (damaged(scan)) this.recover(scan)
    else if (scan.end === 'torn') {
      // Cut off, so what is appended next starts a line of its own and no later replay meets it.
      truncateSync(this.path, scan.endOffset)
      const kept = scan.kept.length
      const problem = 'its last record was cut short (a stop mid-write); dropped'
      reportCorruptState({ file: this.path, name: this.name, problem, keptAs: undefined, kept, dropped: 1 })
    } else if (scan.end === 'unended-record') {
      appendFileSync(this.path, '\n')
      this.lineCount++
    }
  }

  /** Keeps the damaged file aside, then replaces it with the records it still holds. */
  private recover(scan: JournalScan): void {
    const keptAs = keepAside(this.path)
    replaceFile(this.path, scan.kept.map((text) => `${text}\n`).join(''))
    this.lineCount = scan.kept.length
    const problems = [
      scan.bad > 0 ? `${scan.bad} unreadable line${scan.bad === 1 ? '' : 's'}, the first at line ${scan.firstBad}` : '',
      scan.zeros ? 'zero-filled bytes' : '',
      scan.end === 'torn' ? 'a last record cut short' : '',
    ]
    const problem = problems.filter((p) => p !== '').join(', ')
    const dropped = scan.bad + (scan.end === 'torn' ? 1 : 0)
    reportCorruptState({ file: this.path, name: this.name, problem, keptAs, kept: scan.kept.length, dropped })
  }
}

/** Opens the journal at `path` and replays it: `onRecord` gets each record read, in order. */
export function openJournal(
  path: string,
  onRecord: (record: unknown) => unknown,
  options: JournalOptions = {},
): Journal {
  const journal = new Journal(path, options.holdOpen === true, options.name)
  journal.replay(onRecord)
  return journal
}
