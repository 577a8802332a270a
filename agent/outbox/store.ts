// Where the queue lives. In memory by default; with a path, an append-only journal (storage's
// journal.ts: one JSON record per line, written through one open fd) replayed at start and compacted
// (atomic replace: temp file, fsync, rename, directory fsync) when it has grown well past what is
// still pending, plus the spill (spill.ts) for what does not fit in memory. Dead letters go to
// `<path>.dead`, one JSON object per line.
//
// Appends are not fsynced one by one (a disk flush per alert would cap throughput): they survive a
// crash of the process, which is the common case. sync() makes everything written so far survive a
// crash of the machine; the agent calls it before it commits file offsets past those lines.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fsyncDirOf, fsyncDirOfAsync, fsyncFile, fsyncFileAsync } from '../storage/fsync'
import { appendRecords, Journal } from '../storage/journal'
import { claimJournal } from './journal-claims'
import { OutboxError, OutboxErrorCodes } from './errors'
import type { DeadLetter, JournalRecord, OutboxItem, SpillCursor } from './item'
import { openSpill, type Spill } from './spill'

export interface OutboxStore {
  /** Items still pending from a previous run that belong in memory, in enqueue order. */
  load(): OutboxItem[]
  /** Journals the records with one write: after a crash, all of them are there or none. */
  append(...records: JournalRecord[]): void
  dead(letter: DeadLetter): void
  /** Rewrites the journal to hold just `pending` (and where the spill's reading has got to). */
  compact(pending: readonly OutboxItem[]): void
  /** Journal records written since the last compaction. */
  readonly records: number
  /** Whether items can go to disk only; the memory store cannot. */
  readonly canSpill: boolean
  /** Items on disk only (in the spill). */
  readonly spilled: number
  /** Puts the items in the spill (after every item already there), with one write. */
  spill(...items: OutboxItem[]): void
  /** Moves the oldest spilled item into the journal and returns it; undefined when the spill is empty. */
  unspill(): OutboxItem | undefined
  /**
   * fsyncs what was written since the last sync: the journal, spill segments, and their directory
   * when files came or went.
   */
  sync(): void
  /**
   * sync() on libuv's threads, so the event loop goes on meanwhile (an fsync takes milliseconds):
   * resolves once everything written before the call is on disk. Calls run one after another.
   */
  syncAsync(): Promise<void>
  close(): void
}

export function createMemoryStore(): OutboxStore {
  return {
    load: () => [],
    append: () => {},
    dead: () => {},
    compact: () => {},
    records: 0,
    canSpill: false,
    spilled: 0,
    spill: () => {
      throw new Error('the memory store has no spill')
    },
    unspill: () => undefined,
    sync: () => {},
    syncAsync: () => Promise.resolve(),
    close: () => {},
  }
}

function journalError(message: string, path: string, cause: unknown): OutboxError {
  return new OutboxError(OutboxErrorCodes.JOURNAL, `${message} ${path}: ${(cause as Error).message}`, { path, cause })
}

const later = (a: SpillCursor, b: SpillCursor): boolean => a.seg > b.seg || (a.seg === b.seg && a.offset > b.offset)

const isCursor = (cursor: SpillCursor | undefined): cursor is SpillCursor =>
  cursor !== undefined && typeof cursor.seg === 'number' && typeof cursor.offset === 'number'

/** Journal records applied one at a time: what is left pending, and the spill cursor, at any point. */
class Replay {
  readonly items = new Map<string, OutboxItem>()
  cursor: SpillCursor = { seg: 0, offset: 0 }

  /** Applies a record read back; false for what is no record (damage), true for an unknown op (a later version's). */
  apply(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const record = value as JournalRecord
    switch (record.op) {
      case 'add':
        if (typeof record.item !== 'object' || record.item === null || typeof record.item.id !== 'string') return false
        this.items.set(record.item.id, record.item)
        this.moveTo(record.spill)
        break
      case 'retry': {
        const { attempts, nextAttemptAt, lastError, notBefore } = record
        const item = this.items.get(record.id)
        if (item) Object.assign(item, { attempts, nextAttemptAt, lastError, notBefore })
        break
      }
      case 'done':
      case 'dead':
        this.items.delete(record.id)
        break
      case 'spill':
        this.moveTo({ seg: record.seg, offset: record.offset })
        break
    }
    return true
  }

  /** Cursors only move forward; the newest wins whatever order the records came in. */
  private moveTo(cursor: SpillCursor | undefined): void {
    if (isCursor(cursor) && later(cursor, this.cursor)) this.cursor = cursor
  }
}

/** Replays journal text; a torn last line (a crash mid-append) and unknown ops are skipped. */
export function replayJournal(text: string): OutboxItem[] {
  const replay = new Replay()
  for (const line of text.split('\n')) {
    try {
      replay.apply(JSON.parse(line))
    } catch {
      // torn by a crash
    }
  }
  return [...replay.items.values()]
}

/** What a sync has to flush. */
interface Unsynced {
  spillFiles: Set<string>
  journal: boolean
  dir: boolean
}

const nothingUnsynced = (): Unsynced => ({ spillFiles: new Set(), journal: false, dir: false })

const merged = (a: Unsynced, b: Unsynced): Unsynced => ({
  spillFiles: new Set([...a.spillFiles, ...b.spillFiles]),
  journal: a.journal || b.journal,
  dir: a.dir || b.dir,
})

export interface FileStoreOptions {
  /** A spill segment is closed and a new one started past this size; default 64 MiB. */
  maxSegmentBytes?: number | undefined
  /** An item taken from the spill that could not be journaled is still returned; the failure goes here. */
  onError?: ((err: Error) => void) | undefined
  /** Who uses the journal, named in the error another outbox of this process gets for it. */
  owner?: string | undefined
}

