// A state file kept as an append-only journal: one JSON line per record, appended with one write per
// call (O(1) in the size of the state), replayed at open line by line (never read into memory whole),
// and compacted by replacing the whole file, durably (replace-file.ts), with the records that still
// describe the state. Replay hands over every whole line that parses; a line cut by a kill
// mid-append is skipped, and ended with a newline at open so that what is appended next starts a
// line of its own.
//
// Appends are not fsynced one by one (a disk flush per step would cap throughput): they survive a
// crash of the process. fsync() makes them survive a crash of the machine; compaction always does.
import { appendFileSync, closeSync, fsyncSync, openSync } from 'node:fs'
import { fsyncFile } from './fsync'
import { openLineReader, type LineReader } from './line-reader'
import { replaceFile } from './replace-file'
import { writeAll } from './write-all'

export interface JournalOptions {
  /**
   * Keep one descriptor open for appends (a journal appended to on every step: the outbox's), closed
   * by close(). Without it each append opens and closes the file, and the journal needs no close().
   */
  holdOpen?: boolean
}

const linesOf = (records: readonly unknown[]): string => {
  let text = ''
  for (const record of records) text += `${JSON.stringify(record)}\n`
  return text
}

/** Appends records to a JSON-lines file that is never replayed (dead letters), with one write. */
export function appendRecords(path: string, records: readonly unknown[]): void {
  appendFileSync(path, linesOf(records))
}

export class Journal {
  private fd: number | undefined
  private lineCount = 0
  private unsynced = false

  constructor(
    readonly path: string,
    private readonly holdOpen: boolean,
  ) {}

  /** Lines in the file since it was opened or compacted, unreadable ones included. */
  get lines(): number {
    return this.lineCount
  }

  /** The records, one line each, with one write: after a crash all of them are there or none. */
  append(records: readonly unknown[]): void {
    if (records.length === 0) return
    this.unsynced = true
    const text = linesOf(records)
    if (this.holdOpen) writeAll((this.fd ??= openSync(this.path, 'a')), text)
    else appendFileSync(this.path, text)
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

  /** Replays the file into `onRecord`; a missing file is an empty journal. */
  replay(onRecord: (record: unknown) => void): void {
    let reader: LineReader
    try {
      reader = openLineReader(this.path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    try {
      for (let next = reader.next(); next !== undefined; next = reader.next()) this.replayLine(next.line, onRecord)
    } finally {
      reader.close()
    }
    // A cut last line stays a line of its own (skipped), not the start of the next one appended.
    if (reader.tail > 0) {
      appendFileSync(this.path, '\n')
      this.lineCount++
    }
  }

  private replayLine(line: string, onRecord: (record: unknown) => void): void {
    if (line === '') return
    this.lineCount++
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      return
    }
    onRecord(record)
  }
}

/** Opens the journal at `path` and replays it: `onRecord` gets each record read, in order. */
export function openJournal(path: string, onRecord: (record: unknown) => void, options: JournalOptions = {}): Journal {
  const journal = new Journal(path, options.holdOpen === true)
  journal.replay(onRecord)
  return journal
}
