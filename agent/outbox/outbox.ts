// The notification queue between deciding to alert and the messaging API. An item is on disk
// before enqueue() returns; a delivery that fails recoverably (the `recoverable` flag of
// MessagingApiError) waits a capped backoff and is tried again, for as long as the item is younger
// than `maxAgeMs`, so an outage of hours loses nothing; a permanent failure makes it a dead letter
// at once. A server's Retry-After is a floor nothing lowers: not the backoff cap, not drain(), not a
// restart. drain(timeoutMs) is the bounded shutdown: it keeps delivering, with backoff squeezed
// into the time left, and reports what could not be sent. When an item is due and what a failure
// makes of it are decided in schedule.ts (numbered rules); this file keeps the state and applies them.
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
// others. Items with one `orderOf` key (an incident) go one at a time, in enqueue order. The journal
// does not change with this: each item is `add`ed before enqueue returns and `done` once sent, so a
// crash with several in flight leaves each of them pending, to be sent again (with its id) at the start.
//
// Nothing is sent before a consumer is attached (`send` in the options, or attach()): the alert path
// builds the outbox, then hands it to the dispatcher, which attaches itself.
import { describeFailure } from './failure'
import type { DeadLetter, JournalRecord, OutboxItem } from './item'
import { newItemId } from './item-id'
import { createLanes, type Lanes } from './lanes'
import { openQueueStore, settingsOf, type OutboxSettings } from './outbox-settings'
import { afterFailure, planStarts, retryNow, shouldCompact, spillNext, wakeAt } from './schedule'
import type { OutboxStore } from './store'
import { OutboxError, OutboxErrorCodes } from './errors'
import type { DrainResult, Outbox, OutboxConsumer, OutboxOptions, OutboxStats } from './types'

type Consumer = Required<Pick<OutboxConsumer, 'send' | 'orderOf'>>

class JournaledQueue implements Outbox {
  private readonly settings: OutboxSettings
  private readonly store: OutboxStore
  /** The window: items in memory, in enqueue order. */
  private readonly window = new Map<string, OutboxItem>()
  private readonly inFlight = new Set<string>()
  private readonly dead: DeadLetter[] = []
  private readonly counts = { delivered: 0, retried: 0, dead: 0 }
  private readonly idleWaiters = new Set<() => void>()
  private lanes: Lanes = createLanes()
  private consumer: Consumer | undefined
  private closed = false
  private timer: NodeJS.Timeout | undefined
  /** Set while draining: when drain() gives up. */
  private deadline: number | undefined

  constructor(options: OutboxOptions) {
    this.settings = settingsOf(options)
    const { store, loaded } = openQueueStore(options, this.settings)
    this.store = store
    // A restart is a fresh chance: backoff computed by the previous run is not waited out (rule 1).
    for (const item of loaded) this.admit(item, retryNow(item, this.settings.now()))
    this.refill()
  }

  attach(consumer: OutboxConsumer): void {
    if (this.consumer !== undefined) {
      throw new OutboxError(OutboxErrorCodes.INVALID_OPTION, 'the outbox has its consumer already', { path: 'send' })
    }
    this.consumer = { send: consumer.send, orderOf: consumer.orderOf ?? (() => undefined) }
    // Nothing was in flight or paused before: the lanes start over with what the window holds.
    this.lanes = createLanes({ laneOf: consumer.laneOf, limitOf: consumer.limitOf })
    for (const item of this.window.values()) this.lanes.added(this.lanes.of(item))
    // Items left by a previous run go out without waiting for new ones.
    if (this.pending() > 0) this.pump()
  }

  enqueue(kind: string, payload: unknown): OutboxItem {
    return this.enqueueAll([{ kind, payload }])[0] as OutboxItem
  }

  enqueueAll(entries: ReadonlyArray<{ kind: string; payload: unknown }>): OutboxItem[] {
    if (this.closed) throw new OutboxError(OutboxErrorCodes.CLOSED, 'the outbox is closed')
    const t = this.settings.now()
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
    if (spillNext(this.store, this.window.size, this.settings.memoryItems)) {
      try {
        this.store.spill(...items)
        return items
      } catch (err) {
        // Kept in memory and journaled instead: out of order, but not lost.
        this.settings.onError(err as Error)
      }
    }
    this.journal(() => this.store.append(...items.map((item): JournalRecord => ({ op: 'add', item }))))
    for (const item of items) this.admit(item, item.nextAttemptAt)
    this.pump()
    return items
  }

  async drain(timeoutMs: number): Promise<DrainResult> {
    if (this.pending() === 0) return { drained: true, pending: 0 }
    const { now } = this.settings
    this.deadline = now() + timeoutMs
    // Shutdown does not wait out backoff computed in calmer times (rule 1).
    for (const item of this.window.values()) item.nextAttemptAt = retryNow(item, now())
    let guard: NodeJS.Timeout | undefined
    const idle = new Promise<void>((resolve) => this.idleWaiters.add(resolve))
    // The bound holds with attempts in flight: they are not awaited, only counted as pending.
    const expired = new Promise<void>((resolve) => {
      guard = setTimeout(resolve, timeoutMs)
    })
    this.pump()
    await Promise.race([idle, expired])
    clearTimeout(guard)
    this.deadline = undefined
    return { drained: this.pending() === 0, pending: this.pending() }
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.wakeIdle()
    if (this.pending() === 0) this.journal(() => this.store.compact([]))
    this.closeStoreWhenIdle()
    return Promise.resolve()
  }

  stats(): OutboxStats {
    return {
      pending: this.pending(),
      spilled: this.store.spilled,
      inFlight: this.inFlight.size,
      lanes: this.lanes.stats(),
      ...this.counts,
    }
  }

