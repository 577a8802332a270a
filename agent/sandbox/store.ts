// What the sandbox has received and what it serves back, newest first, with a per-kind retention
// cap. Memory is the source of truth; a data directory (data-dir.ts) only journals it. Records are
// kept in arrival order and listed by walking backwards, each with its JSON text made once, because
// a poller (agentbench, every 10 ms) lists them on the event loop of the agent that embeds the sandbox.

export const INBOX_KINDS = ['sms', 'mail', 'chat', 'voice', 'lead', 'activity'] as const
export type InboxKind = (typeof INBOX_KINDS)[number]

/** Inbox kinds are what clients send; lookup kinds are what the service holds for them to read. */
export const LOOKUP_KINDS = ['social', 'missed', 'instance', 'chat_group'] as const
export type LookupKind = (typeof LOOKUP_KINDS)[number]

export type StoredKind = InboxKind | LookupKind
export const STORED_KINDS: readonly StoredKind[] = [...INBOX_KINDS, ...LOOKUP_KINDS]

export function isStoredKind(value: string): value is StoredKind {
  return (STORED_KINDS as readonly string[]).includes(value)
}

export interface StoredEntry {
  /** Global arrival order; survives restarts with a data directory. */
  seq: number
  kind: StoredKind
  /** The record exactly as the listing operations return it. */
  record: Record<string, unknown>
}

export type StoreEvent = { type: 'added'; entry: StoredEntry } | { type: 'reset' }

export interface StoreJournal {
  append(entry: StoredEntry): void
  /** Replaces the journal with exactly these entries (reset, compaction). */
  rewrite(entries: readonly StoredEntry[]): void
}

export interface SearchQuery {
  kinds?: readonly StoredKind[]
  /** Case-insensitive substring over the record's JSON text. */
  text?: string
  limit?: number
}

export interface Store {
  /** `make` builds the record from the id and timestamp the store assigns. */
  add(
    kind: StoredKind,
    make: (ids: { seq: number; id: string; createdAt: string }) => Record<string, unknown>,
  ): StoredEntry
  /** Newest first. `limit` caps how many of the newest records the listing holds at all. */
  page(
    kind: StoredKind,
    page: number,
    perPage: number,
    limit: number | undefined,
  ): { records: Record<string, unknown>[]; total: number }
  /** The same page as `page`, each record as its JSON text (made once per record, then kept). */
  pageJson(
    kind: StoredKind,
    page: number,
    perPage: number,
    limit: number | undefined,
  ): { records: string[]; total: number }
  /** Changes whenever the records of `kind` do (add, retention drop, reset): a listing cache's key. */
  version(kind: StoredKind): number
  all(kind: StoredKind): readonly StoredEntry[]
  search(query: SearchQuery): StoredEntry[]
  count(kind?: StoredKind): number
  findLead(leadId: string): StoredEntry | undefined
  nextLeadId(): string
  reset(): void
  subscribe(listener: (event: StoreEvent) => void): () => void
}

export interface StoreOptions {
  /** Most records kept per kind; the oldest go first. */
  retention: number
  journal?: StoreJournal
  /** Entries recovered from the journal, oldest first. */
  initial?: readonly StoredEntry[]
  now?: () => Date
}

const ID_PREFIX: Record<StoredKind, string> = {
  sms: 'sms',
  mail: 'mail',
  chat: 'chat',
  voice: 'obd',
  lead: 'lead',
  activity: 'act',
  social: 'soc',
  missed: 'mc',
  instance: 'inst',
  chat_group: 'grp',
}

// Lead ids are digit strings because the activity call takes `lead_id` as an int.
const FIRST_LEAD_ID = 1001

/** A stored entry with the text the listings keep of it. */
interface Slot {
  entry: StoredEntry
  /** The record's JSON text, made on its first listing (not at replay, so start-up stays cheap). */
  json: string | undefined
  /** `json` lower-cased, made on its first text search. */
  lower: string | undefined
  /** False once retention or a reset dropped it; `arrival` sheds dead slots in batches. */
  live: boolean
}

interface Bucket {
  /** Oldest first; what `all()` returns. */
  entries: StoredEntry[]
  /** Parallel to `entries`. */
  slots: Slot[]
  version: number
}

// Dead slots are swept from the arrival list once they are this many and at least half of it.
const SWEEP_AT = 1024

