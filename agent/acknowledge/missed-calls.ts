// The missed-call poller: reads `missed_record` through the messaging client every interval, newest
// first, page by page until it reaches what it saw before, and hands each new call over once,
// oldest first (missed-calls-cursor.ts decides which are new; this does the I/O). The contract:
// - At least once, in order: onCalls gets the new calls, then the seen-state is saved (temp file +
//   rename). A crash in between offers them again after the restart, and so does onCalls throwing
//   (at the next poll): the consumer dedups by call id.
// - First start (no state file): the calls already listed are taken as seen and not handed over.
// - One attempt per request: a failed page fails the poll (nothing handed, nothing remembered), is
//   counted, logged once per distinct failure, and the next poll waits the server's Retry-After
//   when that is longer than the interval. Nothing is thrown out of the timer or out of pollNow.
// - Polls never overlap (a setTimeout chain, unref'd so it holds no process open); stop() waits
//   for the poll in flight.
// The parts: page-reader.ts reads, seen-store.ts keeps, poll-failures.ts names failures,
// poll-loop.ts times the polls; this file is one poll's order of things.
import type { MessagingClient } from '../messaging'
import type { DeliveryLog } from '../delivery/types'
import { handover, MAX_PAGES, remember, type MissedCall, type SeenState } from './missed-calls-cursor'
import { createPageReader, type PagesRead } from './page-reader'
import { createFailureLog, failureOf, type FailureLog } from './poll-failures'
import { createPollLoop, pollInterval } from './poll-loop'
import { createSeenStore, type SeenStore } from './seen-store'
import type { MissedCallPoller, MissedCallPollerStats } from './types'

export type { MissedCall } from './missed-calls-cursor'
export type { MissedCallPoller, MissedCallPollerStats } from './types'

export interface MissedCallPollerOptions {
  client: Pick<MessagingClient, 'listMissedCallRecords'>
  /** `<state_dir>/missed-calls.json`; undefined: memory only. */
  statePath: string | undefined
  intervalMs: number
  /** Only calls TO this number count (samePhone); undefined: every call. */
  calledNumber: string | undefined
  /** New calls, oldest first, synchronous; may throw (then those calls are offered again next poll). */
  onCalls(calls: MissedCall[]): void
  log: DeliveryLog
  now: () => number
}

interface PollResult {
  calls: number
  pages: number
  waitMs: number
}

/** What one poll needs beside its options: the seen-state and where it is kept, its failures. */
interface PollParts {
  seen: { state: SeenState | undefined }
  store: SeenStore
  failures: FailureLog
  stats: MissedCallPollerStats
}

/** Keeps the new state (in memory even when the file cannot be written: the consumer dedups). */
function commit(parts: PollParts, next: SeenState): boolean {
  parts.seen.state = next
  try {
    parts.store.save(next)
    return true
  } catch (err) {
    parts.failures.failed(failureOf(err, 'save'))
    return false
  }
}

/** A first start: the calls listed now are taken as seen and handed over to no one. */
function firstStart(o: MissedCallPollerOptions, parts: PollParts, got: PagesRead): number {
  commit(parts, remember(undefined, got.fresh, got.complete))
  const text = 'missed calls: first start, the calls listed now are taken as seen and acknowledge nothing'
  o.log.info({ seen: got.fresh.length }, text)
  parts.failures.recovered()
  return 0
}

/** The new calls handed over, oldest first, then remembered; the number handed over. */
function handOver(o: MissedCallPollerOptions, parts: PollParts, got: PagesRead, pollTime: number): number {
  if (got.capped) {
    const text = `missed calls: more new calls than ${MAX_PAGES} pages hold; older ones skipped`
    o.log.warn({ pages: got.pages, read: got.fresh.length }, text)
  }
  const { calls, ignored } = handover(got.fresh, o.calledNumber, pollTime)
  if (calls.length > 0) {
    try {
      o.onCalls(calls)
    } catch (err) {
      parts.failures.failed(failureOf(err, 'hand over'))
      return 0
    }
  }
  if (ignored.length > 0) {
    const called = ignored.map((c) => c.called)
    o.log.info({ count: ignored.length, called }, 'missed calls to another number ignored')
  }
  parts.stats.calls += calls.length
  parts.stats.ignored += ignored.length
  const next = remember(parts.seen.state, got.fresh, got.complete)
  if (got.fresh.length > 0 && !commit(parts, next)) return calls.length
  parts.failures.recovered()
  return calls.length
}

async function poll(o: MissedCallPollerOptions, parts: PollParts, reader: ReturnType<typeof createPageReader>) {
  const pollTime = o.now()
  parts.stats.polls++
  parts.stats.lastPollAt = pollTime
  const got = await reader.read(parts.seen.state)
  if (got === undefined) return { calls: 0, pages: 0 }
  const calls = parts.seen.state === undefined ? firstStart(o, parts, got) : handOver(o, parts, got, pollTime)
  return { calls, pages: got.pages }
}

export function createMissedCallPoller(o: MissedCallPollerOptions): MissedCallPoller {
  const store = createSeenStore(o.statePath, o.log)
  const stats: MissedCallPollerStats = {
    polls: 0,
    calls: 0,
    ignored: 0,
    errors: 0,
    lastError: undefined,
    lastPollAt: undefined,
  }
  const failures = createFailureLog(o.log, stats)
  const parts: PollParts = { seen: { state: store.load() }, store, failures, stats }
  const reader = createPageReader(o.client, failures, o.log)

  /** One poll; `waitMs` is how long the server asked the next one to wait. Never rejects. */
  async function run(): Promise<PollResult> {
    failures.startPoll()
    try {
      return { ...(await poll(o, parts, reader)), waitMs: failures.waitMs }
    } catch (err) {
      // poll() handles its own failures; a bug surfacing here must not kill the timer.
      failures.failed(failureOf(err, 'poll'))
      return { calls: 0, pages: 0, waitMs: failures.waitMs }
    }
  }

  const loop = createPollLoop(pollInterval(o.intervalMs), run, (result) => result.waitMs)
  return {
    start: () => loop.start(),
    async pollNow() {
      const result = await loop.runNow()
      return result === undefined ? { calls: 0, pages: 0 } : { calls: result.calls, pages: result.pages }
    },
    stop: () => loop.stop(),
    stats: () => ({ ...stats }),
  }
}
