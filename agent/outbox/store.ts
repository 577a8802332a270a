// Where the queue lives. In memory by default; with a path, an append-only journal (one JSON record
// per line, written through one open fd) replayed at start and rewritten through a temp file and
// rename when it has grown well past what is still pending, plus the spill (spill.ts) for what does
// not fit in memory. Dead letters go to `<path>.dead`, one JSON object per line.
//
// Appends are not fsynced one by one (a disk flush per alert would cap throughput): they survive a
// crash of the process, which is the common case. sync() makes everything written so far survive a
// crash of the machine; the agent calls it before it commits file offsets past those lines.
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { claimJournal } from './journal-claims'
import { OutboxError, OutboxErrorCodes } from './errors'
import type { DeadLetter, JournalRecord, OutboxItem, SpillCursor } from './item'
import { forEachLine } from './line-reader'
import { writeAll } from './write-all'
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
  /** fsyncs what was written since the last sync: the journal, spill segments, and their directory when files came or went. */
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

/** Applies journal records one at a time; what is left pending, and the spill cursor, at any point. */
function createReplay(): { apply(line: string): void; items: Map<string, OutboxItem>; cursor: SpillCursor } {
  const items = new Map<string, OutboxItem>()
  const state = { items, cursor: { seg: 0, offset: 0 } as SpillCursor, apply }
  function moveTo(cursor: SpillCursor | undefined): void {
    // Cursors only move forward; the newest wins whatever order the records came in.
    if (
      cursor !== undefined &&
      typeof cursor.seg === 'number' &&
      typeof cursor.offset === 'number' &&
      later(cursor, state.cursor)
    )
      state.cursor = cursor
  }
  function apply(line: string): void {
    if (line === '') return
    let record: JournalRecord
    try {
      record = JSON.parse(line) as JournalRecord
    } catch {
      return // torn by a crash
    }
    switch (record.op) {
      case 'add':
        items.set(record.item.id, record.item)
        moveTo(record.spill)
        break
      case 'retry': {
        const item = items.get(record.id)
        if (item)
          Object.assign(item, {
            attempts: record.attempts,
            nextAttemptAt: record.nextAttemptAt,
            lastError: record.lastError,
            notBefore: record.notBefore,
          })
        break
      }
      case 'done':
      case 'dead':
        items.delete(record.id)
        break
      case 'spill':
        moveTo({ seg: record.seg, offset: record.offset })
        break
    }
  }
  return state
}

/** Replays journal text; a torn last line (a crash mid-append) and unknown ops are skipped. */
export function replayJournal(text: string): OutboxItem[] {
  const replay = createReplay()
  for (const line of text.split('\n')) replay.apply(line)
  return [...replay.items.values()]
}

