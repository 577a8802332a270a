// Long outages: recoverable failures are retried until the item is too old (not after N tries), a
// permanent failure is a dead letter at once, and a Retry-After is a floor that neither drain()'s
// squeezed waits nor a restart lowers.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MessagingApiError, MessagingErrorCodes } from '../../../agent/messaging/errors'
import { createOutbox } from '../../../agent/outbox'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('outbox-retry')
let n = 0
const journalPath = () => join(dir, `q${n++}`, 'outbox.jsonl')

const refused = () => new MessagingApiError(MessagingErrorCodes.NETWORK, 'connect ECONNREFUSED', { recoverable: true })
const rateLimited = (retryAfterMs: number) =>
  new MessagingApiError(MessagingErrorCodes.RATE_LIMITED, 'slow down', { status: 429, recoverable: true, retryAfterMs })
const badRequest = () => new MessagingApiError(MessagingErrorCodes.BAD_REQUEST, 'numbers: bad', { status: 400 })
const fast = { minDelayMs: 1, maxDelayMs: 2 }

describe('outbox retries during a long outage', () => {
  it('keeps retrying a recoverable failure well past ten attempts, then delivers', async () => {
    let calls = 0
    const outbox = createOutbox({
      backoff: fast,
      send: async () => {
        if (++calls <= 25) throw refused()
      },
    })
    outbox.enqueue('sms', {})
    expect((await outbox.drain(10_000)).drained).toBe(true)
    expect(outbox.stats()).toMatchObject({ delivered: 1, retried: 25, dead: 0 })
  })

  it('gives up on an item once it is older than maxAgeMs (and only after a failed attempt)', async () => {
    let skew = 0
    const dead: string[] = []
    const outbox = createOutbox({
      backoff: fast,
      maxAgeMs: 60_000,
      now: () => Date.now() + skew,
      onDead: (letter) => dead.push(`${letter.reason}:${letter.attempts}`),
      send: async () => {
        // The outage lasts: each attempt happens a little later on the clock.
        skew += 2_500
        throw refused()
      },
    })
    outbox.enqueue('sms', {})
    await outbox.drain(10_000)
    // 24 attempts fit into 60 s of item age at 2.5 s each; the one that ends past it is the last.
    expect(dead).toEqual(['LOGX_MSG_ERR_NETWORK:24'])
    expect(outbox.deadLetters()[0]?.lastError).toContain('ECONNREFUSED')
  })

  it('still dead-letters a permanent failure at once, and honours an explicit maxAttempts', async () => {
    const dead: string[] = []
    const outbox = createOutbox({
      backoff: fast,
      maxAttempts: 3,
      onDead: (letter) => dead.push(`${letter.kind}:${letter.attempts}`),
      send: async (item) => {
        throw item.kind === 'bad' ? badRequest() : refused()
      },
    })
    outbox.enqueue('bad', {})
    outbox.enqueue('flaky', {})
    await outbox.drain(5000)
    expect(dead.sort()).toEqual(['bad:1', 'flaky:3'])
  })

  it('rejects a maxAgeMs or memoryItems below 1', () => {
    expect(() => createOutbox({ send: async () => {}, maxAgeMs: 0 })).toThrow('outbox.maxAgeMs')
    expect(() => createOutbox({ send: async () => {}, memoryItems: 0 })).toThrow('outbox.memoryItems')
  })
})

describe('outbox and Retry-After', () => {
  it('drain() squeezes its waits, but never below the Retry-After', async () => {
    const calls: number[] = []
    const outbox = createOutbox({
      backoff: { minDelayMs: 1, maxDelayMs: 10 },
      send: async () => {
        calls.push(Date.now())
        if (calls.length === 1) throw rateLimited(300)
      },
    })
    outbox.enqueue('sms', {})
    // 4 s left: squeezed waits would be at most max(min, 1 s) = 10 ms without the Retry-After.
    expect((await outbox.drain(4000)).drained).toBe(true)
    expect(calls).toHaveLength(2)
    // One millisecond of slack: timers and Date.now() round differently.
    expect((calls[1] as number) - (calls[0] as number)).toBeGreaterThanOrEqual(299)
  })

  it('a Retry-After longer than the backoff cap is waited out, not cut to the cap', async () => {
    let calls = 0
    const outbox = createOutbox({
      backoff: { minDelayMs: 1, maxDelayMs: 5 },
      send: async () => {
        calls++
        throw rateLimited(60_000)
      },
    })
    outbox.enqueue('sms', {})
    // drain() tries everything now, except what the server asked to hold back.
    expect(await outbox.drain(300)).toEqual({ drained: false, pending: 1 })
    expect(calls).toBe(1)
    expect(await outbox.drain(100)).toEqual({ drained: false, pending: 1 })
    expect(calls).toBe(1)
    await outbox.close()
  })

  it('a restart honours a Retry-After the previous run was told', async () => {
    const path = journalPath()
    const first = createOutbox({
      path,
      send: async () => {
        throw rateLimited(60_000)
      },
    })
    first.enqueue('sms', { text: 'later' })
    await first.drain(200)
    await first.close()

    let calls = 0
    const second = createOutbox({ path, send: async () => void calls++ })
    expect(await second.drain(200)).toEqual({ drained: false, pending: 1 })
    expect(calls).toBe(0)
    await second.close()
  })

  it('without a Retry-After a restart still tries at once', async () => {
    const path = journalPath()
    const first = createOutbox({
      path,
      backoff: { minDelayMs: 60_000, maxDelayMs: 60_000 },
      send: async () => {
        throw refused()
      },
    })
    first.enqueue('sms', {})
    await first.drain(50)
    await first.close()
    const second = createOutbox({ path, send: async () => {} })
    expect(await second.drain(2000)).toEqual({ drained: true, pending: 0 })
    await second.close()
  })
})
