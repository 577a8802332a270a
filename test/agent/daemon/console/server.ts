// Test plumbing: a metrics server with the console mounted on 127.0.0.1, a fake backend behind it,
// and raw HTTP requests (node:http, not fetch: the tests send hostile targets as they are, `..` and
// all, and Host headers of their choosing).

import { request } from 'node:http'
import { createConsoleHandler, type ConsoleOptions } from '../../../../agent/daemon/console'
import { startMetricsServer, type MetricsServer } from '../../../../agent/daemon/metrics-server'
import { createFakeBackend, type FakeBackend } from './fake-backend'

export const TOKEN = 'test-token-5f1c9a0e7d2b4c68'

export interface ConsoleServer {
  server: MetricsServer
  backend: FakeBackend
  port: number
  errors: unknown[]
}

export async function startConsole(
  options: Partial<Omit<ConsoleOptions, 'backend'>> = {},
  backend = createFakeBackend(),
): Promise<ConsoleServer> {
  const errors: unknown[] = []
  const handler = createConsoleHandler({
    backend,
    token: TOKEN,
    generated: false,
    host: '127.0.0.1',
    onError: (err) => errors.push(err),
    ...options,
  })
  const server = await startMetricsServer(
    { host: '127.0.0.1', port: 0 },
    () => [],
    () => ({ ok: true }),
    handler,
  )
  return { server, backend, port: Number(new URL(server.url).port), errors }
}

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: any
}

export interface Send {
  method?: string
  headers?: Record<string, string>
  /** An object is sent as JSON (with its content type unless headers say otherwise); a string as is. */
  body?: unknown
  /** Default `authorization: Bearer TOKEN`; null sends none. */
  token?: string | null
  /** Default `127.0.0.1:<port>`. */
  host?: string
  /** Send the body in two chunks, without a content-length (transfer-encoding: chunked). */
  chunked?: boolean
}

export function send(port: number, path: string, options: Send = {}): Promise<Answer> {
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${port}` }
  const token = options.token === undefined ? TOKEN : options.token
  if (token !== null) headers['authorization'] = `Bearer ${token}`
  let payload: string | undefined
  if (typeof options.body === 'string') payload = options.body
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body)
    headers['content-type'] = 'application/json'
  }
  if (payload !== undefined && options.chunked !== true) headers['content-length'] = String(Buffer.byteLength(payload))
  Object.assign(headers, options.headers)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, setHost: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
        })
      },
    )
    req.on('error', reject)
    if (options.chunked === true && payload !== undefined) {
      const half = payload.length >> 1
      req.write(payload.slice(0, half))
      req.end(payload.slice(half))
    } else req.end(payload)
  })
}
