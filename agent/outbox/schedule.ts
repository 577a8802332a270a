// When an outbox item goes out, and what a failed attempt makes of it. Pure: no clock (`t` is passed
// in), no I/O, no timers; the outbox (outbox.ts) keeps the state and applies what these decide.
//
// When an item is due:
// 1. A restart, drain(), wake() and an item coming back from the spill try it now: backoff computed
//    earlier is not waited out. Only a server's Retry-After (`notBefore`) still holds it (`retryNow`).
// Which items start at a pump (`planStarts`), scanning the window in enqueue order:
// 2. Items sharing an order key (an incident) go one at a time, in enqueue order: a later item
//    waits while an earlier one of its key is in flight or waiting, a retry included.
// 3. An item already in flight is not started again.
// 4. An item whose lane is full (its limit in flight) or paused by a Retry-After waits; the other
//    lanes go on.
// 5. An item not yet due waits; the soonest due time among those is kept for the timer.
// 6. At most `concurrency` deliveries are in flight, all lanes together; the scan stops once no
//    lane can take more (a window full of one channel costs a look at a few items, not all of them).
// 7. The timer (`wakeAt`) is set only while nothing is in flight (an attempt's end pumps again), for
//    the soonest due item or the end of a lane's pause, whichever comes first.
// What a failed attempt does (`afterFailure`; `attempts` counts the one that just failed):
// 8. Held (another agent of a fleet holds the item's claim): not a failed attempt. It is not counted,
//    waits what the holder's claim says (or the base delay), and neither binds a Retry-After nor
//    pauses its lane.
// 9. Not recoverable (a bad request, a bug), or recoverable but ambiguous (the far end may have acted
//    on it) while `retryAmbiguous` is off: a dead letter at once.
// 10. Out of attempts (`maxAttempts`) or older than `maxAgeMs`: a dead letter.
// 11. Otherwise a retry after the backoff (backoff.ts). A server's Retry-After is a floor: the item
//    records it (`notBefore`, journaled) and its whole lane pauses until then.
// 12. While draining, waits shrink to fit several more attempts into the time left, never below the
//    base delay nor below a Retry-After (backoff.ts, `retryDelay`).
// Where a new batch goes and when the journal is rewritten:
// 13. A batch goes to the spill once the window is full, and keeps going there while anything is
//    spilled, so enqueue order is kept (`spillNext`).
// 14. The journal is compacted once it holds more than 1000 records and four times what is pending.
import { retryDelay, type OutboxBackoff } from './backoff'
import type { FailureInfo } from './failure'
import type { OutboxItem } from './item'
import type { LaneView } from './lanes'

/** Rule 1: now, or later if the server asked for later. */
export function retryNow(item: Pick<OutboxItem, 'nextAttemptAt' | 'notBefore'>, t: number): number {
  return Math.max(Math.min(item.nextAttemptAt, t), item.notBefore ?? 0)
}

export interface PumpInput {
  t: number
  /** The items in memory, in enqueue order. */
  window: Iterable<OutboxItem>
  inFlight: ReadonlySet<string>
  concurrency: number
  laneOf(item: OutboxItem): string
  orderOf(item: OutboxItem): string | undefined
  lane(name: string): LaneView
  /** Lanes with items pending that are not in flight and that may start one at `t`. */
  readyLanes: number
}

export interface PumpPlan {
  starts: { item: OutboxItem; lane: string }[]
  /** The soonest time an item seen waiting on its backoff is due; Infinity when none. */
  soonest: number
}

/** Rules 2 to 6: the items to start now, in order. */
export function planStarts(input: PumpInput): PumpPlan {
  const { t } = input
  const started = new Map<string, number>()
  const busy = (lane: string, view: LaneView): number => view.inFlight + (started.get(lane) ?? 0)
  const open = (lane: string, view: LaneView): boolean => busy(lane, view) < view.limit && view.pausedUntil <= t
  const starts: PumpPlan['starts'] = []
  let soonest = Infinity
  let ready = input.readyLanes
  /** Order keys with an earlier item in flight or waiting: their later items wait behind it. */
  const held = new Set<string>()
  for (const item of input.window) {
    if (ready <= 0 || input.inFlight.size + starts.length >= input.concurrency) break
    const key = input.orderOf(item)
    if (key !== undefined) {
      if (held.has(key)) continue
      held.add(key)
    }
    if (input.inFlight.has(item.id)) continue
    const lane = input.laneOf(item)
    const view = input.lane(lane)
    if (!open(lane, view)) continue
    if (item.nextAttemptAt > t) {
      soonest = Math.min(soonest, item.nextAttemptAt)
      continue
    }
    starts.push({ item, lane })
    started.set(lane, (started.get(lane) ?? 0) + 1)
    if (!(view.pending > busy(lane, view) && open(lane, view))) ready--
  }
  return { starts, soonest }
}

/** Rule 7: when the pump should run again by itself; undefined: not by a timer. */
export function wakeAt(soonest: number, laneResume: number, inFlight: number): number | undefined {
  const next = Math.min(soonest, laneResume)
  return inFlight === 0 && next !== Infinity ? next : undefined
}

export interface FailurePolicy {
  maxAttempts: number
  maxAgeMs: number
  retryAmbiguous: boolean
  backoff: OutboxBackoff
  random: () => number
}

export type FailureOutcome =
  | { kind: 'dead'; attempts: number; reason: string; lastError: string }
  | {
      kind: 'retry'
      /** The attempts of the item from now on (a held item's attempt is not one). */
      attempts: number
      /** Whether this counts as a retry in the stats. */
      counted: boolean
      nextAttemptAt: number
      /** A server's Retry-After: no attempt before, and its lane pauses until then. */
      notBefore: number | undefined
      lastError: string
    }

/**
 * Rules 8 to 12. `item.attempts` includes the attempt that failed; `deadline` is when drain() gives
 * up, undefined when not draining.
 */
export function afterFailure(
  item: Pick<OutboxItem, 'attempts' | 'createdAt'>,
  failure: FailureInfo,
  policy: FailurePolicy,
  t: number,
  deadline: number | undefined,
): FailureOutcome {
  const attempts = failure.held ? item.attempts - 1 : item.attempts
  const lastError = `${failure.reason}: ${failure.message}`.slice(0, 500)
  const retryable = failure.recoverable && (policy.retryAmbiguous || !failure.ambiguous)
  const expired = attempts >= policy.maxAttempts || t - item.createdAt >= policy.maxAgeMs
  if (!retryable || expired) return { kind: 'dead', attempts, reason: failure.reason, lastError }
  const wait = retryDelay(failure, attempts, policy.backoff, policy.random, t, deadline)
  // Only a server's wait binds: a held item may be woken sooner, by the holder's sent mark.
  const binding = failure.retryAfterMs !== undefined && !failure.held
  return {
    kind: 'retry',
    attempts,
    counted: !failure.held,
    nextAttemptAt: t + wait,
    notBefore: binding ? t + (failure.retryAfterMs ?? 0) : undefined,
    lastError,
  }
}

/** Rule 13. */
export function spillNext(
  store: { canSpill: boolean; spilled: number },
  windowSize: number,
  memoryItems: number,
): boolean {
  return store.canSpill && (store.spilled > 0 || windowSize >= memoryItems)
}

/** Rule 14. */
export function shouldCompact(records: number, pending: number): boolean {
  return records > 1000 && records > pending * 4
}
