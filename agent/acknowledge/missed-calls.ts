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
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { replaceFile } from '../storage/replace-file'
import type { MessagingClient } from '../messaging'
import type { DeliveryLog } from '../delivery/types'
import { DeliveryError, DeliveryErrorCodes } from '../delivery/errors'
import {
  EMPTY_STATE,
  handover,
  judgePage,
  MAX_PAGES,
  nextStep,
  PER_PAGE,
  remember,
  stateOfStored,
  storedOf,
  type ListedCall,
  type MissedCall,
  type SeenState,
} from './missed-calls-cursor'

export type { MissedCall } from './missed-calls-cursor'

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

export interface MissedCallPollerStats {
  polls: number
  /** Calls handed to onCalls (and saved as seen). */
  calls: number
  /** Calls to another number than calledNumber. */
  ignored: number
  errors: number
  lastError: string | undefined
  lastPollAt: number | undefined
}

export interface MissedCallPoller {
  /** Polls now, then every interval. */
  start(): void
  /** One poll after any in flight; never rejects (a failure is counted and logged). */
  pollNow(): Promise<{ calls: number; pages: number }>
  /** No more polls; resolves when the one in flight is over. */
  stop(): Promise<void>
  stats(): MissedCallPollerStats
}

/** Shortest interval: a zero or broken one would poll a paid API in a tight loop. */
const MIN_INTERVAL_MS = 100