export function createStore(options: StoreOptions): Store {
  const now = options.now ?? (() => new Date())
  const byKind = new Map<StoredKind, Bucket>(STORED_KINDS.map((k) => [k, { entries: [], slots: [], version: 0 }]))
  const listeners = new Set<(event: StoreEvent) => void>()
  // Every kind's slots in arrival (= seq) order, so the inbox feed walks it backwards instead of
  // merging and sorting all kinds on every request.
  let arrival: Slot[] = []
  let dead = 0
  let changes = 0
  let seq = 0
  let leadCounter = FIRST_LEAD_ID - 1
  let appendedSinceRewrite = 0

  const bucket = (kind: StoredKind): Bucket => byKind.get(kind) as Bucket
  // A record is never changed once stored (no route updates one), so its text is made once and kept.
  const jsonOf = (slot: Slot): string => (slot.json ??= JSON.stringify(slot.entry.record))
  const lowerOf = (slot: Slot): string => (slot.lower ??= jsonOf(slot).toLowerCase())

  function remember(entry: StoredEntry): void {
    const b = bucket(entry.kind)
    const slot: Slot = { entry, json: undefined, lower: undefined, live: true }
    b.entries.push(entry)
    b.slots.push(slot)
    arrival.push(slot)
    const excess = b.entries.length - options.retention
    if (excess > 0) {
      b.entries.splice(0, excess)
      for (const gone of b.slots.splice(0, excess)) gone.live = false
      dead += excess
      if (dead >= SWEEP_AT && dead * 2 >= arrival.length) {
        arrival = arrival.filter((s) => s.live)
        dead = 0
      }
    }
    b.version = ++changes
    seq = Math.max(seq, entry.seq)
    if (entry.kind === 'lead') {
      const n = Number(entry.record['lead_id'])
      if (Number.isSafeInteger(n)) leadCounter = Math.max(leadCounter, n)
    }
  }

  for (const entry of options.initial ?? []) remember(entry)

  function emit(event: StoreEvent): void {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // One broken subscriber (a closed SSE stream) must not stop the others.
      }
    }
  }

  function everything(): StoredEntry[] {
    return arrival.filter((s) => s.live).map((s) => s.entry)
  }

  function maybeCompact(): void {
    // The journal grows with every append while memory is capped; rewrite when it is mostly dead weight.
    if (options.journal === undefined) return
    const live = STORED_KINDS.reduce((n, k) => n + bucket(k).entries.length, 0)
    if (appendedSinceRewrite > live + 1000) {
      options.journal.rewrite(everything())
      appendedSinceRewrite = 0
    }
  }

  /** Newest first: index `i` of the listing is `slots[length - 1 - i]`; no copy, no sort. */
  function pageSlots(
    kind: StoredKind,
    page: number,
    perPage: number,
    limit: number | undefined,
  ): { slots: Slot[]; total: number } {
    const list = bucket(kind).slots
    const total = limit === undefined ? list.length : Math.min(limit, list.length)
    const slots: Slot[] = []
    const start = (page - 1) * perPage
    for (let i = start; i < Math.min(start + perPage, total); i++) {
      const slot = list[list.length - 1 - i]
      if (slot !== undefined) slots.push(slot)
    }
    return { slots, total }
  }

  return {
    add(kind, make) {
      const entrySeq = seq + 1
      const id = `${ID_PREFIX[kind]}-${entrySeq}`
      const record = make({ seq: entrySeq, id, createdAt: now().toISOString() })
      const entry: StoredEntry = { seq: entrySeq, kind, record }
      remember(entry)
      options.journal?.append(entry)
      appendedSinceRewrite++
      maybeCompact()
      emit({ type: 'added', entry })
      return entry
    },
    page(kind, page, perPage, limit) {
      const { slots, total } = pageSlots(kind, page, perPage, limit)
      return { records: slots.map((s) => s.entry.record), total }
    },
    pageJson(kind, page, perPage, limit) {
      const { slots, total } = pageSlots(kind, page, perPage, limit)
      return { records: slots.map(jsonOf), total }
    },
    version(kind) {
      return bucket(kind).version
    },
    all(kind) {
      return bucket(kind).entries
    },
    search(query) {
      const kinds = new Set<StoredKind>(query.kinds ?? STORED_KINDS)
      const needle = query.text?.trim().toLowerCase() ?? ''
      const limit = query.limit ?? 500
      const out: StoredEntry[] = []
      for (let i = arrival.length - 1; i >= 0; i--) {
        const slot = arrival[i]
        if (slot === undefined || !slot.live || !kinds.has(slot.entry.kind)) continue
        if (needle !== '' && !lowerOf(slot).includes(needle)) continue
        out.push(slot.entry)
        if (out.length >= limit) break
      }
      return out
    },
    count(kind) {
      return kind === undefined
        ? STORED_KINDS.reduce((n, k) => n + bucket(k).entries.length, 0)
        : bucket(kind).entries.length
    },
    findLead(leadId) {
      return bucket('lead').entries.find((e) => e.record['lead_id'] === leadId)
    },
    nextLeadId() {
      leadCounter += 1
      return String(leadCounter)
    },
    reset() {
      for (const k of STORED_KINDS) {
        const b = bucket(k)
        // Emptied in place: callers holding `all(kind)` see the reset, as before.
        b.entries.length = 0
        b.slots.length = 0
        b.version = ++changes
      }
      arrival = []
      dead = 0
      options.journal?.rewrite([])
      appendedSinceRewrite = 0
      emit({ type: 'reset' })
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