class FileStore implements OutboxStore {
  readonly canSpill = true
  private readonly journal: Journal
  private recordCount = 0
  private openedSpill: Spill | undefined
  /** What a failed sync could not flush: the next one tries again. */
  private carried = nothingUnsynced()
  private syncing: Promise<void> = Promise.resolve()

  constructor(
    private readonly path: string,
    private readonly options: FileStoreOptions,
    private readonly release: () => void,
  ) {
    this.journal = new Journal(path, true, 'outbox')
  }

  get records(): number {
    return this.recordCount
  }

  get spilled(): number {
    return this.openedSpill?.count ?? 0
  }

  load(): OutboxItem[] {
    const replay = new Replay()
    try {
      this.journal.replay((record) => replay.apply(record))
    } catch (err) {
      throw journalError('cannot read', this.path, err)
    }
    const items = [...replay.items.values()]
    try {
      this.openedSpill = openSpill({
        path: this.path,
        cursor: replay.cursor,
        skip: new Set(replay.items.keys()),
        maxSegmentBytes: this.options.maxSegmentBytes,
        onCursor: (cursor) => this.append({ op: 'spill', seg: cursor.seg, offset: cursor.offset }),
      })
    } catch (err) {
      throw journalError('cannot open the spill of', this.path, err)
    }
    // Start from a clean journal so the torn tail of a crash is never appended to.
    this.compact(items)
    return items
  }

  append(...records: JournalRecord[]): void {
    try {
      this.journal.append(records)
    } catch (err) {
      throw journalError('cannot append to', this.path, err)
    }
    this.recordCount += records.length
  }

  dead(letter: DeadLetter): void {
    try {
      appendRecords(`${this.path}.dead`, [letter])
    } catch (err) {
      throw journalError('cannot append to', `${this.path}.dead`, err)
    }
  }

  compact(pending: readonly OutboxItem[]): void {
    const cursor = this.openedSpill?.cursor
    const records: JournalRecord[] =
      cursor === undefined ? [] : [{ op: 'spill', seg: cursor.seg, offset: cursor.offset }]
    for (const item of pending) records.push({ op: 'add', item })
    try {
      this.journal.compact(records)
    } catch (err) {
      throw journalError('cannot compact', this.path, err)
    }
    this.recordCount = pending.length
    // The new file holds everything appended so far, and was fsynced before the rename.
    this.carried.journal = false
  }

  spill(...items: OutboxItem[]): void {
    try {
      this.spillOrThrow().append(...items)
    } catch (err) {
      throw journalError('cannot spill to the disk next to', this.path, err)
    }
  }

  unspill(): OutboxItem | undefined {
    const spill = this.spillOrThrow()
    if (spill.count === 0) return undefined
    let taken: ReturnType<Spill['take']>
    try {
      taken = spill.take()
    } catch (err) {
      throw journalError('cannot read the spill of', this.path, err)
    }
    if (taken === undefined) return undefined
    try {
      this.append({ op: 'add', item: taken.item, spill: taken.cursor })
      // Only once the item is journaled may the consumed segments go.
      spill.tidy()
    } catch (err) {
      // Still in the spill on disk for the next start, and in memory now: not lost either way.
      const failure = err instanceof OutboxError ? err : journalError('cannot tidy the spill of', this.path, err)
      this.options.onError?.(failure)
    }
    return taken.item
  }

  sync(): void {
    const work = this.takeUnsynced()
    try {
      // A segment read to its end and deleted: its items were journaled first.
      for (const file of work.spillFiles) fsyncFile(file, { missingOk: true })
      if (work.journal) this.journal.fsync()
      if (work.dir) fsyncDirOf(this.path)
    } catch (err) {
      this.carried = merged(this.carried, work)
      throw journalError('cannot sync', this.path, err)
    }
  }

  syncAsync(): Promise<void> {
    const run = this.syncing.then(() => this.flushAsync(this.takeUnsynced()))
    this.syncing = run.catch(() => undefined)
    return run
  }

  close(): void {
    this.openedSpill?.close()
    this.journal.close()
    this.release()
  }

  private async flushAsync(work: Unsynced): Promise<void> {
    try {
      // Spill segments before the journal: an item moved out of a segment deleted meanwhile
      // was appended to the journal before the deletion, so before the journal's fsync.
      for (const file of work.spillFiles) await fsyncFileAsync(file, { missingOk: true })
      // By path, not by descriptor: a compaction may replace the file (and close the descriptor)
      // meanwhile, after fsyncing the new one.
      if (work.journal) await fsyncFileAsync(this.path)
      if (work.dir) await fsyncDirOfAsync(this.path)
    } catch (err) {
      this.carried = merged(this.carried, work)
      throw journalError('cannot sync', this.path, err)
    }
  }

  /** Takes what is unsynced, and what a failed sync left. */
  private takeUnsynced(): Unsynced {
    const fromSpill = this.openedSpill?.takeUnsynced() ?? { files: [], dirChanged: false }
    const now: Unsynced = {
      spillFiles: new Set(fromSpill.files),
      journal: this.journal.takeUnsynced(),
      dir: fromSpill.dirChanged,
    }
    const work = merged(this.carried, now)
    this.carried = nothingUnsynced()
    return work
  }

  private spillOrThrow(): Spill {
    if (this.openedSpill === undefined) throw new Error('outbox store used before load()')
    return this.openedSpill
  }
}

export function createFileStore(path: string, options: FileStoreOptions = {}): OutboxStore {
  const release = claimJournal(path, options.owner ?? 'an outbox')
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  } catch (err) {
    release()
    throw journalError('cannot create the directory of', path, err)
  }
  return new FileStore(path, options, release)
}