/** fsyncs a file by path (any descriptor of a file flushes it); a file gone meanwhile is skipped when `missingOk`. */
async function fsyncPath(file: string, missingOk: boolean): Promise<void> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (err) {
    if (missingOk && (err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

async function fsyncDirAsync(path: string): Promise<void> {
  try {
    await fsyncPath(dirname(path), false)
  } catch {
    // As fsyncDir: some platforms cannot fsync a directory.
  }
}

/** What a sync has to flush. */
interface Unsynced {
  spillFiles: Set<string>
  journal: boolean
  dir: boolean
}

function fsyncDir(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dirname(path), 'r')
    fsyncSync(fd)
  } catch {
    // Some platforms cannot fsync a directory; the rename is as durable as they allow.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

export interface FileStoreOptions {
  /** A spill segment is closed and a new one started past this size; default 64 MiB. */
  maxSegmentBytes?: number | undefined
  /** An item taken from the spill that could not be journaled is still returned; the failure goes here. */
  onError?: ((err: Error) => void) | undefined
  /** Who uses the journal, named in the error another outbox of this process gets for it. */
  owner?: string | undefined
}

export function createFileStore(path: string, options: FileStoreOptions = {}): OutboxStore {
  const release = claimJournal(path, options.owner ?? 'an outbox')
  let records = 0
  let fd: number | undefined
  let spill: Spill | undefined
  let dirChanged = false
  let journalUnsynced = false
  /** What a failed sync could not flush: the next one tries again. */
  let carried: Unsynced = { spillFiles: new Set(), journal: false, dir: false }
  let syncing: Promise<void> = Promise.resolve()
  try {
    mkdirSync(dirname(path), { recursive: true })
  } catch (err) {
    release()
    throw journalError('cannot create the directory of', path, err)
  }

  function journalFd(): number {
    fd ??= openSync(path, 'a')
    return fd
  }

  function append(...added: JournalRecord[]): void {
    journalUnsynced = true
    try {
      writeAll(journalFd(), added.map((record) => `${JSON.stringify(record)}\n`).join(''))
    } catch (err) {
      throw journalError('cannot append to', path, err)
    }
    records += added.length
  }

  /** Takes what is unsynced (and what a failed sync left); giveBack() returns it after a failure. */
  function takeUnsynced(): Unsynced {
    const fromSpill = spill?.takeUnsynced() ?? { files: [], dirChanged: false }
    const work: Unsynced = {
      spillFiles: new Set([...carried.spillFiles, ...fromSpill.files]),
      journal: carried.journal || journalUnsynced,
      dir: carried.dir || dirChanged || fromSpill.dirChanged,
    }
    carried = { spillFiles: new Set(), journal: false, dir: false }
    journalUnsynced = false
    dirChanged = false
    return work
  }

  function giveBack(work: Unsynced): void {
    carried = {
      spillFiles: new Set([...carried.spillFiles, ...work.spillFiles]),
      journal: carried.journal || work.journal,
      dir: carried.dir || work.dir,
    }
  }

  function openedSpill(): Spill {
    if (spill === undefined) throw new Error('outbox store used before load()')
    return spill
  }

  const store: OutboxStore = {
    get records() {
      return records
    },
    canSpill: true,
    get spilled() {
      return spill?.count ?? 0
    },
    load() {
      const replay = createReplay()
      try {
        // Line by line: a long journal is never read into memory whole.
        if (existsSync(path)) forEachLine(path, replay.apply)
      } catch (err) {
        throw journalError('cannot read', path, err)
      }
      const items = [...replay.items.values()]
      try {
        spill = openSpill({
          path,
          cursor: replay.cursor,
          skip: new Set(replay.items.keys()),
          maxSegmentBytes: options.maxSegmentBytes,
          onCursor: (cursor) => append({ op: 'spill', seg: cursor.seg, offset: cursor.offset }),
        })
      } catch (err) {
        throw journalError('cannot open the spill of', path, err)
      }
      // Start from a clean journal so the torn tail of a crash is never appended to.
      store.compact(items)
      return items
    },
    append,
    dead(letter) {
      try {
        appendFileSync(`${path}.dead`, `${JSON.stringify(letter)}\n`)
      } catch (err) {
        throw journalError('cannot append to', `${path}.dead`, err)
      }
    },
    compact(pending) {
      const tmp = `${path}.tmp`
      try {
        const out = openSync(tmp, 'w')
        try {
          const cursor = spill?.cursor
          let text =
            cursor === undefined
              ? ''
              : `${JSON.stringify({ op: 'spill', seg: cursor.seg, offset: cursor.offset } satisfies JournalRecord)}\n`
          for (const item of pending) text += `${JSON.stringify({ op: 'add', item } satisfies JournalRecord)}\n`
          writeAll(out, text)
          fsyncSync(out)
        } finally {
          closeSync(out)
        }
        renameSync(tmp, path)
        // The old fd points at the replaced file.
        if (fd !== undefined) closeSync(fd)
        fd = undefined
        fsyncDir(path)
      } catch (err) {
        throw journalError('cannot compact', path, err)
      }
      records = pending.length
      // The new file holds everything appended so far, and was fsynced before the rename.
      journalUnsynced = false
      carried.journal = false
    },
    spill(...items) {
      try {
        openedSpill().append(...items)
      } catch (err) {
        throw journalError('cannot spill to the disk next to', path, err)
      }
    },
    unspill() {
      const s = openedSpill()
      if (s.count === 0) return undefined
      let taken: ReturnType<Spill['take']>
      try {
        taken = s.take()
      } catch (err) {
        throw journalError('cannot read the spill of', path, err)
      }
      if (taken === undefined) return undefined
      try {
        append({ op: 'add', item: taken.item, spill: taken.cursor })
        // Only once the item is journaled may the consumed segments go.
        s.tidy()
      } catch (err) {
        // Still in the spill on disk for the next start, and in memory now: not lost either way.
        options.onError?.(err instanceof OutboxError ? err : journalError('cannot tidy the spill of', path, err))
      }
      return taken.item
    },
    sync() {
      const work = takeUnsynced()
      try {
        for (const file of work.spillFiles) {
          try {
            const spillFd = openSync(file, 'r')
            try {
              fsyncSync(spillFd)
            } finally {
              closeSync(spillFd)
            }
          } catch (err) {
            // A segment read to its end and deleted: its items were journaled first.
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
          }
        }
        if (work.journal && fd !== undefined) fsyncSync(fd)
        if (work.dir) fsyncDir(path)
      } catch (err) {
        giveBack(work)
        throw journalError('cannot sync', path, err)
      }
    },
    syncAsync() {
      const run = syncing.then(async () => {
        const work = takeUnsynced()
        try {
          // Spill segments before the journal: an item moved out of a segment deleted meanwhile
          // was appended to the journal before the deletion, so before the journal's fsync.
          for (const file of work.spillFiles) await fsyncPath(file, true)
          // By path, not by `fd`: a compaction may replace the file (and close the fd) meanwhile,
          // after fsyncing the new one.
          if (work.journal) await fsyncPath(path, false)
          if (work.dir) await fsyncDirAsync(path)
        } catch (err) {
          giveBack(work)
          throw journalError('cannot sync', path, err)
        }
      })
      syncing = run.catch(() => undefined)
      return run
    },
    close() {
      spill?.close()
      if (fd !== undefined) closeSync(fd)
      fd = undefined
      release()
    },
  }
  return store
}
