// The outbox's contract, for whoever builds one (the alert path) and whoever consumes it (the
// dispatcher). A leaf: types only.
import type { OutboxBackoff } from './backoff'
import type { DeadLetter, OutboxItem } from './item'
import type { LaneOptions, LaneStats } from './lanes'

export type SendFn = (item: OutboxItem) => Promise<void>

/** Who delivers the items: one attempt per call, throwing on failure (the outbox decides what then). */
export interface OutboxConsumer {
  send: SendFn
  /** The lane of an item (default: its kind) and the deliveries in flight per lane (default 4). */
  laneOf?: LaneOptions['laneOf']
  limitOf?: LaneOptions['limitOf']
  /** Items with the same key are delivered one at a time, in enqueue order; undefined: no order. */
  orderOf?: ((item: OutboxItem) => string | undefined) | undefined
}

export interface OutboxOptions extends Partial<OutboxConsumer> {
  /** Journal file; without it the queue is in memory only. One outbox per file in a process (IN_USE). */
  path?: string | undefined
  /** Who uses the journal (a target's name), named in the error a second outbox on it gets. */
  owner?: string | undefined
  /** Attempts before an item becomes a dead letter; default: no limit (see `maxAgeMs`). */
  maxAttempts?: number | undefined
  /** A recoverable failure of an item older than this makes it a dead letter; default 6 hours. */
  maxAgeMs?: number | undefined
  /** Most items held in memory (with `path`); the rest wait in the spill on disk. Default 1000. */
  memoryItems?: number | undefined
  /** Size at which a spill segment file is closed and a new one started; default 64 MiB. */
  spillSegmentBytes?: number | undefined
  backoff?: Partial<OutboxBackoff>
  /** Deliveries in flight at once, all lanes together; default 16. */
  concurrency?: number
  /**
   * Retry failures the far end may have acted on (timeouts, drops)? Default true: a duplicate page
   * beats a lost one.
   */
  retryAmbiguous?: boolean
  /** Most dead letters kept in memory (all of them go to the `.dead` file); default 100. */
  maxDeadLetters?: number
  now?: () => number
  random?: () => number
  /** Called for every dead letter (after it is recorded). */
  onDead?: (letter: DeadLetter) => void
  /** Journal failures while running (disk full...): reported, never thrown into the logging path. */
  onError?: (err: Error) => void
}

export interface OutboxStats {
  /** Everything not delivered yet: in memory and spilled. */
  pending: number
  /** Of `pending`, the items on disk only. */
  spilled: number
  inFlight: number
  /** Per lane: in flight, pending in memory, paused until (Retry-After). */
  lanes: Record<string, LaneStats>
  delivered: number
  retried: number
  dead: number
}

export interface DrainResult {
  /** Nothing left: everything delivered or dead-lettered. */
  drained: boolean
  pending: number
}

export interface Outbox {
  /**
   * Starts delivering through `consumer`: until then items are journaled and held (what a previous
   * run left included). Once only, and not when the options named a `send` (attached at once).
   */
  attach(consumer: OutboxConsumer): void
  enqueue(kind: string, payload: unknown): OutboxItem
  /**
   * Several items at once, in order, with one journal write: after a crash at any point, all of
   * them are queued or none (the notices of one alert, say, that must not be split).
   */
  enqueueAll(entries: ReadonlyArray<{ kind: string; payload: unknown }>): OutboxItem[]
  /** Delivers until empty or `timeoutMs` elapsed. */
  drain(timeoutMs: number): Promise<DrainResult>
  /** Stops delivering; pending items stay in the journal for the next start. */
  close(): Promise<void>
  stats(): OutboxStats
  deadLetters(): readonly DeadLetter[]
  /** Items pending in memory (the window, oldest first); spilled ones are not listed. */
  pendingItems(): OutboxItem[]
  /**
   * An item waiting for its next attempt is tried now: what it waited on happened (another agent
   * sent it). A server's Retry-After still holds; an unknown, spilled or in-flight item is left alone.
   */
  wake(id: string): void
  /**
   * fsyncs the journal and the spill: everything enqueued so far then survives a crash of the
   * machine, not just of the process. Call it before committing what the items were made from.
   * Failures go to `onError` (never thrown).
   */
  sync(): void
  /**
   * sync() without holding the event loop for the fsyncs: resolves once everything enqueued before
   * the call is on disk. A failure goes to `onError` and rejects, so what depends on it waits.
   */
  syncAsync(): Promise<void>
}
