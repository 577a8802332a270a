// A base URL given in code (the config refuses it) that still carries a user, a password or a
// credential parameter: the client's errors never hold them, as message, JSON or inspect().
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { createMessagingClient } from '../../../agent/messaging'
import { describeUrl } from '../../../agent/messaging/redact'

const USER = 'url-user-51c0'
const PASSWORD = 'url-pw-8e2b'
const QUERY_KEY = 'url-key-77d3'

let server: Server | undefined
afterEach(async () => {
  await new Promise((done) => (server === undefined ? done(undefined) : server.close(done)))
  server = undefined
})

function everything(err: unknown): string {
  const e = err as Error
  return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 5 })].join('\n')
}

const API_KEY = 'sk-client-test-1'

async function sendError(baseUrl: string): Promise<unknown> {
  const client = createMessagingClient({ baseUrl, apiKey: API_KEY, timeoutMs: 2000 })
  try {
    return await client.sendSms({ numbers: ['919800000001'], text: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    )
  } finally {
    await client.close()
  }
}

describe('the messaging client and credentials in its base URL', () => {
  it('describeUrl shows an API URL without them', () => {
    const shown = describeUrl(new URL(`https://${USER}:${PASSWORD}@api.example/api/v1/?apikey=${QUERY_KEY}`), false)
    expect(shown).toBe('https://api.example/api/v1/?apikey=[redacted]')
  })

  it('an unreachable host: the error names the host, not the credentials', async () => {
    const err = await sendError(`http://${USER}:${PASSWORD}@127.0.0.1:9/api/?apikey=${QUERY_KEY}`)
    expect(err).toBeInstanceOf(Error)
    const text = everything(err)
    expect(text).toContain('127.0.0.1:9')
    for (const secret of [USER, PASSWORD, QUERY_KEY]) expect(text).not.toContain(secret)
  })

  it('the API key pasted into the base URL path: masked in the error like anywhere else', async () => {
    const err = await sendError(`http://127.0.0.1:9/${API_KEY}/api/`)
    const text = everything(err)
    expect(text).toContain('127.0.0.1:9/[redacted]/api/')
    expect(text).not.toContain(API_KEY)
  })

  it('a server that echoes the request back: the credentials are masked in the raw body', async () => {
    server = createServer((req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`refused ${req.headers.authorization ?? ''} ${req.url ?? ''} for ${USER}:${PASSWORD}`)
    })
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done))
    const { port } = server.address() as AddressInfo
    const err = await sendError(`http://${USER}:${PASSWORD}@127.0.0.1:${port}/api/?apikey=${QUERY_KEY}`)
    const text = everything(err)
    expect(text).toContain('refused')
    for (const secret of [USER, PASSWORD, QUERY_KEY]) expect(text).not.toContain(secret)
  })
})
