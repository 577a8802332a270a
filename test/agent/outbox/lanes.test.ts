// Several deliveries at once: a bound per lane (channel), one at a time and in order per order key
// (incident), a Retry-After that holds its lane only, and a crash with several in flight.
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createOutbox, type OutboxItem } from '../../../agent/outbox'
import { requireBuild } from '../../helpers/build'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('outbox-lanes')

interface Note {
  name: string
  lane: string
  incident?: string
}
const noteOf = (item: OutboxItem): Note => item.payload as Note
const lanesOf = {
  laneOf: (item: OutboxItem) => noteOf(item).lane,
  orderOf: (item: OutboxItem) => noteOf(item).incident,
}
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
const recoverable = (retryAfterMs?: number): Error =>
  Object.assign(new Error('busy'), {
    recoverable: true,
    code: retryAfterMs === undefined ? 'TEST_UNAVAILABLE' : 'TEST_RATE_LIMITED',
    retryAfterMs,
  })

describe('outbox lanes', () => {
  it("keeps at most each lane's limit in flight, and several lanes busy at once", async () => {
    const inFlight = new Map<string, number>()
    const most = new Map<string, number>()
    const delivered: string[] = []
    const outbox = createOutbox({
      ...lanesOf,
      limitOf: (lane) => (lane === 'sms' ? 2 : 3),
      async send(item) {
        const { lane, name } = noteOf(item)
        inFlight.set(lane, (inFlight.get(lane) ?? 0) + 1)
        most.set(lane, Math.max(most.get(lane) ?? 0, inFlight.get(lane) ?? 0))
        // Several turns, so that the other deliveries really overlap this one.
        for (let i = 0; i < 3; i++) await turn()
        inFlight.set(lane, (inFlight.get(lane) ?? 0) - 1)
        delivered.push(name)
      },
    })
    for (let i = 0; i < 20; i++) outbox.enqueue('sms', { name: `s${i}`, lane: 'sms' })
    for (let i = 0; i < 20; i++) outbox.enqueue('chat', { name: `c${i}`, lane: 'chat' })
    expect(outbox.stats().lanes).toMatchObject({
      sms: { inFlight: 2, pending: 20 },
      chat: { inFlight: 3, pending: 20 },
    })
    expect(await outbox.drain(10_000)).toEqual({ drained: true, pending: 0 })
    expect(Object.fromEntries(most)).toEqual({ sms: 2, chat: 3 })
    expect(delivered.sort()).toEqual(
      [...Array.from({ length: 20 }, (_, i) => `c${i}`), ...Array.from({ length: 20 }, (_, i) => `s${i}`)].sort(),
    )
    await outbox.close()
  })

  it("sends one incident's items one at a time and in the order made, failures and retries included", async () => {
    const started: Note[] = []
    const busy = new Set<string>()
    const overlaps: string[] = []
    const failedOnce = new Set<string>()
    const outbox = createOutbox({
      ...lanesOf,
      limitOf: () => 8,
      backoff: { minDelayMs: 1, maxDelayMs: 4 },
      async send(item) {
        const note = noteOf(item)
        const incident = note.incident as string
        if (busy.has(incident)) overlaps.push(note.name)
        busy.add(incident)
        started.push(note)
        for (let i = 0; i < (note.name.length % 3) + 1; i++) await turn()
        busy.delete(incident)
        // Every third item fails once: its incident's later items must wait for its retry.
        if (Number(note.name.slice(1)) % 3 === 0 && !failedOnce.has(note.name)) {
          failedOnce.add(note.name)
          throw recoverable()
        }
      },
    })
    const made = Array.from({ length: 30 }, (_, i): Note => ({
      name: `n${i}`,
      lane: i % 2 === 0 ? 'sms' : 'chat',
      incident: `inc${i % 4}`,
    }))
    for (const note of made) outbox.enqueue(note.lane, note)
    expect(await outbox.drain(10_000)).toEqual({ drained: true, pending: 0 })
    expect(overlaps).toEqual([])
    for (let k = 0; k < 4; k++) {
      // Attempts of one incident, a failed one repeated before the next of its items goes.
      const attempts = started.filter((n) => n.incident === `inc${k}`).map((n) => n.name)
      const expected = made
        .filter((n) => n.incident === `inc${k}`)
        .flatMap((n) => (Number(n.name.slice(1)) % 3 === 0 ? [n.name, n.name] : [n.name]))
      expect(attempts).toEqual(expected)
    }
    // And the incidents did go out side by side.
    expect(
      started
        .slice(0, 4)
        .map((n) => n.incident)
        .sort(),
    ).toEqual(['inc0', 'inc1', 'inc2', 'inc3'])
    await outbox.close()
  })

  it('a Retry-After holds its lane only: the other lanes go on, and the held one waits it out', async () => {
    const clock = (): number => Date.now()
    // Each attempt notes the SMS lane's pause as the outbox knew it when the attempt started: an attempt
    // already in flight when the 429 came back is not held, and cannot be told apart by its clock alone.
    const attempts: { name: string; at: number; pausedUntil: number }[] = []
    let limitedAt = 0
    const outbox = createOutbox({
      ...lanesOf,
      now: clock,
      async send(item) {
        const { name } = noteOf(item)
        attempts.push({ name, at: clock(), pausedUntil: outbox.stats().lanes.sms?.pausedUntil ?? 0 })
        if (name === 'sms0' && limitedAt === 0) {
          limitedAt = clock()
          throw recoverable(300)
        }
      },
    })
    outbox.enqueue('sms', { name: 'sms0', lane: 'sms' })
    for (let i = 1; i < 6; i++) outbox.enqueue('sms', { name: `sms${i}`, lane: 'sms' })
    for (let i = 0; i < 6; i++) outbox.enqueue('chat', { name: `chat${i}`, lane: 'chat' })
    const deadline = Date.now() + 5000
    while (outbox.stats().delivered < 6 + 3 && Date.now() < deadline) await turn()
    // The chat lane delivered everything while the SMS lane was held after its 429.
    const chat = attempts.filter((a) => a.name.startsWith('chat'))
    expect(chat).toHaveLength(6)
    expect(outbox.stats().lanes.sms?.pausedUntil).toBeGreaterThanOrEqual(limitedAt + 300)
    expect(outbox.stats().lanes.sms?.inFlight).toBe(0)
    expect(await outbox.drain(10_000)).toEqual({ drained: true, pending: 0 })
    const sms = attempts.filter((a) => a.name.startsWith('sms'))
    expect(sms.map((a) => a.name).sort()).toEqual(['sms0', 'sms0', 'sms1', 'sms2', 'sms3', 'sms4', 'sms5'])
    // Every SMS attempt started once the 429 was known waited for its Retry-After, the resend of sms0 among them.
    const held = sms.filter((a) => a.pausedUntil > 0)
    expect(held.map((a) => a.name)).toContain('sms0')
    for (const a of held) expect(a.at).toBeGreaterThanOrEqual(a.pausedUntil)
    await outbox.close()
  })

  it('an item held by a peer waits on its own: its lane goes on, and the waits are not attempts', async () => {
    let holds = 0
    const order: string[] = []
    const outbox = createOutbox({
      ...lanesOf,
      maxAttempts: 2,
      async send(item) {
        const { name } = noteOf(item)
        // Another agent holds this one's claim five times before it is this agent's to send.
        if (name === 'held' && holds < 5) {
          holds++
          throw Object.assign(new Error('claimed by agent b'), {
            recoverable: true,
            held: true,
            code: 'TEST_HELD',
            retryAfterMs: 20,
          })
        }
        order.push(name)
      },
    })
    outbox.enqueue('sms', { name: 'held', lane: 'sms' })
    for (let i = 0; i < 3; i++) outbox.enqueue('sms', { name: `next${i}`, lane: 'sms' })
    expect(await outbox.drain(10_000)).toEqual({ drained: true, pending: 0 })
    expect(holds).toBe(5)
    // Past maxAttempts (2) and not dead: a wait for a peer is not a failed attempt.
    expect(outbox.stats()).toMatchObject({ dead: 0, delivered: 4 })
    // The lane was not paused: the others went before the held one was free.
    expect(order.slice(0, 3)).toEqual(['next0', 'next1', 'next2'])
    expect(order[3]).toBe('held')
    await outbox.close()
  })

  it('a held item waits what its holder said, and goes at once when woken (what it waited on happened)', async () => {
    let holds = 0
    let heldOnce: () => void = () => undefined
    const wasHeld = new Promise<void>((resolve) => (heldOnce = resolve))
    const sent: string[] = []
    let sentOnce: () => void = () => undefined
    const wasSent = new Promise<void>((resolve) => (sentOnce = resolve))
    const outbox = createOutbox({
      ...lanesOf,
      async send(item) {
        if (holds++ === 0) {
          setImmediate(heldOnce)
          // An hour: only a wake can send it within the test.
          throw Object.assign(new Error('claimed by agent b'), {
            recoverable: true,
            held: true,
            code: 'TEST_HELD',
            retryAfterMs: 3_600_000,
          })
        }
        sent.push(item.id)
        sentOnce()
      },
    })
    const item = outbox.enqueue('sms', { name: 'held', lane: 'sms' })
    await wasHeld
    const waiting = outbox.pendingItems()[0]
    // The holder's wait, not a backoff; and not a server's Retry-After: the lane is not paused.
    expect(waiting?.nextAttemptAt).toBeGreaterThan(Date.now() + 3_500_000)
    expect(waiting?.notBefore).toBeUndefined()
    expect(outbox.stats().lanes.sms?.pausedUntil).toBe(0)
    outbox.wake(item.id)
    await wasSent
    expect(sent).toEqual([item.id])
    await outbox.close()
  })

  it("a wake does not cut a server's Retry-After short", async () => {
    let refusedOnce: () => void = () => undefined
    const refused = new Promise<void>((resolve) => (refusedOnce = resolve))
    const outbox = createOutbox({
      ...lanesOf,
      async send() {
        setImmediate(refusedOnce)
        throw recoverable(3_600_000)
      },
    })
    const item = outbox.enqueue('sms', { name: 'limited', lane: 'sms' })
    await refused
    outbox.wake(item.id)
    expect(outbox.pendingItems()[0]?.nextAttemptAt).toBeGreaterThan(Date.now() + 3_500_000)
    expect(outbox.stats().inFlight).toBe(0)
    await outbox.close()
  })

  it('a crash with several in flight: each of them is sent again at the next start, in order per incident, once', async () => {
    requireBuild() // the child runs dist/
    const path = join(dir, 'crash', 'outbox.jsonl')
    const proc = fork(join(__dirname, 'fixtures', 'in-flight-child.js'), [path], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    })
    let out = ''
    proc.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const exited = once(proc, 'exit')
    const started = (): string[] => [...out.matchAll(/^started (\S+)$/gm)].map((m) => m[1] as string)
    const deadline = Date.now() + 20_000
    // Four incidents, two lanes of three: four items start (one per incident), no more.
    while (!(out.includes('enqueued') && started().length >= 4) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5))
    proc.kill('SIGKILL')
    await exited
    expect(started()).toEqual(['n0', 'n1', 'n2', 'n3'])

    const sent: Note[] = []
    const outbox = createOutbox({
      path,
      ...lanesOf,
      limitOf: () => 3,
      send: async (item) => void sent.push(noteOf(item)),
    })
    expect(await outbox.drain(10_000)).toEqual({ drained: true, pending: 0 })
    await outbox.close()
    expect(sent.map((n) => n.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `n${i}`).sort())
    for (let k = 0; k < 4; k++) {
      const names = sent.filter((n) => n.incident === `inc${k}`).map((n) => Number(n.name.slice(1)))
      expect(names).toEqual([...names].sort((a, b) => a - b))
    }
  })
})
