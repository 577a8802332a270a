// How a failed missed-call poll is named, counted and logged (agent/acknowledge/poll-failures.ts),
// one test per rule.
import { describe, expect, it } from 'vitest'
import { createFailureLog, failureOf } from '../../../agent/acknowledge/poll-failures'
import type { MissedCallPollerStats } from '../../../agent/acknowledge/types'
import type { DeliveryLog } from '../../../agent/delivery/types'

function recordingLog(): { log: DeliveryLog; lines: string[] } {
  const lines: string[] = []
  const push = (level: string) => (_fields: object, message: string) => void lines.push(`${level}: ${message}`)
  return { log: { info: push('info'), warn: push('warn'), error: push('error') }, lines }
}

const freshStats = (): MissedCallPollerStats => ({
  polls: 0,
  calls: 0,
  ignored: 0,
  errors: 0,
  lastError: undefined,
  lastPollAt: undefined,
})

describe('poll failures', () => {
  it('1. a thrown value gives its code and message; anything else is its text', () => {
    const coded = failureOf(Object.assign(new Error('boom'), { code: 'LOGX_X', status: 503 }), 'save')
    expect(coded).toMatchObject({ message: 'boom', fields: { stage: 'save', code: 'LOGX_X', status: 503 } })
    expect(failureOf('plain text', 'poll')).toMatchObject({ message: 'plain text', key: 'poll:plain text' })
  })

  it('2. the server asks for a wait only with a positive number', () => {
    expect(failureOf({ message: 'm', retryAfterMs: 2000 }, 'list').retryAfterMs).toBe(2000)
    expect(failureOf({ message: 'm', retryAfterMs: 0 }, 'list').retryAfterMs).toBeUndefined()
    expect(failureOf({ message: 'm', retryAfterMs: '2000' }, 'list').retryAfterMs).toBeUndefined()
  })

  it('3. a refusal before a Retry-After has passed is the rate limit itself', () => {
    const limited = failureOf({ code: 'LOGX_MSG_ERR_RATE_LIMITED', message: '429, retry in 30 s' }, 'list')
    const refused = failureOf({ code: 'LOGX_MSG_ERR_RETRY_AFTER', message: 'retry in 29 s' }, 'list')
    expect(refused.key).toBe(limited.key)
  })

  it('4. a listing failure is keyed by its code, any other failure by its message', () => {
    expect(failureOf({ code: 'LOGX_MSG_ERR_HTTP', message: 'status 502' }, 'list').key).toBe('list:LOGX_MSG_ERR_HTTP')
    expect(failureOf({ message: 'status 502' }, 'list').key).toBe('list:status 502')
    expect(failureOf({ code: 'LOGX_X', message: 'disk full' }, 'save').key).toBe('save:disk full')
  })

  it('5. a failure is logged when it differs from the last one; recovery once, after a failure; all counted', () => {
    const { log, lines } = recordingLog()
    const stats = freshStats()
    const failures = createFailureLog(log, stats)
    failures.recovered()
    const a = failureOf({ code: 'A', message: 'a' }, 'list')
    failures.failed(a)
    failures.failed(a)
    failures.failed(failureOf({ code: 'B', message: 'b' }, 'list'))
    failures.recovered()
    failures.recovered()
    expect(lines).toEqual([
      'warn: missed-call poll failed',
      'warn: missed-call poll failed',
      'info: missed-call polling recovered',
    ])
    expect(stats).toMatchObject({ errors: 3, lastError: 'b' })
  })
})
