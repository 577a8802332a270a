// The notification queue between deciding to alert and the messaging API. An item is on disk
// before enqueue() returns; a delivery that fails recoverably (the `recoverable` flag of
// MessagingApiError) waits a capped backoff and is tried again, for as long as the item is younger
// than `maxAgeMs`, so an outage of hours loses nothing; a permanent failure makes it a dead letter
// at once. A server's Retry-After is a floor nothing lowers: not the backoff cap, not drain(), not a
// restart. drain(timeoutMs) is the bounded shutdown: it keeps delivering, with backoff squeezed
// into the time left, and reports what could not be sent.
//
// This is the one retry layer of the alert path: the messaging client makes one HTTP attempt per
// call (bounded by its timeout) and only says whether to try again, so an attempt here is one HTTP
// attempt. drain() returns at its bound even with an attempt in flight: that attempt's outcome is
// journaled when it ends (the journal stays open for it after close()), and if the process exits
// first the item is simply still pending at the next start.
//
// Memory is bounded: at most `memoryItems` items are held (the window, journaled); beyond that new
// items go to the spill on disk, in order, and come back into the window as it drains.
//
// Several deliveries are in flight at once (`concurrency` in all), bounded per lane (`laneOf`, the
// agent's channels: `limitOf`), and a Retry-After pauses the lane of the item that got it, not the
// others. Items with one `orderOf` key (an incident) go one at a time, in enqueue order, a retry
// included: a later item of the key waits for the earlier one to be settled. The journal does not
// change with this: each item is `add`ed before enqueue returns and `done` once sent, so a crash
// with several in flight leaves each of them pending, to be sent again (with its id) at the start.
import { DEFAULT_OUTBOX_BACKOFF, retryDelay, type OutboxBackoff } from './backoff'
import { OutboxError, OutboxErrorCodes } from './errors'
import { describeFailure } from './failure'
import { createLanes, type LaneOptions, type LaneStats } from './lanes'
import type { DeadLetter, JournalRecord, OutboxItem } from './item'
import { newItemId } from './item-id'
import { createFileStore, createMemoryStore, type OutboxStore } from './store'

export type SendFn = (item: OutboxItem) => Promise<void>

export interface OutboxOptions {
  /** Journal file; without it the queue is in memory only. One outbox per file in a process (IN_USE). */
  path?: string | undefined
  /** Who uses the journal (a target's name), named in the error a second outbox on it gets. */
  owner?: string | undefined
  send: SendFn
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
  /** The lane of an item (default: its kind) and the deliveries in flight per lane (default 4). */
  laneOf?: LaneOptions['laneOf']
  limitOf?: LaneOptions['limitOf']
  /** Items with the same key are delivered one at a time, in enqueue order; undefined: no order. */
  orderOf?: ((item: OutboxItem) => string | undefined) | undefined
  /** Retry failures the far end may have acted on (timeouts, drops)? Default true: a duplicate page beats a lost one. */
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

const DEFAULT_MAX_AGE_MS = 6 * 60 * 60 * 1000
const DEFAULT_MEMORY_ITEMS = 1000
const DEFAULT_CONCURRENCY = 16

/** Now, or later if the server asked for later. */
function earliest(item: OutboxItem, t: number): number {
  return Math.max(Math.min(item.nextAttemptAt, t), item.notBefore ?? 0)
}

function positive(value: number | undefined, fallback: number, path: string): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 1) {
    throw new OutboxError(OutboxErrorCodes.INVALID_OPTION, `${path}: expected a number >= 1, got ${value}`, { path })
  }
  return value
}

