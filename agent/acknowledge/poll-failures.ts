// How a failed missed-call poll is named, counted and logged. The rules (failureOf is pure):
// 1. Whatever was thrown gives its `code` and `message` when it has them; anything else is its text.
// 2. The server's wait (`retryAfterMs`) counts only when it is a positive number.
// 3. A refusal to send before a Retry-After has passed is the same rate limit, not a new failure.
// 4. A listing failure is known by its code (its message carries the seconds left or the status,
//    which vary within one outage); any other failure, or one without a code, by its message.
// 5. A failure is logged when it differs from the one logged last; recovery is logged once, and
//    only after a failure. Every failure is counted.
import type { DeliveryLog } from '../delivery/types'
import type { MissedCallPollerStats } from './types'

export type PollStage = 'list' | 'hand over' | 'save' | 'poll'

export interface Failure {
  /** Same key, same failure: logged once (rule 5). */
  key: string
  message: string
  retryAfterMs: number | undefined
  fields: Record<string, unknown>
}

export function failureOf(err: unknown, stage: PollStage): Failure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown
    status?: unknown
    retryAfterMs?: unknown
    message?: unknown
  }
  const code = typeof e.code === 'string' ? e.code : undefined
  const message = typeof e.message === 'string' ? e.message : String(err)
  const retryAfterMs = typeof e.retryAfterMs === 'number' && e.retryAfterMs > 0 ? e.retryAfterMs : undefined
  const sameAs = code === 'LOGX_MSG_ERR_RETRY_AFTER' ? 'LOGX_MSG_ERR_RATE_LIMITED' : code
  const key = sameAs !== undefined && stage === 'list' ? `${stage}:${sameAs}` : `${stage}:${message}`
  return { key, message, retryAfterMs, fields: { stage, code, status: e.status, retryAfterMs } }
}

/** The poller's failures: counted in its stats, logged by rule 5, and the longest wait asked for. */
export interface FailureLog {
  failed(f: Failure): void
  recovered(): void
  /** The longest Retry-After of the failures since the last `startPoll`. */
  readonly waitMs: number
  startPoll(): void
}

export function createFailureLog(log: DeliveryLog, stats: MissedCallPollerStats): FailureLog {
  let failing: string | undefined
  let waitMs = 0
  return {
    failed(f) {
      stats.errors++
      stats.lastError = f.message
      waitMs = Math.max(waitMs, f.retryAfterMs ?? 0)
      if (failing === f.key) return
      failing = f.key
      log.warn({ ...f.fields, error: f.message }, 'missed-call poll failed')
    },
    recovered() {
      if (failing === undefined) return
      failing = undefined
      log.info({}, 'missed-call polling recovered')
    },
    get waitMs() {
      return waitMs
    },
    startPoll() {
      waitMs = 0
    },
  }
}
