// The records in memory: per kind, oldest first, capped by the retention; and every kind's slots in
// arrival (= seq) order, so the inbox feed and searches walk it backwards instead of merging and
// sorting all kinds on every request. Each slot keeps the record's JSON text, because a poller
// (agentbench, every 10 ms) lists records on the event loop of the agent that embeds the sandbox; the
// text is made when the record is kept, since its length counts against the store's byte cap.
import {
  evictable,
  FIRST_LEAD_ID,
  leadCounterAfter,
  overByteCap,
  pagePositions,
  recordBytes,
  retentionExcess,
  shouldSweep,
} from './store-rules'
import { STORED_KINDS, type StoredKind } from './stored-kinds'
import type { SearchQuery, StoredEntry } from './types'

/** A stored entry with the text the listings keep of it. */
export interface Slot {
  entry: StoredEntry
  /** The record's JSON text, made when it is kept. */
  json: string
  /** Its UTF-8 length (store-rules.ts rule 8). */
  bytes: number
  /** `json` lower-cased, made on its first text search. */
  lower: string | undefined
  /** False once retention or a reset dropped it; `arrival` sheds dead slots in batches. */
  live: boolean
}

export interface Bucket {
  /** Oldest first; what `all()` returns. */
  entries: StoredEntry[]
  /** Parallel to `entries`. */
  slots: Slot[]
  version: number
}

// A record is never changed once stored (no route updates one), so its text is made once and kept.
export const jsonOf = (slot: Slot): string => slot.json
const lowerOf = (slot: Slot): string => (slot.lower ??= jsonOf(slot).toLowerCase())

export class RecordIndex {
  private readonly byKind = new Map<StoredKind, Bucket>(
    STORED_KINDS.map((k) => [k, { entries: [], slots: [], version: 0 }]),
  )
  private arrival: Slot[] = []
  private dead = 0
  private changes = 0
  /** Where the oldest slot that may still be live is in `arrival` (the eviction walk starts there). */
  private oldest = 0
  /** Bytes of the live records' JSON text. */
  bytes = 0
  /** Records the byte cap dropped since start. */
  evicted = 0
  /** The highest seq kept or replayed. */
  seq = 0
  leadCounter = FIRST_LEAD_ID - 1

  constructor(
    private readonly retention: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  bucket(kind: StoredKind): Bucket {
    return this.byKind.get(kind) as Bucket
  }

  remember(entry: StoredEntry): void {
    const b = this.bucket(entry.kind)
    const json = JSON.stringify(entry.record)
    const slot: Slot = { entry, json, bytes: recordBytes(json), lower: undefined, live: true }
    b.entries.push(entry)
    b.slots.push(slot)
    this.arrival.push(slot)
    this.bytes += slot.bytes
    const excess = retentionExcess(b.entries.length, this.retention)
    if (excess > 0) {
      b.entries.splice(0, excess)
      for (const gone of b.slots.splice(0, excess)) this.bury(gone)
    }
    while (overByteCap(this.bytes, this.maxBytes) && this.evictOldest()) this.evicted++
    this.sweep()
    b.version = ++this.changes
    this.seq = Math.max(this.seq, entry.seq)
    this.leadCounter = leadCounterAfter(this.leadCounter, entry.kind, entry.record)
  }

  private bury(slot: Slot): void {
    slot.live = false
    this.bytes -= slot.bytes
    this.dead++
  }

  private sweep(): void {
    if (!shouldSweep(this.dead, this.arrival.length)) return
    this.arrival = this.arrival.filter((s) => s.live)
    this.dead = 0
    this.oldest = 0
  }

  /** Drops the oldest record the byte cap may drop (store-rules.ts rule 7); false when none is left. */
  private evictOldest(): boolean {
    while (this.arrival[this.oldest]?.live === false) this.oldest++
    for (let i = this.oldest; i < this.arrival.length; i++) {
      const slot = this.arrival[i]
      if (slot === undefined || !slot.live || !evictable(slot.entry.kind)) continue
      // Oldest overall is oldest of its kind: a bucket is in arrival order too.
      const b = this.bucket(slot.entry.kind)
      b.entries.shift()
      b.slots.shift()
      b.version = ++this.changes
      this.bury(slot)
      return true
    }
    return false
  }

  /** Newest first, without a copy or a sort (store-rules.ts rule 1). */
  pageSlots(kind: StoredKind, page: number, perPage: number, limit: number | undefined) {
    const list = this.bucket(kind).slots
    const { positions, total } = pagePositions(list.length, page, perPage, limit)
    const slots: Slot[] = []
    for (const position of positions) {
      const slot = list[position]
      if (slot !== undefined) slots.push(slot)
    }
    return { slots, total }
  }

  search(query: SearchQuery): StoredEntry[] {
    const kinds = new Set<StoredKind>(query.kinds ?? STORED_KINDS)
    const needle = query.text?.trim().toLowerCase() ?? ''
    const limit = query.limit ?? 500
    const out: StoredEntry[] = []
    for (let i = this.arrival.length - 1; i >= 0; i--) {
      const slot = this.arrival[i]
      if (slot === undefined || !slot.live || !kinds.has(slot.entry.kind)) continue
      if (needle !== '' && !lowerOf(slot).includes(needle)) continue
      out.push(slot.entry)
      if (out.length >= limit) break
    }
    return out
  }

  count(kind?: StoredKind): number {
    if (kind !== undefined) return this.bucket(kind).entries.length
    return STORED_KINDS.reduce((n, k) => n + this.bucket(k).entries.length, 0)
  }

  /** Every live entry in arrival order (what a journal rewrite keeps). */
  everything(): StoredEntry[] {
    return this.arrival.filter((s) => s.live).map((s) => s.entry)
  }

  clear(): void {
    for (const k of STORED_KINDS) {
      const b = this.bucket(k)
      // Emptied in place: callers holding `all(kind)` see the reset, as before.
      b.entries.length = 0
      b.slots.length = 0
      b.version = ++this.changes
    }
    this.arrival = []
    this.dead = 0
    this.oldest = 0
    this.bytes = 0
  }
}
