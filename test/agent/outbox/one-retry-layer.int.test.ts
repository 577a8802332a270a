// The outbox is the one retry layer: over a real messaging client and a real HTTP server on
// 127.0.0.1, every outbox attempt is one request; a recoverable failure is retried by the outbox
// with its backoff and the server's Retry-After; a permanent one is a dead letter after one request;
// and drain() returns at its bound while a request hangs, losing nothing.
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMessagingClient, type MessagingClient, type SendSmsInput } from '../../../agent/messaging'
import { createOutbox, type DeadLetter } from '../../../agent/outbox'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('outbox-layer')
let n = 0
const journalPath = () => join(dir, `q${n++}`, 'outbox.jsonl')

type Reply = (res: ServerResponse) => void
interface Seen {
  arrived: number
  answered: number | undefined
  key: string | undefined
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
const accepted = json(200, { status: 'success', data: { id: 'sms-1', status: 'delivered' } })
const hang: Reply = () => {}

/** Answers the n-th request with replies[n] (the last one for every later request). */
async function scriptedServer(replies: Reply[]) {
  const seen: Seen[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      const entry: Seen = {
        arrived: Date.now(),
        answered: undefined,
        key: req.headers['idempotency-key'] as string | undefined,
      }
      seen.push(entry)
      res.on('finish', () => (entry.answered = Date.now()))
      const reply = replies[Math.min(seen.length, replies.length) - 1] as Reply
      reply(res)
      server.emit('seen', seen.length)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    seen,
    /** Resolves once `count` requests have arrived. */
    async requests(count: number): Promise<void> {
      while (seen.length < count) await once(server, 'seen')
    },
    async close(): Promise<void> {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

function clientFor(url: string, timeoutMs = 5000): MessagingClient {
  const client = createMessagingClient({ baseUrl: url, apiKey: 'sk-outbox-layer-1', timeoutMs })
  cleanups.push(() => client.close())
  return client
}

const sms: SendSmsInput = { numbers: [15550100], text: 'db-1 down' }
const sendVia = (client: MessagingClient) => async (item: { id: string; payload: unknown }) => {
  await client.sendSms(item.payload as SendSmsInput, { idempotencyKey: item.id })
}

describe('the outbox retries, the client does not', () => {
  it('a recoverable failure is retried by the outbox, one request per attempt, never sooner than Retry-After', async () => {
    const server = await scriptedServer([
      json(503, { status: 'error', error: 'busy' }),
      json(429, { status: 'error', error: 'slow down' }, { 'retry-after': '1' }),
      accepted,
    ])
    cleanups.push(() => server.close())
    const outbox = createOutbox({ backoff: { minDelayMs: 1, maxDelayMs: 5 }, send: sendVia(clientFor(server.url)) })
    const item = outbox.enqueue('sms', sms)

    expect(await outbox.drain(10_000)).toEqual({ drained: true, pending: 0 })
    expect(outbox.stats()).toMatchObject({ delivered: 1, retried: 2, dead: 0 })
    // Three outbox attempts, three requests: the client added none of its own.
    expect(item.attempts).toBe(3)
    expect(server.seen).toHaveLength(3)
    // Every attempt at one notification carries its one key.
    expect(server.seen.map((s) => s.key)).toEqual([item.id, item.id, item.id])
    // The 429 asked for 1 s: the outbox waited at least that (1 ms of slack for timer rounding).
    const [, limited, last] = server.seen as [Seen, Seen, Seen]
    expect(last.arrived - (limited.answered as number)).toBeGreaterThanOrEqual(999)
    await outbox.close()
  })

  it('a permanent failure is a dead letter after one request', async () => {
    const server = await scriptedServer([json(400, { status: 'error', error: 'numbers: unknown', field: 'numbers' })])
    cleanups.push(() => server.close())
    const dead: DeadLetter[] = []
    const outbox = createOutbox({
      backoff: { minDelayMs: 1, maxDelayMs: 5 },
      send: sendVia(clientFor(server.url)),
      onDead: (l) => dead.push(l),
    })
    outbox.enqueue('sms', sms)

    expect(await outbox.drain(5000)).toEqual({ drained: true, pending: 0 })
    expect(dead).toHaveLength(1)
    expect(dead[0]).toMatchObject({ reason: 'LOGX_MSG_ERR_BAD_REQUEST', attempts: 1 })
    expect(dead[0]?.lastError).toContain('numbers: unknown')
    expect(server.seen).toHaveLength(1)
    expect(outbox.stats()).toMatchObject({ delivered: 0, retried: 0, dead: 1 })
    await outbox.close()
  })

  it('drain() returns at its bound while a request hangs; the item is sent at the next start', async () => {
    const hung = await scriptedServer([hang])
    cleanups.push(() => hung.close())
    const path = journalPath()
    // A client timeout far past the drain's bound: drain must not wait for it.
    const send = sendVia(clientFor(hung.url, 60_000))
    let attemptEnded: () => void = () => {}
    const ended = new Promise<void>((resolve) => (attemptEnded = resolve))
    const outbox = createOutbox({
      path,
      send: async (item) => {
        try {
          await send(item)
        } finally {
          attemptEnded()
        }
      },
    })
    outbox.enqueue('sms', sms)
    await hung.requests(1)

    expect(await outbox.drain(200)).toEqual({ drained: false, pending: 1 })
    expect(outbox.stats().inFlight).toBe(1)
    await outbox.close()
    // The hung exchange ends (the server goes away): a network error, journaled as a retry, not lost.
    await hung.close()
    await ended
    // The outbox records the outcome right after send() settles, before the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve))
    expect(outbox.stats()).toMatchObject({ inFlight: 0, pending: 1, retried: 1, dead: 0 })

    const healthy = await scriptedServer([accepted])
    cleanups.push(() => healthy.close())
    const next = createOutbox({ path, send: sendVia(clientFor(healthy.url)) })
    expect(next.stats().pending).toBe(1)
    expect(await next.drain(5000)).toEqual({ drained: true, pending: 0 })
    expect(healthy.seen).toHaveLength(1)
    await next.close()
  })
})
