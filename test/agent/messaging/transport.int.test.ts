// The node:http / node:https transport under the client: TLS, agents, phases of a failure, the body
// cap and close(). Real servers on 127.0.0.1; the certificate is a test-only fixture (CN and SAN
// 127.0.0.1, valid 2000-2126).
import { readFileSync } from 'node:fs'
import { createServer, Agent as HttpAgent, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, Agent as HttpsAgent } from 'node:https'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createMessagingClient,
  MessagingApiError,
  MessagingErrorCodes,
  MessagingMalformedResponseError,
  MessagingNetworkError,
  MessagingOptionError,
  MessagingServerError,
  MessagingTimeoutError,
} from '../../../agent/messaging'
import { MAX_RESPONSE_BYTES } from '../../../agent/messaging/attempt-outcome'
import { inFreshProcess } from '../../helpers/fresh-process'
import { caught } from './helpers'

const API_KEY = 'sk-live-transport-1'
const fixtures = join(__dirname, '..', '..', 'fixtures', 'messaging')
const cert = readFileSync(join(fixtures, 'test-server.crt'))
const key = readFileSync(join(fixtures, 'test-server.key'))

type Handler = (req: IncomingMessage, res: ServerResponse) => void
const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function listen(server: Server | NetServer, sockets?: Set<Socket>): Promise<number> {
  server.on('connection', (s: Socket) => {
    sockets?.add(s)
    s.on('close', () => sockets?.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  cleanups.push(async () => {
    for (const s of sockets ?? []) s.destroy()
    if ('closeAllConnections' in server) server.closeAllConnections()
    await new Promise<void>((r) => server.close(() => r()))
  })
  return (server.address() as AddressInfo).port
}

interface Seen {
  url: string
  encrypted: boolean
  port: number | undefined
}

/** A server answering every request with `handle`, recording what it saw. */
async function startServer(kind: 'http' | 'https', handle: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const onRequest: Handler = (req, res) => {
    req.resume()
    req.on('end', () => {
      seen.push({ url: req.url ?? '', encrypted: 'encrypted' in req.socket, port: req.socket.remotePort })
      handle(req, res)
    })
  }
  const server = kind === 'https' ? createHttpsServer({ key, cert }, onRequest) : createServer(onRequest)
  const port = await listen(server)
  return { url: `${kind}://127.0.0.1:${port}`, seen }
}

const ok: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' })
  res.end('OK')
}

describe('https', () => {
  it('an https: URL is spoken over TLS: a self-signed server is refused by default and reached with its CA', async () => {
    const server = await startServer('https', ok)
    const plain = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY })
    const refused = await caught(plain.sendSms({ numbers: [1], text: 'x' }))
    await plain.close()
    expect(refused).toBeInstanceOf(MessagingNetworkError)
    expect(refused.message).toMatch(/SELF_SIGNED/)
    // The handshake failed before any request could be written: not ambiguous, so the caller may
    // send again without risking a duplicate. One attempt: the client does not retry.
    expect(refused).toMatchObject({ ambiguous: false, recoverable: true, attempts: 1 })
    expect(server.seen).toHaveLength(0)

    const agent = new HttpsAgent({ ca: cert, keepAlive: true })
    cleanups.push(() => agent.destroy())
    const trusting = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY, agent })
    const sent = await trusting.sendSms({ numbers: [1], text: 'x' })
    expect(sent.body).toEqual({ type: 'text', value: 'OK' })
    await trusting.close()
    // close() left the caller's agent open: a second client on it reuses the same socket.
    const again = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY, agent })
    await again.sendSms({ numbers: [1], text: 'y' })
    await again.close()
    expect(server.seen.map((s) => s.encrypted)).toEqual([true, true])
    expect(new Set(server.seen.map((s) => s.port)).size).toBe(1)
  })

  it('an agent for the other protocol is an option error: nothing is sent, and it is not recoverable', async () => {
    const server = await startServer('https', ok)
    const agent = new HttpAgent({ keepAlive: true })
    cleanups.push(() => agent.destroy())
    const c = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY, agent })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingOptionError)
    expect(err).toMatchObject({ code: MessagingErrorCodes.INVALID_OPTION, recoverable: false, attempts: 1 })
    expect(server.seen).toHaveLength(0)
  })
})

describe('what a failure says about the far end', () => {
  it('a timeout before the connection was open is not ambiguous: the caller may send again', async () => {
    // Accepts TCP and never answers the TLS handshake: the request can never be written.
    const mute = createNetServer(() => {})
    const sockets = new Set<Socket>()
    let accepted = 0
    mute.on('connection', () => accepted++)
    const port = await listen(mute, sockets)
    const c = createMessagingClient({ baseUrl: `https://127.0.0.1:${port}`, apiKey: API_KEY, timeoutMs: 100 })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingTimeoutError)
    expect(err).toMatchObject({ ambiguous: false, recoverable: true, attempts: 1 })
    expect(accepted).toBe(1)
  })

  it('a timeout after the request went out is ambiguous: the far end may have acted', async () => {
    const server = await startServer('http', () => {})
    const c = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY, timeoutMs: 100 })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingTimeoutError)
    expect(err).toMatchObject({ ambiguous: true, recoverable: true, attempts: 1 })
    expect(server.seen).toHaveLength(1)
  })

  it('a connection cut in the middle of the body is an ambiguous network error', async () => {
    const server = await startServer('http', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"status":"succ', () => res.destroy())
    })
    const c = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingNetworkError)
    expect(err).toMatchObject({ ambiguous: true, recoverable: true, attempts: 1 })
    expect(server.seen).toHaveLength(1)
  })
})

