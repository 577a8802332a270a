import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MessagingApiError, MessagingErrorCodes } from '../../../agent/messaging/errors'
import {
  createOutbox,
  outboxDelay,
  replayJournal,
  OutboxError,
  OutboxErrorCodes,
  type OutboxItem,
} from '../../../agent/outbox'
import { suiteTempDir, tempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('outbox')
let n = 0
const journalPath = () => join(dir, `q${n++}`, 'outbox.jsonl')

const serverError = () => new MessagingApiError(MessagingErrorCodes.SERVER, '503', { status: 503, recoverable: true })
const badRequest = () => new MessagingApiError(MessagingErrorCodes.BAD_REQUEST, 'numbers: bad', { status: 400 })
const fast = { minDelayMs: 1, maxDelayMs: 5 }

describe('outbox', () => {
  it("holds its items, a previous run's too, until a consumer attaches; then sends them in its lanes", async () => {
    const path = journalPath()
    const first = createOutbox({ path })
    first.enqueue('sms', { text: 'left by the previous run' })
    await first.close()
    const next = createOutbox({ path })
    next.enqueue('sms', { text: 'new' })
    // Nothing to send with: nothing tried, nothing lost.
    await new Promise((resolve) => setImmediate(resolve))
    expect(next.stats()).toMatchObject({ pending: 2, inFlight: 0, delivered: 0 })
    const sent: unknown[] = []
    next.attach({ send: async (item) => void sent.push(item.payload), laneOf: () => 'oncall', limitOf: () => 1 })
    expect(await next.drain(5000)).toEqual({ drained: true, pending: 0 })
    expect(sent).toEqual([{ text: 'left by the previous run' }, { text: 'new' }])
    expect(Object.keys(next.stats().lanes)).toEqual(['oncall'])
    expect(() => next.attach({ send: async () => {} })).toThrow(OutboxError)
    await next.close()
  })

  it('delivers in memory and drains', async () => {
    const sent: unknown[] = []
    const outbox = createOutbox({ send: async (item) => void sent.push(item.payload) })
    outbox.enqueue('sms', { text: 'a' })
    outbox.enqueue('sms', { text: 'b' })
    expect(await outbox.drain(5000)).toEqual({ drained: true, pending: 0 })
    expect(sent).toEqual([{ text: 'a' }, { text: 'b' }])
    expect(outbox.stats()).toMatchObject({ pending: 0, delivered: 2, dead: 0 })
    await outbox.close()
  })

  it('retries recoverable failures with backoff until delivered', async () => {
    let calls = 0
    const outbox = createOutbox({
      backoff: fast,
      send: async () => {
        if (++calls < 4) throw serverError()
      },
    })
    outbox.enqueue('sms', {})
    expect((await outbox.drain(5000)).drained).toBe(true)
    expect(outbox.stats()).toMatchObject({ delivered: 1, retried: 3, dead: 0 })
  })

  it('dead-letters permanent failures at once and recoverable ones after maxAttempts', async () => {
    const dead: string[] = []
    const path = journalPath()
    const outbox = createOutbox({
      path,
      maxAttempts: 3,
      backoff: fast,
      onDead: (letter) => dead.push(`${letter.kind}:${letter.reason}:${letter.attempts}`),
      send: async (item) => {
        throw item.kind === 'bad' ? badRequest() : serverError()
      },
    })
    outbox.enqueue('bad', {})
    outbox.enqueue('flaky', {})
    await outbox.drain(5000)
    expect(dead.sort()).toEqual(['bad:LOGX_MSG_ERR_BAD_REQUEST:1', 'flaky:LOGX_MSG_ERR_SERVER:3'])
    expect(outbox.deadLetters()).toHaveLength(2)
    const letters = readFileSync(`${path}.dead`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(letters.map((l) => l.kind).sort()).toEqual(['bad', 'flaky'])
    await outbox.close()
  })

  it('does not retry errors without the recoverable flag (bugs fail the same way twice)', async () => {
    let calls = 0
    const outbox = createOutbox({
      backoff: fast,
      send: async () => {
        calls++
        throw new TypeError('oops')
      },
    })
    outbox.enqueue('sms', {})
    await outbox.drain(1000)
    expect(calls).toBe(1)
    expect(outbox.deadLetters()[0]?.reason).toBe('TypeError')
  })

  it('can refuse to retry ambiguous failures', async () => {
    let calls = 0
    const outbox = createOutbox({
      retryAmbiguous: false,
      send: async () => {
        calls++
        throw new MessagingApiError(MessagingErrorCodes.TIMEOUT, 't', { recoverable: true, ambiguous: true })
      },
    })
    outbox.enqueue('sms', {})
    await outbox.drain(1000)
    expect(calls).toBe(1)
  })

  it('keeps undelivered items in the journal across a restart and sends them then', async () => {
    const path = journalPath()
    const first = createOutbox({
      path,
      backoff: { minDelayMs: 60_000, maxDelayMs: 60_000 },
      send: async () => {
        throw serverError()
      },
    })
    first.enqueue('sms', { text: 'survives' })
    first.enqueue('sms', { text: 'also' })
    const result = await first.drain(50)
    expect(result.drained).toBe(false)
    await first.close()

    const sent: unknown[] = []
    let delivered: () => void = () => {}
    const both = new Promise<void>((resolve) => {
      delivered = resolve
    })
    const second = createOutbox({
      path,
      send: async (item) => {
        sent.push(item.payload)
        if (sent.length === 2) delivered()
      },
    })
    // Replayed items go out on their own, without a new enqueue or a drain.
    await both
    expect((await second.drain(5000)).drained).toBe(true)
    expect(sent).toEqual([{ text: 'survives' }, { text: 'also' }])
    await second.close()

    const third = createOutbox({ path, send: async () => {} })
    expect(third.stats().pending).toBe(0)
    await third.close()
  })

  it('skips a torn last line left by a crash', async () => {
    const path = journalPath()
    const item: OutboxItem = {
      id: 'a',
      kind: 'sms',
      payload: { text: 'x' },
      createdAt: 1,
      attempts: 0,
      nextAttemptAt: 1,
    }
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, `${JSON.stringify({ op: 'add', item })}\n{"op":"add","item":{"id":"b","ki`)
    const sent: unknown[] = []
    const outbox = createOutbox({ path, send: async (i) => void sent.push(i.id) })
    await outbox.drain(5000)
    expect(sent).toEqual(['a'])
    await outbox.close()
  })

  it('compacts the journal atomically once it grows past what is pending', async () => {
    const path = journalPath()
    const outbox = createOutbox({ path, send: async () => {} })
    for (let i = 0; i < 1500; i++) outbox.enqueue('sms', { i })
    await outbox.drain(10_000)
    await outbox.close()
    expect(existsSync(`${path}.tmp`)).toBe(false)
    // Far fewer than the 3000 add/done records written.
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBeLessThan(1100)
    expect(replayJournal(readFileSync(path, 'utf8'))).toEqual([])
  })

  it('drain is bounded by its timeout', async () => {
    const outbox = createOutbox({ send: () => new Promise(() => {}) })
    outbox.enqueue('sms', {})
    expect(await outbox.drain(50)).toEqual({ drained: false, pending: 1 })
    await outbox.close()
  })

  it('rejects enqueue after close and bad options', async () => {
    const outbox = createOutbox({ send: async () => {} })
    await outbox.close()
    expect(() => outbox.enqueue('sms', {})).toThrow(OutboxError)
    expect(() => createOutbox({ send: async () => {}, maxAttempts: 0 })).toThrow('outbox.maxAttempts')
    try {
      createOutbox({ send: async () => {}, concurrency: 0 })
    } catch (err) {
      expect((err as OutboxError).code).toBe(OutboxErrorCodes.INVALID_OPTION)
    }
  })

  it('reports an unusable journal path with its code', () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    expect(() => createOutbox({ path: join(file, 'sub', 'outbox.jsonl'), send: async () => {} })).toThrow(
      expect.objectContaining({ code: OutboxErrorCodes.JOURNAL }),
    )
  })
})

