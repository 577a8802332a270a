// What the sandbox has received and what it serves back, newest first, with a per-kind retention
// cap. Memory is the source of truth; a data directory (data-dir.ts) only journals it.

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
  add(kind: StoredKind, make: (ids: { seq: number; id: string; createdAt: string }) => Record<string, unknown>): StoredEntry
  /** Newest first. `limit` caps how many of the newest records the listing holds at all. */
  page(kind: StoredKind, page: number, perPage: number, limit: number | undefined): { records: Record<string, unknown>[]; total: number }
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

export function createStore(options: StoreOptions): Store {
  const now = options.now ?? (() => new Date())
  const byKind = new Map<StoredKind, StoredEntry[]>(STORED_KINDS.map((k) => [k, []]))
  const listeners = new Set<(event: StoreEvent) => void>()
  let seq = 0
  let leadCounter = FIRST_LEAD_ID - 1
  let appendedSinceRewrite = 0

  const bucket = (kind: StoredKind): StoredEntry[] => byKind.get(kind) as StoredEntry[]

  function remember(entry: StoredEntry): void {
    const list = bucket(entry.kind)
    list.push(entry)
    if (list.length > options.retention) list.splice(0, list.length - options.retention)
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
    return [...byKind.values()].flat().sort((a, b) => a.seq - b.seq)
  }

  function maybeCompact(): void {
    // The journal grows with every append while memory is capped; rewrite when it is mostly dead weight.
    if (options.journal === undefined) return
    const live = STORED_KINDS.reduce((n, k) => n + bucket(k).length, 0)
    if (appendedSinceRewrite > live + 1000) {
      options.journal.rewrite(everything())
      appendedSinceRewrite = 0
    }
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
      const list = bucket(kind)
      const total = limit === undefined ? list.length : Math.min(limit, list.length)
      const records: Record<string, unknown>[] = []
      const start = (page - 1) * perPage
      for (let i = start; i < Math.min(start + perPage, total); i++) {
        const entry = list[list.length - 1 - i]
        if (entry !== undefined) records.push(entry.record)
      }
      return { records, total }
    },
    all(kind) {
      return bucket(kind)
    },
    search(query) {
      const kinds = query.kinds ?? STORED_KINDS
      const needle = query.text?.trim().toLowerCase() ?? ''
      const limit = query.limit ?? 500
      const candidates = kinds.flatMap((k) => bucket(k)).sort((a, b) => b.seq - a.seq)
      const out: StoredEntry[] = []
      for (const entry of candidates) {
        if (needle !== '' && !JSON.stringify(entry.record).toLowerCase().includes(needle)) continue
        out.push(entry)
        if (out.length >= limit) break
      }
      return out
    },
    count(kind) {
      return kind === undefined ? STORED_KINDS.reduce((n, k) => n + bucket(k).length, 0) : bucket(kind).length
    },
    findLead(leadId) {
      return bucket('lead').find((e) => e.record['lead_id'] === leadId)
    },
    nextLeadId() {
      leadCounter += 1
      return String(leadCounter)
    },
    reset() {
      for (const k of STORED_KINDS) bucket(k).length = 0
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