  deadLetters(): readonly DeadLetter[] {
    return this.dead
  }

  pendingItems(): OutboxItem[] {
    return [...this.window.values()]
  }

  wake(id: string): void {
    const item = this.window.get(id)
    if (item === undefined || this.inFlight.has(id) || this.closed) return
    item.nextAttemptAt = retryNow(item, this.settings.now())
    this.pump()
  }

  sync(): void {
    if (!this.closed || this.inFlight.size > 0) this.journal(() => this.store.sync())
  }

  syncAsync(): Promise<void> {
    if (this.closed && this.inFlight.size === 0) return Promise.resolve()
    return this.store.syncAsync().catch((err: unknown) => {
      this.settings.onError(err as Error)
      throw err
    })
  }

  private pending(): number {
    return this.window.size + this.store.spilled
  }

  private admit(item: OutboxItem, nextAttemptAt: number): void {
    item.nextAttemptAt = nextAttemptAt
    this.window.set(item.id, item)
    this.lanes.added(this.lanes.of(item))
  }

  /** Journal failures while running are reported, never thrown into the caller. */
  private journal(write: () => void): void {
    try {
      write()
    } catch (err) {
      this.settings.onError(err as Error)
    }
  }

  /** Brings spilled items back into the window while it has room (rule 1: they are due now). */
  private refill(): void {
    while (!this.closed && this.window.size < this.settings.memoryItems && this.store.spilled > 0) {
      let item: OutboxItem | undefined
      this.journal(() => {
        item = this.store.unspill()
      })
      if (item === undefined) return
      this.admit(item, retryNow(item, this.settings.now()))
    }
  }

  /** Done or dead: out of the window and of the journal's pending set. */
  private settle(item: OutboxItem): void {
    if (this.window.delete(item.id)) this.lanes.removed(this.lanes.of(item))
    this.inFlight.delete(item.id)
    this.refill()
    if (shouldCompact(this.store.records, this.window.size)) this.journal(() => this.store.compact(this.pendingItems()))
    this.closeStoreWhenIdle()
  }

  /** An attempt still in flight at close() journals its outcome when it ends. */
  private closeStoreWhenIdle(): void {
    if (this.closed && this.inFlight.size === 0) this.journal(() => this.store.close())
  }

  private wakeIdle(): void {
    for (const wake of this.idleWaiters) wake()
    this.idleWaiters.clear()
  }

  private toDead(item: OutboxItem, reason: string): void {
    const letter: DeadLetter = { ...item, deadAt: this.settings.now(), reason }
    this.journal(() => this.store.append({ op: 'dead', id: item.id, deadAt: letter.deadAt, reason }))
    this.journal(() => this.store.dead(letter))
    this.settle(item)
    this.counts.dead++
    this.dead.push(letter)
    if (this.dead.length > this.settings.maxDeadLetters) this.dead.shift()
    this.settings.onDead(letter)
  }

  private async attempt(consumer: Consumer, item: OutboxItem, lane: string): Promise<void> {
    this.inFlight.add(item.id)
    this.lanes.started(lane)
    item.attempts++
    try {
      await consumer.send(item)
    } catch (err) {
      this.lanes.ended(lane)
      this.failed(item, lane, err)
      return
    }
    this.lanes.ended(lane)
    this.journal(() => this.store.append({ op: 'done', id: item.id }))
    this.settle(item)
    this.counts.delivered++
  }

  private failed(item: OutboxItem, lane: string, err: unknown): void {
    const t = this.settings.now()
    const outcome = afterFailure(item, describeFailure(err), this.settings.policy, t, this.deadline)
    item.attempts = outcome.attempts
    item.lastError = outcome.lastError
    if (outcome.kind === 'dead') {
      this.toDead(item, outcome.reason)
      return
    }
    if (outcome.counted) this.counts.retried++
    item.nextAttemptAt = outcome.nextAttemptAt
    item.notBefore = outcome.notBefore
    // A server's wait holds the whole lane (its channel): the next item would only be refused too.
    if (outcome.notBefore !== undefined) this.lanes.pause(lane, outcome.notBefore)
    const { id, attempts, nextAttemptAt, notBefore } = item
    const retry: JournalRecord = { op: 'retry', id, attempts, nextAttemptAt, lastError: outcome.lastError }
    // Shutting down: it stays journaled for the next start (settled only by done or dead).
    this.journal(() => this.store.append(notBefore === undefined ? retry : { ...retry, notBefore }))
    this.inFlight.delete(item.id)
    this.closeStoreWhenIdle()
  }

  private pump(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    const { consumer } = this
    if (this.closed || consumer === undefined) return
    const t = this.settings.now()
    const plan = planStarts({
      t,
      window: this.window.values(),
      inFlight: this.inFlight,
      concurrency: this.settings.concurrency,
      laneOf: (item) => this.lanes.of(item),
      orderOf: consumer.orderOf,
      lane: (name) => this.lanes.view(name),
      readyLanes: this.lanes.openCount(t),
    })
    for (const { item, lane } of plan.starts) void this.attempt(consumer, item, lane).finally(() => this.pump())
    if (this.pending() === 0) {
      this.wakeIdle()
      return
    }
    const next = wakeAt(plan.soonest, this.lanes.nextResume(t), this.inFlight.size)
    if (next === undefined) return
    this.timer = setTimeout(() => this.pump(), Math.max(0, next - t))
    // Waiting retries must not keep a process alive on their own; drain() holds it when needed.
    this.timer.unref()
  }
}

export function createOutbox(options: OutboxOptions): Outbox {
  const outbox = new JournaledQueue(options)
  const { send } = options
  if (send !== undefined) outbox.attach({ ...options, send })
  return outbox
}