export function createOutbox(options: OutboxOptions): Outbox {
  const maxAttempts = positive(options.maxAttempts, Infinity, 'outbox.maxAttempts')
  const maxAgeMs = positive(options.maxAgeMs, DEFAULT_MAX_AGE_MS, 'outbox.maxAgeMs')
  const memoryItems = positive(options.memoryItems, DEFAULT_MEMORY_ITEMS, 'outbox.memoryItems')
  const concurrency = positive(options.concurrency, DEFAULT_CONCURRENCY, 'outbox.concurrency')
  const lanes = createLanes({ laneOf: options.laneOf, limitOf: options.limitOf })
  const orderOf = options.orderOf ?? (() => undefined)
  const maxDead = options.maxDeadLetters ?? 100
  const backoff: OutboxBackoff = { ...DEFAULT_OUTBOX_BACKOFF, ...options.backoff }
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const retryAmbiguous = options.retryAmbiguous ?? true
  const onError = options.onError ?? (() => {})
  const store: OutboxStore =
    options.path === undefined
      ? createMemoryStore()
      : createFileStore(options.path, {
          maxSegmentBytes: options.spillSegmentBytes,
          onError: (err) => onError(err),
          owner: options.owner,
        })

  /** The window: items in memory, in enqueue order. */
  const queue = new Map<string, OutboxItem>()
  function admit(item: OutboxItem): void {
    queue.set(item.id, item)
    lanes.added(lanes.of(item))
  }
  let loaded: OutboxItem[]
  try {
    loaded = store.load()
  } catch (err) {
    // An outbox that cannot start holds no journal: the file stays free for another try.
    store.close()
    throw err
  }
  for (const item of loaded) {
    // A restart is a fresh chance: backoff computed by the previous run is not waited out (a
    // server's Retry-After is).
    item.nextAttemptAt = earliest(item, now())
    admit(item)
  }
  const inFlight = new Set<string>()
  const dead: DeadLetter[] = []
  let delivered = 0
  let retried = 0
  let deadCount = 0
  let closed = false
  let timer: NodeJS.Timeout | undefined
  /** Set while draining: when drain() gives up. */
  let deadline: number | undefined
  const idleWaiters = new Set<() => void>()

  function journal(fn: () => void): void {
    try {
      fn()
    } catch (err) {
      onError(err as Error)
    }
  }

  function maybeCompact(): void {
    if (store.records > 1000 && store.records > queue.size * 4) journal(() => store.compact([...queue.values()]))
  }

  /** Brings spilled items back into the window while it has room. */
  function refill(): void {
    if (closed) return
    while (queue.size < memoryItems && store.spilled > 0) {
      let item: OutboxItem | undefined
      journal(() => {
        item = store.unspill()
      })
      if (item === undefined) return
      item.nextAttemptAt = earliest(item, now())
      admit(item)
    }
  }

  function settle(item: OutboxItem): void {
    if (queue.delete(item.id)) lanes.removed(lanes.of(item))
    inFlight.delete(item.id)
    refill()
    maybeCompact()
    closeStoreWhenIdle()
  }

  function closeStoreWhenIdle(): void {
    // An attempt still in flight at close() journals its outcome when it ends.
    if (closed && inFlight.size === 0) journal(() => store.close())
  }

  const pending = (): number => queue.size + store.spilled

  function toDead(item: OutboxItem, reason: string): void {
    const letter: DeadLetter = { ...item, deadAt: now(), reason }
    journal(() => store.append({ op: 'dead', id: item.id, deadAt: letter.deadAt, reason }))
    journal(() => store.dead(letter))
    settle(item)
    deadCount++
    dead.push(letter)
    if (dead.length > maxDead) dead.shift()
    options.onDead?.(letter)
  }

  async function attempt(item: OutboxItem, lane: string): Promise<void> {
    inFlight.add(item.id)
    lanes.started(lane)
    item.attempts++
    try {
      await options.send(item)
      lanes.ended(lane)
      journal(() => store.append({ op: 'done', id: item.id }))
      settle(item)
      delivered++
    } catch (err) {
      lanes.ended(lane)
      const failure = describeFailure(err)
      if (failure.held) item.attempts--
      const retryable = failure.recoverable && (retryAmbiguous || !failure.ambiguous)
      const t = now()
      const expired = item.attempts >= maxAttempts || t - item.createdAt >= maxAgeMs
      item.lastError = `${failure.reason}: ${failure.message}`.slice(0, 500)
      if (!retryable || expired) {
        toDead(item, failure.reason)
        return
      }
      retried += failure.held ? 0 : 1
      item.nextAttemptAt = t + retryDelay(failure, item.attempts, backoff, random, t, deadline)
      // Only a server's wait binds (a held item may be woken sooner), and it holds the whole lane (its
      // channel): the next item would only be refused too.
      item.notBefore = failure.retryAfterMs === undefined || failure.held ? undefined : t + failure.retryAfterMs
      if (item.notBefore !== undefined) lanes.pause(lane, item.notBefore)
      const { id, attempts, nextAttemptAt, lastError, notBefore } = item
      const record: JournalRecord = {
        op: 'retry',
        id,
        attempts,
        nextAttemptAt,
        lastError,
        ...(notBefore === undefined ? {} : { notBefore }),
      }
      // Shutting down: it stays journaled for the next start (settled only by done or dead).
      journal(() => store.append(record))
      inFlight.delete(item.id)
      closeStoreWhenIdle()
    }
  }

  function pump(): void {
    if (timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
    if (closed) return
    const t = now()
    let soonest = Infinity
    // Stop scanning once no lane can take more: with the window full of one channel's items, a
    // pump looks at the few in flight and the next one, not at the whole window.
    let open = lanes.openCount(t)
    /** Order keys with an earlier item in flight or waiting: their later items wait behind it. */
    const held = new Set<string>()
    for (const item of queue.values()) {
      if (open === 0 || inFlight.size >= concurrency) break
      const key = orderOf(item)
      if (key !== undefined) {
        if (held.has(key)) continue
        held.add(key)
      }
      if (inFlight.has(item.id)) continue
      const lane = lanes.of(item)
      if (!lanes.open(lane, t)) continue
      if (item.nextAttemptAt > t) {
        if (item.nextAttemptAt < soonest) soonest = item.nextAttemptAt
        continue
      }
      void attempt(item, lane).finally(pump)
      if (!lanes.ready(lane, t)) open--
    }
    if (pending() === 0) {
      for (const wake of idleWaiters) wake()
      idleWaiters.clear()
      return
    }
    const next = Math.min(soonest, lanes.nextResume(t))
    if (inFlight.size === 0 && next !== Infinity) {
      timer = setTimeout(pump, Math.max(0, next - t))
      // Waiting retries must not keep a process alive on their own; drain() holds it when needed.
      timer.unref()
    }
  }

  // Items left by a previous run go out without waiting for new ones.
  refill()
  if (pending() > 0) pump()

  /** Spill once the window is full, and keep spilling while anything is spilled: order is kept. */
  function spillNext(): boolean {
    return store.canSpill && (store.spilled > 0 || queue.size >= memoryItems)
  }

  function enqueueAll(entries: ReadonlyArray<{ kind: string; payload: unknown }>): OutboxItem[] {
    if (closed) throw new OutboxError(OutboxErrorCodes.CLOSED, 'the outbox is closed')
    const t = now()
    const items = entries.map(({ kind, payload }): OutboxItem => ({
      id: newItemId(),
      kind,
      payload,
      createdAt: t,
      attempts: 0,
      nextAttemptAt: t,
    }))
    if (items.length === 0) return items
    // All to the spill or all to the journal, one write either way (the window may go past
    // memoryItems by a batch): a crash keeps every item of the batch or none.
    if (spillNext()) {
      try {
        store.spill(...items)
        return items
      } catch (err) {
        // Kept in memory and journaled instead: out of order, but not lost.
        onError(err as Error)
      }
    }
    journal(() => store.append(...items.map((item): JournalRecord => ({ op: 'add', item }))))
    for (const item of items) admit(item)
    pump()
    return items
  }

  return {
    enqueue: (kind, payload) => enqueueAll([{ kind, payload }])[0] as OutboxItem,
    enqueueAll,
    async drain(timeoutMs) {
      if (pending() === 0) return { drained: true, pending: 0 }
      deadline = now() + timeoutMs
      // Shutdown does not wait out backoff computed in calmer times: everything is tried now
      // (except what the server asked to wait for).
      for (const item of queue.values()) item.nextAttemptAt = earliest(item, now())
      let guard: NodeJS.Timeout | undefined
      const idle = new Promise<void>((resolve) => idleWaiters.add(resolve))
      // The bound holds with attempts in flight: they are not awaited, only counted as pending.
      const expired = new Promise<void>((resolve) => {
        guard = setTimeout(resolve, timeoutMs)
      })
      pump()
      await Promise.race([idle, expired])
      clearTimeout(guard)
      deadline = undefined
      return { drained: pending() === 0, pending: pending() }
    },
    async close() {
      if (closed) return
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      for (const wake of idleWaiters) wake()
      idleWaiters.clear()
      if (pending() === 0) journal(() => store.compact([]))
      closeStoreWhenIdle()
    },
    stats: () => ({
      pending: pending(),
      spilled: store.spilled,
      inFlight: inFlight.size,
      lanes: lanes.stats(),
      delivered,
      retried,
      dead: deadCount,
    }),
    deadLetters: () => dead,
    pendingItems: () => [...queue.values()],
    wake(id) {
      const item = queue.get(id)
      if (item === undefined || inFlight.has(id) || closed) return
      item.nextAttemptAt = earliest(item, now())
      pump()
    },
    sync() {
      if (!closed || inFlight.size > 0) journal(() => store.sync())
    },
    syncAsync() {
      if (closed && inFlight.size === 0) return Promise.resolve()
      return store.syncAsync().catch((err: unknown) => {
        onError(err as Error)
        throw err
      })
    },
  }
}
