// The notification queue between deciding to alert and the messaging API. An item is journaled
// before enqueue() returns; a delivery that fails recoverably (the `recoverable` flag of
// MessagingApiError) waits a capped backoff and is tried again; a permanent failure, or too many
// attempts, makes it a dead letter. drain(timeoutMs) is the bounded shutdown: it keeps delivering,
// with backoff squeezed into the time left, and reports what could not be sent.
import { randomUUID } from 'node:crypto'
import { DEFAULT_OUTBOX_BACKOFF, outboxDelay, type OutboxBackoff } from './backoff'
import { OutboxError, OutboxErrorCodes } from './errors'
import type { DeadLetter, OutboxItem } from './item'
import { createFileStore, createMemoryStore, type OutboxStore } from './store'

export type SendFn = (item: OutboxItem) => Promise<void>

export interface OutboxOptions {
  /** Journal file; without it the queue is in memory only. */
  path?: string | undefined
  send: SendFn
  /** Attempts before an item becomes a dead letter; default 10. */
  maxAttempts?: number
  backoff?: Partial<OutboxBackoff>
  /** Deliveries in flight at once; default 2. */
  concurrency?: number
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
  pending: number
  inFlight: number
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
  /** Delivers until empty or `timeoutMs` elapsed. */
  drain(timeoutMs: number): Promise<DrainResult>
  /** Stops delivering; pending items stay in the journal for the next start. */
  close(): Promise<void>
  stats(): OutboxStats
  deadLetters(): readonly DeadLetter[]
}

interface FailureInfo {
  recoverable: boolean
  ambiguous: boolean
  retryAfterMs: number | undefined
  reason: string
  message: string
}

function describeFailure(err: unknown): FailureInfo {
  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>
  return {
    // Errors without the flag (a bug, a TypeError) are not retried: they would fail the same way.
    recoverable: e.recoverable === true,
    ambiguous: e.ambiguous === true,
    retryAfterMs: typeof e.retryAfterMs === 'number' ? e.retryAfterMs : undefined,
    reason: typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(err),
  }
}

function positive(value: number | undefined, fallback: number, path: string): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 1) {
    throw new OutboxError(OutboxErrorCodes.INVALID_OPTION, `${path}: expected a number >= 1, got ${value}`, { path })
  }
  return value
}

export function createOutbox(options: OutboxOptions): Outbox {
  const maxAttempts = positive(options.maxAttempts, 10, 'outbox.maxAttempts')
  const concurrency = positive(options.concurrency, 2, 'outbox.concurrency')
  const maxDead = options.maxDeadLetters ?? 100
  const backoff: OutboxBackoff = { ...DEFAULT_OUTBOX_BACKOFF, ...options.backoff }
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const retryAmbiguous = options.retryAmbiguous ?? true
  const onError = options.onError ?? (() => {})
  const store: OutboxStore = options.path === undefined ? createMemoryStore() : createFileStore(options.path)

  const queue = new Map<string, OutboxItem>()
  for (const item of store.load()) {
    // A restart is a fresh chance: backoff computed by the previous run is not waited out.
    item.nextAttemptAt = Math.min(item.nextAttemptAt, now())
    queue.set(item.id, item)
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

  function settle(item: OutboxItem): void {
    queue.delete(item.id)
    inFlight.delete(item.id)
    maybeCompact()
  }

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

  async function attempt(item: OutboxItem): Promise<void> {
    inFlight.add(item.id)
    item.attempts++
    try {
      await options.send(item)
      journal(() => store.append({ op: 'done', id: item.id }))
      settle(item)
      delivered++
    } catch (err) {
      const failure = describeFailure(err)
      const retryable = failure.recoverable && (retryAmbiguous || !failure.ambiguous)
      if (!retryable || item.attempts >= maxAttempts || closed) {
        if (closed && retryable && item.attempts < maxAttempts) {
          // Shutting down: keep it journaled for the next start instead of giving up.
          inFlight.delete(item.id)
          return
        }
        toDead(item, failure.reason)
        return
      }
      retried++
      const delay = outboxDelay(item.attempts, backoff, random, failure.retryAfterMs)
      // While draining, waits shrink to fit several more attempts into the time left, but never
      // below the base delay: hammering a struggling API only burns attempts.
      const squeezed = deadline === undefined ? delay : Math.min(delay, Math.max(backoff.minDelayMs, (deadline - now()) / 4))
      item.nextAttemptAt = now() + squeezed
      item.lastError = `${failure.reason}: ${failure.message}`.slice(0, 500)
      journal(() =>
        store.append({ op: 'retry', id: item.id, attempts: item.attempts, nextAttemptAt: item.nextAttemptAt, lastError: item.lastError as string }),
      )
      inFlight.delete(item.id)
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
    for (const item of queue.values()) {
      if (inFlight.size >= concurrency) break
      if (inFlight.has(item.id)) continue
      const due = item.nextAttemptAt
      if (due <= t) {
        void attempt(item).finally(pump)
      } else if (due < soonest) {
        soonest = due
      }
    }
    if (queue.size === 0) {
      for (const wake of idleWaiters) wake()
      idleWaiters.clear()
      return
    }
    if (inFlight.size === 0 && soonest !== Infinity) {
      timer = setTimeout(pump, Math.max(0, soonest - t))
      // Waiting retries must not keep a process alive on their own; drain() holds it when needed.
      timer.unref()
    }
  }

  // Items left by a previous run go out without waiting for new ones.
  if (queue.size > 0) pump()

  return {
    enqueue(kind, payload) {
      if (closed) throw new OutboxError(OutboxErrorCodes.CLOSED, 'the outbox is closed')
      const t = now()
      const item: OutboxItem = { id: randomUUID(), kind, payload, createdAt: t, attempts: 0, nextAttemptAt: t }
      journal(() => store.append({ op: 'add', item }))
      queue.set(item.id, item)
      pump()
      return item
    },
    async drain(timeoutMs) {
      if (queue.size === 0) return { drained: true, pending: 0 }
      deadline = now() + timeoutMs
      // Shutdown does not wait out backoff computed in calmer times: everything is tried now.
      for (const item of queue.values()) item.nextAttemptAt = Math.min(item.nextAttemptAt, now())
      let guard: NodeJS.Timeout | undefined
      const idle = new Promise<void>((resolve) => idleWaiters.add(resolve))
      const expired = new Promise<void>((resolve) => {
        guard = setTimeout(resolve, timeoutMs)
      })
      pump()
      await Promise.race([idle, expired])
      clearTimeout(guard)
      deadline = undefined
      return { drained: queue.size === 0, pending: queue.size }
    },
    async close() {
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      for (const wake of idleWaiters) wake()
      idleWaiters.clear()
      if (queue.size === 0) journal(() => store.compact([]))
    },
    stats: () => ({ pending: queue.size, inFlight: inFlight.size, delivered, retried, dead: deadCount }),
    deadLetters: () => dead,
  }
}
