// The sandbox's types: what the CLI, the daemon and the tests name, and the folder's own files share
// (a leaf: it imports no file that imports it; index.ts only re-exports): the options, the store's
// records and interface, the URLs a running sandbox announces.
import type { FaultSet } from './faults'
import type { StoredKind } from './stored-kinds'

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1 (the control API has no auth). */
  host?: string
  /**
   * Allow a host that is not loopback (`messaging.sandbox.allow_remote`, `--allow-remote`); without
   * it such a host is refused. Allowed, a warning goes to `onWarning`.
   */
  allowRemote?: boolean
  /** Told what an operator must see (listening off loopback); default: written to stderr. */
  onWarning?: (message: string) => void
  /** Default 0: the OS picks a free port. */
  port?: number
  /** Expected `apikey` header; default `sandbox-api-key`. */
  apiKey?: string
  /** Expected `X-O-TOKEN` header; default `sandbox-activity-token`. */
  activityToken?: string
  /** The account segment of the lead webhook URL; default `sandbox`. */
  leadAccount?: string
  /** Persist records here (JSON lines) so they survive restarts; default: memory only. */
  dataDir?: string
  /** Most records kept per kind; default 10 000. */
  retention?: number
  /** Largest body a send or webhook may carry (so largest record), in bytes; default 64 KiB. */
  maxRecordBytes?: number
  /** Most bytes of records kept in all (JSON text); the oldest go first, counted; default 32 MiB. */
  maxStoreBytes?: number
  /** Fault rules active from the start (same JSON as the control API). */
  faults?: readonly unknown[]
  /** Randomness for fault rates and random latency; tests pin it. */
  random?: () => number
}

export interface Sandbox {
  readonly info: SandboxInfo
  readonly apiKey: string
  readonly activityToken: string
  readonly store: Store
  readonly faults: FaultSet
  close(): Promise<void>
}

export interface SandboxInfo {
  /** The address it listens on, as given (`0.0.0.0:4010`); the URLs below are where this machine reaches it. */
  listening: string
  /** true when it listens off loopback (allowed by `allowRemote`). */
  remote: boolean
  baseUrl: string
  apiUrl: string
  leadWebhookUrl: string
  activityWebhookUrl: string
  inboxUrl: string
  controlUrl: string
  eventsUrl: string
  dataDir: string | null
  retention: number
  maxRecordBytes: number
  maxStoreBytes: number
  version: string
}

/** What the store holds and what its byte cap dropped (`/_sandbox/info`, the agent's /metrics). */
export interface StoreStats {
  records: number
  /** Bytes of the records' JSON text. */
  bytes: number
  /** Records dropped, oldest first, to keep `bytes` under the store cap, since start. */
  evicted: number
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
  stats(): StoreStats
  reset(): void
  subscribe(listener: (event: StoreEvent) => void): () => void
}

export interface StoreOptions {
  /** Most records kept per kind; the oldest go first. */
  retention: number
  /** Most bytes of records (JSON text) kept in all; the oldest go first. Default: no cap. */
  maxBytes?: number
  journal?: StoreJournal
  /** Entries recovered from the journal, oldest first. */
  initial?: readonly StoredEntry[]
  now?: () => Date
}
