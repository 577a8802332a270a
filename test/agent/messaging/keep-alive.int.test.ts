// Keep-alive against a server that closes idle connections at its keep-alive timeout (a real
// node:http server on 127.0.0.1, 2 s, announced as `Keep-Alive: timeout=2`): the client hangs up
// its idle socket first, and a request that lands on a pooled socket the server is closing (an
// event loop that stalled past the timeout, as the embedded sandbox's agent can) is sent again at
// once on a new connection, with the same Idempotency-Key, instead of failing with ECONNRESET.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createMessagingClient, type DebugEvent, type MessagingClient } from '../../../agent/messaging'

const SERVER_KEEP_ALIVE_MS = 2000
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn()
})

interface Received {
  connection: number
  key: string | undefined
}

async function startServer(): Promise<{ url: string; received: Received[]; sockets: Socket[] }> {
  const received: Received[] = []
  const sockets: Socket[] = []
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume()
    req.on('end', () => {
      received.push({
        connection: sockets.indexOf(req.socket),
        key: req.headers['idempotency-key'] as string | undefined,
      })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          status: 'success',
          message: 'SMS accepted',
          data: { id: `sms-${received.length}`, status: 'delivered' },
        }),
      )
    })
  })
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS
  server.on('connection', (socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, sockets }
}

function clientOf(url: string, events: DebugEvent[]): MessagingClient {
  const client = createMessagingClient({ baseUrl: url, apiKey: 'k', onDebug: (event) => events.push(event) })
  cleanups.push(() => client.close())
  return client
}

/** The event loop held for `ms`: no timer, no socket event of either side runs meanwhile. */
function stall(ms: number): void {
  const until = Date.now() + ms
  while (Date.now() < until) {
    // busy
  }
}

describe('keep-alive against a server that closes idle connections', () => {
  it('the client closes its idle socket before the server does', async () => {
    const server = await startServer()
    const client = clientOf(server.url, [])
    await client.sendSms({ numbers: [919800000001], text: 'one' })
    const socket = server.sockets[0] as Socket
    // 'end' on the server's side is the client's FIN: it hung up first (the server's own close
    // at its timeout would end the socket without one).
    let clientHungUp = false
    socket.once('end', () => (clientHungUp = true))
    await new Promise((resolve) => socket.once('close', resolve))
    expect(clientHungUp).toBe(true)
  })

  it('a request on a pooled socket the server is closing goes again at once on a new connection, same key, no failure', async () => {
    const server = await startServer()
    const events: DebugEvent[] = []
    const client = clientOf(server.url, events)
    await client.sendSms({ numbers: [919800000001], text: 'before the stall' })
    // The loop stalls past the server's timeout; the next request takes the pooled socket at once,
    // before either side's timers run, and the server's timer then closes it under the request.
    // (Node's server closes an idle socket a second after the timeout it announces.)
    stall(SERVER_KEEP_ALIVE_MS + 1300)
    const sent = await client.sendSms(
      { numbers: [919800000001], text: 'after the stall' },
      { idempotencyKey: 'item-42' },
    )
    expect(sent.id).toBe('sms-2')
    expect(server.received).toEqual([
      { connection: 0, key: undefined },
      { connection: 1, key: 'item-42' },
    ])
    expect(events.filter((e) => e.type === 'failure')).toEqual([])
  })
})
