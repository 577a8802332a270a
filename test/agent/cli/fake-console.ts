// A small stand-in for the running agent's console API (contract section 4), real HTTP on
// 127.0.0.1: the routes the CLI calls, bearer auth, the 401/404/409 answers, and a record of every
// request so a test can check what the CLI sent (token, x-logx-client, body). It proves its identity
// as the agent does (POST /api/identity, under the key `consoleJson()` writes), and makes login codes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { identityProof } from '../../../agent/daemon/console/identity'
import type { IncidentDetail, IncidentSummary, SilenceSummary } from '../../../agent/daemon/console/types'

export interface SeenRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: unknown
}

export interface FakeConsole {
  url: string
  token: string
  incidents: IncidentSummary[]
  silences: SilenceSummary[]
  /** Every request but the identity checks. */
  requests: SeenRequest[]
  /** The key of the console.json that names this fake. */
  identityKey: string
  /** POST /api/identity requests (the CLI's check before it sends a token). */
  identityChecks: SeenRequest[]
  /** The text of a `<state_dir>/console.json` naming this fake (pid: this process). */
  consoleJson(): string
  /** Called once GET /api/incidents is answered: a test changes the state between the CLI's two requests. */
  afterList: (() => void) | undefined
  close(): Promise<void>
}

export function incident(id: string, fields: Partial<IncidentSummary> = {}): IncidentSummary {
  return {
    id,
    shortId: id.slice(id.lastIndexOf(':') + 1, id.lastIndexOf(':') + 9), // as the agent makes it: the hash's start
    rule: id.slice(0, id.indexOf(':')),
    title: 'query failed',
    state: 'firing',
    count: 1,
    firstSeen: Date.now() - 600_000,
    lastSeen: Date.now() - 180_000,
    step: 0,
    paged: [],
    ack: undefined,
    ...fields,
  }
}

const detail = (i: IncidentSummary): IncidentDetail => ({ ...i, timeline: [] })

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

const error = (res: ServerResponse, status: number, message: string): void =>
  send(res, status, { error: message, code: `LOGX_CONSOLE_ERR_FAKE_${status}` })

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text === '' ? undefined : (JSON.parse(text) as unknown)
}

/** The part of the fake that acts on incidents: the states and refusals of the contract. */
function act(fake: FakeConsole, res: ServerResponse, id: string, action: string, by: string, via: string): void {
  const found = fake.incidents.filter((i) => i.id === id || (id.length >= 4 && i.id.startsWith(id)))
  const target = found.length === 1 ? found[0] : fake.incidents.find((i) => i.id === id)
  if (target === undefined)
    return found.length > 1
      ? error(res, 409, `${id} names ${found.length} incidents`)
      : error(res, 404, `no open incident ${id}`)
  if (action === 'ack') {
    if (target.state === 'acknowledged' && target.ack !== undefined)
      return error(res, 409, `already acknowledged by ${target.ack.by} via ${target.ack.via.replace('_', ' ')}`)
    if (target.state === 'pending') return error(res, 409, 'not paged yet (pending)')
    target.state = 'acknowledged'
    target.ack = { by, via, at: Date.now() }
  } else if (action === 'unack') {
    if (target.state !== 'acknowledged') return error(res, 409, 'not acknowledged')
    target.state = 'firing'
    target.ack = undefined
  } else {
    fake.incidents = fake.incidents.filter((i) => i !== target)
    return send(res, 200, { incident: detail({ ...target, state: 'resolved' }) })
  }
  send(res, 200, { incident: detail(target) })
}

async function route(fake: FakeConsole, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const method = req.method ?? ''
  const url = req.url ?? ''
  if (method === 'POST' && url === '/api/identity') {
    fake.identityChecks.push({ method, url, headers: req.headers, body })
    const challenge = String((body as { challenge?: unknown } | undefined)?.challenge)
    return send(res, 200, { proof: identityProof(fake.identityKey, challenge) })
  }
  fake.requests.push({ method, url, headers: req.headers, body })
  if (req.headers.authorization !== `Bearer ${fake.token}`) return error(res, 401, 'missing or wrong bearer token')
  const parts = url.split('/').map((p) => decodeURIComponent(p))
  const via = req.headers['x-logx-client'] === 'cli' ? 'cli' : 'console'
  const by = (body as { by?: string } | undefined)?.by ?? 'console'
  if (method === 'GET' && url === '/api/incidents') {
    send(res, 200, { incidents: fake.incidents })
    return fake.afterList?.()
  }
  if (method === 'POST' && parts[2] === 'incidents' && parts.length === 5)
    return act(fake, res, parts[3] ?? '', parts[4] ?? '', by, via)
  if (method === 'POST' && url === '/api/login-codes')
    return send(res, 201, { code: `code-${fake.requests.length}-abcdefghijklmnop`, expiresAt: Date.now() + 600_000 })
  if (method === 'GET' && url === '/api/silences') return send(res, 200, { silences: fake.silences })
  if (method === 'POST' && url === '/api/silences') {
    const input = body as { matchers: Record<string, string>; duration: string; comment?: string; by?: string }
    const hours = Number(/^(\d+)h$/.exec(input.duration)?.[1] ?? 1)
    const now = Date.now()
    const silence: SilenceSummary = {
      id: `s-${fake.silences.length + 1}`,
      matchers: input.matchers,
      startsAt: now,
      endsAt: now + hours * 3_600_000,
      comment: input.comment,
      createdBy: input.by,
      origin: 'runtime',
    }
    fake.silences.push(silence)
    return send(res, 201, { silence })
  }
  if (method === 'DELETE' && parts[2] === 'silences' && parts.length === 4) {
    const silence = fake.silences.find((s) => s.id === parts[3])
    if (silence === undefined) return error(res, 404, `no silence ${parts[3]}`)
    if (silence.origin === 'config')
      return error(res, 409, `silence ${silence.id} comes from the config: remove it there`)
    silence.endsAt = Date.now()
    return send(res, 200, { silence })
  }
  error(res, 404, 'no such route')
}

export async function startFakeConsole(token = 'tok-console-1'): Promise<FakeConsole> {
  const server: Server = createServer((req, res) => {
    route(fake, req, res).catch((err: Error) => error(res, 400, err.message))
  })
  const fake: FakeConsole = {
    url: '',
    token,
    incidents: [],
    silences: [],
    requests: [],
    identityKey: 'fake-identity-key-0123456789',
    identityChecks: [],
    consoleJson: () => JSON.stringify({ url: fake.url, pid: process.pid, key: fake.identityKey }),
    afterList: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return fake
}
