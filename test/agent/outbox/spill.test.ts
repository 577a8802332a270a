// Bounded memory: past `memoryItems` the outbox spills to disk, in order, and reads the spill back
// as the window drains; across a restart nothing is lost or repeated; consumed segments are deleted.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MessagingApiError, MessagingErrorCodes } from '../../../agent/messaging/errors'
import { createOutbox, replayJournal, type OutboxItem } from '../../../agent/outbox'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('outbox-spill')
let n = 0
const journalPath = () => join(dir, `q${n++}`, 'outbox.jsonl')
const spillFiles = (path: string): string[] =>
  readdirSync(dirname(path))
    .filter((f) => f.includes('.spill.'))
    .sort()
const refused = () => new MessagingApiError(MessagingErrorCodes.NETWORK, 'connect ECONNREFUSED', { recoverable: true })

/** A send that holds every delivery until released, recording what it was given. */
function gate(): { send: (item: OutboxItem) => Promise<void>; open(): void; sent: number[] } {
  const sent: number[] = []
  let opened = false
  const waiting: (() => void)[] = []
  return {
    sent,
    async send(item) {
      if (!opened) await new Promise<void>((resolve) => waiting.push(resolve))
      sent.push((item.payload as { i: number }).i)
    },
    open() {
      opened = true
      for (const wake of waiting.splice(0)) wake()
    },
  }
}

describe('outbox spill', () => {
  it('holds at most memoryItems in memory, spills the rest, and delivers all in order', async () => {
    const path = journalPath()
    const g = gate()
    const outbox = createOutbox({ path, memoryItems: 10, concurrency: 1, send: g.send })
    for (let i = 0; i < 2000; i++) outbox.enqueue('sms', { i, text: `incident ${i}` })
    expect(outbox.stats()).toMatchObject({ pending: 2000, spilled: 1990 })
    // The journal holds the window, not the backlog.
    expect(replayJournal(readFileSync(path, 'utf8'))).toHaveLength(10)
    expect(spillFiles(path)).toHaveLength(1)
    g.open()
    expect(await outbox.drain(20_000)).toEqual({ drained: true, pending: 0 })
    expect(g.sent).toEqual(Array.from({ length: 2000 }, (_, i) => i))
    expect(outbox.stats()).toMatchObject({ pending: 0, spilled: 0, delivered: 2000 })
    // Consumed segments are deleted once the spill is empty.
    expect(spillFiles(path)).toEqual([])
    await outbox.close()
    expect(replayJournal(readFileSync(path, 'utf8'))).toEqual([])
  })

  it('keeps spilling while anything is spilled, so order holds even as the window frees up', async () => {
    const path = journalPath()
    const sent: number[] = []
    let fail = true
    const outbox = createOutbox({
      path,
      memoryItems: 3,
      concurrency: 1,
      backoff: { minDelayMs: 1, maxDelayMs: 2 },
      send: async (item) => {
        if (fail) throw refused()
        sent.push((item.payload as { i: number }).i)
      },
    })
    for (let i = 0; i < 10; i++) outbox.enqueue('sms', { i })
    fail = false
    await outbox.drain(5000)
    for (let i = 10; i < 20; i++) outbox.enqueue('sms', { i })
    await outbox.drain(5000)
    expect(sent).toEqual(Array.from({ length: 20 }, (_, i) => i))
    await outbox.close()
  })

  it('survives a restart mid-spill: every item once, oldest first', async () => {
    const path = journalPath()
    const first = createOutbox({
      path,
      memoryItems: 5,
      concurrency: 1,
      backoff: { minDelayMs: 60_000, maxDelayMs: 60_000 },
      send: async () => {
        throw refused()
      },
    })
    for (let i = 0; i < 50; i++) first.enqueue('sms', { i })
    await first.close()

    // Part of the spill is taken in the second run, then it stops again.
    const g = gate()
    const second = createOutbox({ path, memoryItems: 5, concurrency: 1, send: g.send })
    expect(second.stats()).toMatchObject({ pending: 50, spilled: 45 })
    g.open()
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (g.sent.length >= 17) {
          clearInterval(poll)
          resolve()
        }
      }, 1)
    })
    await second.close()
    // A delivery in flight at close() journals its outcome when it ends.
    while (second.stats().inFlight > 0) await new Promise((r) => setTimeout(r, 1))

    const rest: number[] = []
    const third = createOutbox({
      path,
      memoryItems: 5,
      send: async (item) => void rest.push((item.payload as { i: number }).i),
    })
    expect(await third.drain(10_000)).toEqual({ drained: true, pending: 0 })
    await third.close()
    const all = [...g.sent, ...rest]
    expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(spillFiles(path)).toEqual([])
  })

  it('rolls over to new segment files and deletes each once read', async () => {
    const path = journalPath()
    const g = gate()
    const outbox = createOutbox({ path, memoryItems: 2, concurrency: 1, spillSegmentBytes: 1024, send: g.send })
    for (let i = 0; i < 300; i++) outbox.enqueue('sms', { i, text: 'x'.repeat(40) })
    expect(spillFiles(path).length).toBeGreaterThan(5)
    g.open()
    expect((await outbox.drain(10_000)).drained).toBe(true)
    expect(g.sent).toEqual(Array.from({ length: 300 }, (_, i) => i))
    expect(spillFiles(path)).toEqual([])
    await outbox.close()
  })

  it('compacts the journal while spilling and keeps where the spill was read', async () => {
    const path = journalPath()
    const sent: number[] = []
    const outbox = createOutbox({
      path,
      memoryItems: 4,
      concurrency: 1,
      send: async (item) => void sent.push((item.payload as { i: number }).i),
    })
    for (let i = 0; i < 3000; i++) outbox.enqueue('sms', { i })
    await outbox.drain(20_000)
    expect(sent).toHaveLength(3000)
    // 3000 adds and 3000 dones were written; compaction kept the journal short.
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBeLessThan(1100)
    await outbox.close()
    expect(existsSync(`${path}.tmp`)).toBe(false)
  })

  it('skips a spilled item the journal already holds, and a line torn by a machine crash', async () => {
    const path = journalPath()
    mkdirSync(dirname(path), { recursive: true })
    const item = (id: string, i: number): OutboxItem => ({
      id,
      kind: 'sms',
      payload: { i },
      createdAt: 1,
      attempts: 0,
      nextAttemptAt: 1,
    })
    // The journal took `a` from the spill, and the cursor record that says so was lost.
    writeFileSync(path, `${JSON.stringify({ op: 'add', item: item('a', 0) })}\n`)
    writeFileSync(
      `${path}.spill.0`,
      [item('a', 0), item('b', 1)].map((x) => JSON.stringify(x)).join('\n') +
        '\n{"id":"c","ki\n' +
        `${JSON.stringify(item('d', 3))}\n`,
    )
    const sent: number[] = []
    const outbox = createOutbox({
      path,
      memoryItems: 1,
      concurrency: 1,
      send: async (x) => void sent.push((x.payload as { i: number }).i),
    })
    await outbox.drain(5000)
    expect(sent).toEqual([0, 1, 3])
    await outbox.close()
  })

  it('does not spill without a journal (nowhere to spill to)', async () => {
    const g = gate()
    const outbox = createOutbox({ memoryItems: 2, send: g.send })
    for (let i = 0; i < 5; i++) outbox.enqueue('sms', { i })
    expect(outbox.stats()).toMatchObject({ pending: 5, spilled: 0 })
    g.open()
    await outbox.drain(5000)
    expect(g.sent).toHaveLength(5)
    outbox.sync()
    await outbox.close()
  })

  it('sync() flushes the journal and the spill and never throws', async () => {
    const path = journalPath()
    const errors: Error[] = []
    const g = gate()
    const outbox = createOutbox({ path, memoryItems: 1, send: g.send, onError: (err) => errors.push(err) })
    for (let i = 0; i < 5; i++) outbox.enqueue('sms', { i })
    outbox.sync()
    expect(errors).toEqual([])
    g.open()
    await outbox.drain(5000)
    await outbox.close()
    outbox.sync()
    expect(errors).toEqual([])
  })
})

