// The CLI's client for the running agent's console API (agent/daemon/console): one request, one
// attempt, no retry (a person at a terminal retries; retrying an ack could ack twice), no kept-alive
// socket (the command exits after its one or two requests). Every answer becomes a result with the
// sentence a user should read; nothing here throws on a failed request.
import { request, type IncomingMessage } from 'node:http'
import { newChallenge, proofHolds } from '../daemon/console/identity'

export interface ConsoleTarget {
  /** Base URL of the console, e.g. http://127.0.0.1:9464 (a path prefix is kept). */
  url: string
  /** Bearer token; undefined sends no authorization header (the agent then refuses what needs one). */
  token: string | undefined
}

export type ConsoleResult<T> =
  { ok: true; status: number; body: T } | { ok: false; status: number | undefined; message: string }

export interface ConsoleClient {
  get<T>(path: string): Promise<ConsoleResult<T>>
  post<T>(path: string, body: unknown): Promise<ConsoleResult<T>>
  delete<T>(path: string): Promise<ConsoleResult<T>>
}

/** What the CLI says when the agent refuses its token: the token itself is never printed. */
export const TOKEN_REFUSED = 'the console token was refused (set --token-file or LOGX_CONSOLE_TOKEN)'

const TIMEOUT_MS = 10_000
/** 10,000 open incidents are a few MB; more than this is not a console answering. */
const MAX_BODY_BYTES = 64 * 1024 * 1024

/** `api/incidents` under the base URL, keeping a path prefix the base may have (a reverse proxy). */
export function apiUrl(base: string, path: string): URL {
  return new URL(path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`)
}

/** The error sentence of an answer that is not 2xx: the API's own `error` when it gave one. */
export function errorMessage(status: number, body: unknown): string {
  if (status === 401) return TOKEN_REFUSED
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined
  return typeof error === 'string' && error !== '' ? error : `the agent answered HTTP ${status}`
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) res.destroy(new Error(`answer larger than ${MAX_BODY_BYTES} bytes`))
      else chunks.push(chunk)
    })
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    res.on('error', reject)
    res.on('aborted', () => reject(new Error('connection closed mid-answer')))
  })
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

function send<T>(target: ConsoleTarget, method: string, path: string, body: unknown): Promise<ConsoleResult<T>> {
  const url = apiUrl(target.url, path)
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
  const headers: Record<string, string> = { accept: 'application/json', 'x-logx-client': 'cli' }
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`
  if (payload !== undefined) {
    headers['content-type'] = 'application/json'
    headers['content-length'] = String(payload.length)
  }
  const where = `cannot reach the agent at ${target.url}`
  return new Promise((resolve) => {
    const req = request(url, { method, headers, timeout: TIMEOUT_MS, agent: false }, (res) => {
      const status = res.statusCode ?? 0
      readBody(res).then(
        (text) => {
          const json = parseJson(text)
          if (status >= 200 && status < 300) {
            if (json === undefined)
              resolve({
                ok: false,
                status,
                message: `the agent at ${target.url} answered ${method} ${url.pathname} with no JSON`,
              })
            else resolve({ ok: true, status, body: json as T })
          } else {
            resolve({ ok: false, status, message: errorMessage(status, json) })
          }
        },
        (err: Error) => resolve({ ok: false, status, message: `${where}: ${err.message}` }),
      )
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)))
    req.on('error', (err: NodeJS.ErrnoException) => {
      resolve({ ok: false, status: undefined, message: `${where}: ${err.code ?? err.message}` })
    })
    req.end(payload)
  })
}

/**
 * Asks the listener at `url` to prove it holds `key` (console.json's), sending no token: a random
 * challenge to POST /api/identity, whose answer must be HMAC-SHA256(key, challenge). undefined when
 * it proved it; else the sentence to print.
 */
export async function proveIdentity(url: string, key: string, from: string): Promise<string | undefined> {
  const challenge = newChallenge()
  const answer = await send<{ proof?: unknown }>({ url, token: undefined }, 'POST', 'api/identity', { challenge })
  if (answer.ok && proofHolds(key, challenge, answer.body.proof)) return undefined
  if (!answer.ok && answer.status === undefined) return answer.message
  return `the process on ${new URL(url).host} is not this agent (it cannot prove it holds the key in ${from})`
}

export function createConsoleClient(target: ConsoleTarget): ConsoleClient {
  return {
    get: (path) => send(target, 'GET', path, undefined),
    post: (path, body) => send(target, 'POST', path, body),
    delete: (path) => send(target, 'DELETE', path, undefined),
  }
}