describe('one attempt per call', () => {
  it("makes one request and reports a 503 with its Retry-After (retrying is the outbox's)", async () => {
    const server = await startServer('http', (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '7' })
      res.end('{"status":"error","error":"maintenance"}')
    })
    const c = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingServerError)
    expect(err).toMatchObject({ status: 503, recoverable: true, ambiguous: false, retryAfterMs: 7000, attempts: 1 })
    expect(server.seen).toHaveLength(1)
  })
})

describe('response bodies', () => {
  it(`a body over ${MAX_RESPONSE_BYTES} bytes is not read: a 2xx is malformed, a 5xx keeps its status; the client goes on`, async () => {
    let status = 200
    const huge = 'x'.repeat(MAX_RESPONSE_BYTES + 1)
    const server = await startServer('http', (_req, res) => {
      res.on('error', () => {}) // the client hangs up mid-body
      if (status === 0) return ok(_req, res)
      res.writeHead(status, { 'content-type': 'text/plain' })
      res.end(huge)
    })
    const c = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY })
    const malformed = await caught(c.listSmsRecords())
    expect(malformed).toBeInstanceOf(MessagingMalformedResponseError)
    expect(malformed).toMatchObject({ status: 200, recoverable: false, attempts: 1 })
    expect(malformed.rawBody?.length).toBeLessThan(10_000)

    status = 500
    const failed = await caught(c.listSmsRecords())
    expect(failed).toBeInstanceOf(MessagingServerError)
    expect(failed).toMatchObject({ status: 500, recoverable: true, attempts: 1 })

    status = 0
    const sent = await c.sendSms({ numbers: [1], text: 'x' })
    await c.close()
    expect(sent.body).toEqual({ type: 'text', value: 'OK' })
  })
})

describe('close()', () => {
  it('lets an exchange under way finish, then refuses new ones without sending them', async () => {
    let release: (() => void) | undefined
    let arrived: () => void = () => {}
    const inServer = new Promise<void>((r) => (arrived = r))
    const server = await startServer('http', (req, res) => {
      release = () => ok(req, res)
      arrived()
    })
    const c = createMessagingClient({ baseUrl: server.url, apiKey: API_KEY })
    const underway = c.sendSms({ numbers: [1], text: 'x' })
    await inServer
    let closed = false
    const closing = c.close().then(() => (closed = true))
    // close() is waiting on the exchange: let the server answer it now.
    await new Promise((r) => setImmediate(r))
    expect(closed).toBe(false)
    release?.()
    expect((await underway).body).toEqual({ type: 'text', value: 'OK' })
    await closing

    const late = await caught(c.sendSms({ numbers: [1], text: 'late' }))
    expect(late).toBeInstanceOf(MessagingNetworkError)
    expect(late).toMatchObject({ recoverable: false, ambiguous: false, attempts: 1 })
    expect(late.message).toContain('closed')
    expect(server.seen).toHaveLength(1)
  })
})

describe('the built-in modules the client loads', () => {
  it('node:https on the first https exchange, not for http (the embedded sandbox); node:perf_hooks never', () => {
    const out = inFreshProcess<Record<string, unknown>>([
      "const http = require('node:http')",
      "const { exchange } = require('./dist/agent/messaging/transport')",
      "const { createConnection } = require('./dist/agent/messaging/connection')",
      "require('./dist/agent/tail/discovery')",
      "const loaded = () => process.moduleLoadList.includes('NativeModule https')",
      'const server = http.createServer((req, res) => res.end("ok")).listen(0, "127.0.0.1", async () => {',
      '  const request = (url) => ({ url: new URL(url), method: "GET", headers: {}, signal: new AbortController().signal, maxBodyBytes: 1024 })',
      '  const plain = await exchange(request(`http://127.0.0.1:${server.address().port}/`), new http.Agent())',
      '  const connection = createConnection({}, [], [])',
      '  await connection.call({ operation: "send_sms", method: "GET", url: new URL(`http://127.0.0.1:${server.address().port}/`), headers: {}, secretUrl: false, sends: false }).catch(() => undefined)',
      '  await connection.close()',
      '  const afterHttp = loaded()',
      '  const tls = await exchange(request("https://127.0.0.1:1/"), undefined).catch((err) => err.phase)',
      "  const perf = process.moduleLoadList.includes('NativeModule perf_hooks')",
      '  process.stdout.write(JSON.stringify({ text: plain.text, afterHttp, tls, afterHttps: loaded(), perf }))',
      '  server.close()',
      '})',
    ])
    expect(out).toEqual({ text: 'ok', afterHttp: false, tls: 'connect', afterHttps: true, perf: false })
  })
})