describe('outbox backoff', () => {
  it('grows exponentially, is capped, jitters in the upper half, honours Retry-After', () => {
    const policy = { minDelayMs: 100, maxDelayMs: 1000, factor: 2 }
    expect(outboxDelay(1, policy, () => 0)).toBe(50)
    expect(outboxDelay(1, policy, () => 1)).toBe(100)
    expect(outboxDelay(3, policy, () => 1)).toBe(400)
    expect(outboxDelay(10, policy, () => 1)).toBe(1000)
    expect(outboxDelay(1, policy, () => 0, 700)).toBe(700)
  })

  it('honours a Retry-After longer than the cap: never sooner than the server asked', () => {
    const policy = { minDelayMs: 100, maxDelayMs: 1000, factor: 2 }
    expect(outboxDelay(1, policy, () => 0, 5000)).toBe(5000)
    expect(outboxDelay(20, policy, () => 1, 120_000)).toBe(120_000)
  })
})

describe('one outbox per journal file in a process', () => {
  it('a second outbox on the same file is refused, naming who holds it; the file is free once the first closes', async () => {
    const dir = tempDir('outbox-claim')
    const path = join(dir, 'q.jsonl')
    const first = createOutbox({ path, owner: 'logx-sms-alert', send: async () => {} })
    let err: unknown
    try {
      createOutbox({ path: join(dir, 'sub', '..', 'q.jsonl'), owner: 'logx-chat-alert', send: async () => {} })
    } catch (caught) {
      err = caught
    }
    expect(err).toBeInstanceOf(OutboxError)
    expect(err).toMatchObject({ code: OutboxErrorCodes.IN_USE, holder: 'logx-sms-alert' })
    await first.close()
    const again = createOutbox({ path, owner: 'logx-chat-alert', send: async () => {} })
    await again.close()
  })
})