function loadState(file: string, log: DeliveryLog): SeenState | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot read ${file}: ${(err as Error).message}`, { cause: err })
  }
  let state: SeenState | undefined
  try {
    state = stateOfStored(JSON.parse(text))
  } catch {
    state = undefined
  }
  // A torn file cannot happen (rename); a foreign one is a first start: old calls are not handed over.
  if (state === undefined)
    log.warn({ file }, 'missed-call state unreadable: starting afresh, calls listed now are taken as seen')
  return state
}

function saveState(file: string, state: SeenState): void {
  try {
    replaceFile(file, JSON.stringify(storedOf(state)))
  } catch (err) {
    throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, { cause: err })
  }
}

interface Failure {
  /** Same key, same failure: logged once. */
  key: string
  message: string
  retryAfterMs: number | undefined
  fields: Record<string, unknown>
}

function failureOf(err: unknown, stage: 'list' | 'hand over' | 'save' | 'poll'): Failure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown
    status?: unknown
    retryAfterMs?: unknown
    message?: unknown
  }
  const code = typeof e.code === 'string' ? e.code : undefined
  const message = typeof e.message === 'string' ? e.message : String(err)
  const retryAfterMs = typeof e.retryAfterMs === 'number' && e.retryAfterMs > 0 ? e.retryAfterMs : undefined
  // A refusal to send before a Retry-After has passed is the same rate limit, not a new failure.
  const sameAs = code === 'LOGX_MSG_ERR_RETRY_AFTER' ? 'LOGX_MSG_ERR_RATE_LIMITED' : code
  // By code: a message carries the seconds left or the status, which vary within one outage.
  const key = sameAs !== undefined && stage === 'list' ? `${stage}:${sameAs}` : `${stage}:${message}`
  return { key, message, retryAfterMs, fields: { stage, code, status: e.status, retryAfterMs } }
}

export function createMissedCallPoller(o: MissedCallPollerOptions): MissedCallPoller {
  if (o.statePath !== undefined) mkdirSync(dirname(o.statePath), { recursive: true })
  let state: SeenState | undefined = o.statePath === undefined ? undefined : loadState(o.statePath, o.log)
  const intervalMs = Number.isFinite(o.intervalMs) ? Math.max(MIN_INTERVAL_MS, o.intervalMs) : MIN_INTERVAL_MS
  const stats: MissedCallPollerStats = {
    polls: 0,
    calls: 0,
    ignored: 0,
    errors: 0,
    lastError: undefined,
    lastPollAt: undefined,
  }
  let failing: string | undefined
  let malformedReported = false
  let waitMs = 0
  let chain: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let started = false
  let stopped = false

  function failed(f: Failure): void {
    stats.errors++
    stats.lastError = f.message
    waitMs = Math.max(waitMs, f.retryAfterMs ?? 0)
    if (failing === f.key) return
    failing = f.key
    o.log.warn({ ...f.fields, error: f.message }, 'missed-call poll failed')
  }

  function recovered(): void {
    if (failing === undefined) return
    failing = undefined
    o.log.info({}, 'missed-call polling recovered')
  }

  /** Pages until rule 7 says stop; undefined when a page failed. */
  async function read(
    firstStart: boolean,
  ): Promise<{ fresh: ListedCall[]; pages: number; complete: boolean; capped: boolean } | undefined> {
    const fresh: ListedCall[] = []
    const readThisPoll = new Set<string>()
    const known = state ?? EMPTY_STATE
    let malformed = 0
    for (let pages = 1; ; pages++) {
      let listing
      try {
        listing = await o.client.listMissedCallRecords({ perPage: PER_PAGE, page: pages })
      } catch (err) {
        failed(failureOf(err, 'list'))
        return undefined
      }
      const judged = judgePage(known, listing.records, readThisPoll)
      malformed += judged.malformed
      for (const call of judged.fresh) {
        readThisPoll.add(call.id)
        fresh.push(call)
      }
      const step = nextStep(judged, listing.hasMore, pages, firstStart)
      if (step === 'next') continue
      // Such a record stays in the listing: said once, not at every poll.
      if (malformed > 0 && !malformedReported) o.log.warn({ malformed }, 'missed-call records without an id skipped')
      malformedReported ||= malformed > 0
      const complete = judged.reachedKnown || !listing.hasMore
      return { fresh, pages, complete, capped: step === 'capped' }
    }
  }

  async function poll(): Promise<{ calls: number; pages: number }> {
    const pollTime = o.now()
    stats.polls++
    stats.lastPollAt = pollTime
    const firstStart = state === undefined
    const got = await read(firstStart)
    if (got === undefined) return { calls: 0, pages: 0 }
    const next = remember(state, got.fresh, got.complete)
    if (firstStart) {
      commit(next)
      o.log.info(
        { seen: got.fresh.length },
        'missed calls: first start, the calls listed now are taken as seen and acknowledge nothing',
      )
      recovered()
      return { calls: 0, pages: got.pages }
    }
    if (got.capped) {
      o.log.warn(
        { pages: got.pages, read: got.fresh.length },
        `missed calls: more new calls than ${MAX_PAGES} pages hold; older ones skipped`,
      )
    }
    const { calls, ignored } = handover(got.fresh, o.calledNumber, pollTime)
    if (calls.length > 0) {
      try {
        o.onCalls(calls)
      } catch (err) {
        failed(failureOf(err, 'hand over'))
        return { calls: 0, pages: got.pages }
      }
    }
    if (ignored.length > 0) {
      o.log.info(
        { count: ignored.length, called: ignored.map((c) => c.called) },
        'missed calls to another number ignored',
      )
    }
    stats.calls += calls.length
    stats.ignored += ignored.length
    if (got.fresh.length > 0 && !commit(next)) return { calls: calls.length, pages: got.pages }
    recovered()
    return { calls: calls.length, pages: got.pages }
  }

  /** Keeps the new state (in memory even when the file cannot be written: the consumer dedups). */
  function commit(next: SeenState): boolean {
    state = next
    if (o.statePath === undefined) return true
    try {
      saveState(o.statePath, next)
      return true
    } catch (err) {
      failed(failureOf(err, 'save'))
      return false
    }
  }

  /** One poll after any in flight; `waitMs` is how long the server asked this one to wait. */
  function exclusive(): Promise<{ calls: number; pages: number; waitMs: number }> {
    const run = chain.then(async () => {
      waitMs = 0
      try {
        return { ...(await poll()), waitMs }
      } catch (err) {
        // poll() handles its own failures; a bug surfacing here must not kill the timer.
        failed(failureOf(err, 'poll'))
        return { calls: 0, pages: 0, waitMs }
      }
    })
    chain = run
    return run
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      timer = undefined
      void exclusive().then((done) => {
        if (!stopped) schedule(Math.max(intervalMs, done.waitMs))
      })
    }, delayMs)
    timer.unref()
  }

  return {
    start() {
      if (started || stopped) return
      started = true
      schedule(0)
    },
    async pollNow() {
      if (stopped) return { calls: 0, pages: 0 }
      const { calls, pages } = await exclusive()
      return { calls, pages }
    },
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      await chain
    },
    stats: () => ({ ...stats }),
  }
}
