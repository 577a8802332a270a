// The kinds kept in `<state_dir>/kinds.jsonl`, so a restart (or a SIGKILL) finds the kinds it knew:
// their ids (the miner is seeded with their templates), first and last seen, last resolve, hourly
// counts for 7 days, hosts, sample and incident. A journal of storage's (agent/storage/journal.ts),
// records in kind-records.ts:
// - a new kind is appended at once, with one write, by `added()`, before the caller lets its page
//   reach the outbox: after a kill the kind is on disk whenever its page is, so a restart reading
//   the same lines again does not find it new a second time;
// - counts are batched: `flush()` (every few seconds and at stop) appends what moved since the last
//   flush (kind-changes.ts), or compacts the file to the kinds the table holds (incidents/compaction.ts's
//   rules: within a few times the state).
// A damaged file is kept aside and said by storage (corrupt-state.ts); what it still held whole is
// used, and `damaged` tells the caller to learn again (kinds.learn) rather than page as new every
// kind the damage lost. Without a file (no state_dir) nothing is kept and nothing is read.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { KindEntry } from '../../alerts/kinds/types'
import { compactAtOpen, writeMode } from '../incidents/compaction'
import { takeRecordsLost } from '../storage/corrupt-state'
import { openJournal, type Journal } from '../storage/journal'
import { KindStoreError, KindStoreErrorCodes } from './errors'
import { changeOf, markOf, type WrittenMark } from './kind-changes'
import { applyRecord, KINDS_FILE_VERSION, recordOf, type KindRecord, type KindsRead } from './kind-records'
import type { KindStore, KindStoreOptions, KindStoreStats } from './types'

function failure(file: string, what: string, err: unknown): KindStoreError {
  return new KindStoreError(KindStoreErrorCodes.STATE, `cannot ${what} ${file}: ${(err as Error).message}`, {
    cause: err,
  })
}

function readKinds(file: string): { journal: Journal; read: KindsRead; damaged: boolean } {
  const read: KindsRead = { kinds: new Map(), startedAt: undefined, version: undefined }
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    const journal = openJournal(
      file,
      (value) => {
        const record = recordOf(value)
        return record !== undefined && applyRecord(read, record)
      },
      { name: 'kinds', holdOpen: true },
    )
    return { journal, read, damaged: takeRecordsLost(file) }
  } catch (err) {
    throw failure(file, 'read', err)
  }
}

class FileKindStore implements KindStore {
  private readonly marks = new Map<string, WrittenMark>()
  private kinds: Map<string, KindEntry> | undefined
  readonly learningSince: number
  readonly firstStart: boolean
  readonly damaged: boolean
  private writes = { appended: 0, compactions: 0 }
  private cursor: { value: string | undefined; written: boolean }

  constructor(
    private readonly file: string,
    private readonly journal: Journal,
    read: KindsRead,
    damaged: boolean,
    now: number,
  ) {
    this.kinds = read.kinds
    this.cursor = { value: read.cursor, written: true }
    this.damaged = damaged
    this.firstStart = read.startedAt === undefined && read.kinds.size === 0 && !damaged
    // A damaged file lost kinds it cannot name: learning starts over, from now.
    this.learningSince = damaged || read.startedAt === undefined ? now : read.startedAt
    for (const entry of read.kinds.values()) this.marks.set(entry.id, markOf(entry))
    const version = this.head()
    if (read.startedAt !== this.learningSince || compactAtOpen(journal.lines, read.kinds.size)) {
      this.write(() => journal.compact([...version, ...[...read.kinds.values()].map((e) => ['k', e] as const)]))
      this.writes.compactions++
    }
  }

  /** What a compacted file starts with: its version and first start, and the fleet's cursor. */
  private head(): KindRecord[] {
    const version: KindRecord = ['v', KINDS_FILE_VERSION, this.learningSince]
    return this.cursor.value === undefined ? [version] : [version, ['f', this.cursor.value]]
  }

  get fleetCursor(): string | undefined {
    return this.cursor.value
  }

  setFleetCursor(cursor: string): void {
    if (cursor !== this.cursor.value) this.cursor = { value: cursor, written: false }
  }

  restored(): KindEntry[] {
    const kinds = this.kinds === undefined ? [] : [...this.kinds.values()]
    // Read once: the table holds them from here on.
    this.kinds = undefined
    return kinds
  }

  added(entries: readonly KindEntry[]): void {
    if (entries.length === 0) return
    this.write(() => this.journal.append(entries.map((entry) => ['k', entry] as const)))
    this.writes.appended += entries.length
    for (const entry of entries) this.marks.set(entry.id, markOf(entry))
  }

  waiting(id: string, rule: string, times: readonly number[]): void {
    this.write(() => this.journal.append([['w', id, rule, [...times]]]))
    this.writes.appended++
  }

  paged(id: string): void {
    this.write(() => this.journal.append([['p', id]]))
    this.writes.appended++
    const mark = this.marks.get(id)
    if (mark !== undefined) mark.paged = true
  }

  flush(entries: Iterable<KindEntry>): void {
    const records: KindRecord[] = []
    const all: KindEntry[] = []
    const present = new Set<string>()
    for (const entry of entries) {
      all.push(entry)
      present.add(entry.id)
      const change = changeOf(entry, this.marks.get(entry.id))
      if (change.write === 'nothing') continue
      if (change.write === 'whole') records.push(['k', entry])
      else records.push(['n', entry.id, entry.lastSeen, entry.count, change.tail])
      this.marks.set(entry.id, markOf(entry))
    }
    // An evicted kind is left out of the next compaction; its mark goes now.
    if (present.size !== this.marks.size)
      for (const id of this.marks.keys()) if (!present.has(id)) this.marks.delete(id)
    // The cursor after the counts it covers: a kill between them merges nothing twice.
    if (!this.cursor.written && this.cursor.value !== undefined) records.push(['f', this.cursor.value])
    this.cursor.written = true
    if (records.length === 0) return
    if (writeMode(this.journal.lines, records.length, all.length) === 'compact') {
      this.write(() => this.journal.compact([...this.head(), ...all.map((entry) => ['k', entry] as const)]))
      this.writes.compactions++
    } else {
      this.write(() => this.journal.append(records))
      this.writes.appended += records.length
    }
  }

  fsync(): void {
    if (this.journal.takeUnsynced()) this.write(() => this.journal.fsync())
  }

  close(): void {
    this.journal.close()
  }

  stats(): KindStoreStats {
    return { lines: this.journal.lines, kinds: this.marks.size, ...this.writes }
  }

  private write(act: () => void): void {
    try {
      act()
    } catch (err) {
      throw failure(this.file, 'write', err)
    }
  }
}

/** Kinds kept nowhere (no state_dir): every start is a first start. */
function memoryKindStore(now: number): KindStore {
  return {
    learningSince: now,
    firstStart: true,
    fleetCursor: undefined,
    setFleetCursor: () => {},
    damaged: false,
    restored: () => [],
    added: () => {},
    waiting: () => {},
    paged: () => {},
    flush: () => {},
    fsync: () => {},
    close: () => {},
    stats: () => ({ lines: 0, kinds: 0, appended: 0, compactions: 0 }),
  }
}

/** Opens (or creates) the kinds file and reads it; `file` undefined keeps nothing. */
export function openKindStore(options: KindStoreOptions): KindStore {
  if (options.file === undefined) return memoryKindStore(options.now)
  const { journal, read, damaged } = readKinds(options.file)
  return new FileKindStore(options.file, journal, read, damaged, options.now)
}