describe('outbox syncAsync', () => {
  it('flushes the journal and the spill off the event loop', async () => {
    const path = journalPath()
    const g = gate()
    const errors: Error[] = []
    const outbox = createOutbox({
      path,
      memoryItems: 5,
      concurrency: 1,
      send: g.send,
      onError: (err) => errors.push(err),
    })
    for (let i = 0; i < 50; i++) outbox.enqueue('sms', { i, text: `incident ${i}` })
    expect(spillFiles(path).length).toBeGreaterThan(0)
    await outbox.syncAsync()
    expect(errors).toEqual([])
    g.open()
    await outbox.drain(5000)
    expect(g.sent).toEqual(Array.from({ length: 50 }, (_, i) => i))
    await outbox.close()
  })

  it('reports a journal it cannot flush, rejecting, and flushes it on the next call', async () => {
    const path = journalPath()
    const g = gate()
    const errors: Error[] = []
    const outbox = createOutbox({ path, concurrency: 1, send: g.send, onError: (err) => errors.push(err) })
    outbox.enqueue('sms', { i: 0, text: 'incident 0' })
    // A journal that cannot be opened (here: moved away) fails the sync.
    const moved = `${path}.moved`
    renameSync(path, moved)
    await expect(outbox.syncAsync()).rejects.toMatchObject({
      code: 'LOGX_OUTBOX_ERR_JOURNAL',
      message: expect.stringContaining(path),
    })
    expect(errors).toHaveLength(1)
    renameSync(moved, path)
    // Nothing new was written, but what failed is flushed now.
    await outbox.syncAsync()
    expect(errors).toHaveLength(1)
    g.open()
    await outbox.drain(5000)
    expect(g.sent).toEqual([0])
    await outbox.close()
  })
})
