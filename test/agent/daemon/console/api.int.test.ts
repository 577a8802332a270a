// The console's HTTP API over real HTTP on 127.0.0.1, against an in-memory backend: each route, each
// error status with its stable code, and hostile targets answered without bringing the server down.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ConsoleErrorCodes } from '../../../../agent/daemon/console'
import { startMetricsServer } from '../../../../agent/daemon/metrics-server'
import type { ScheduleView } from '../../../../agent/daemon/console/types'
import { createFakeBackend, incident, OPS_SCHEDULE } from './fake-backend'
import { send, startConsole, TOKEN, type ConsoleServer } from './server'

let c: ConsoleServer
const get = (path: string, options = {}) => send(c.port, path, options)
const post = (path: string, body?: unknown, options = {}) => send(c.port, path, { method: 'POST', body, ...options })

beforeAll(async () => {
  c = await startConsole({}, createFakeBackend())
})
afterAll(() => c.server.close())
beforeEach(() => {
  for (const i of c.backend.incidents({}).items) c.backend.act(i.id, 'resolve', 'reset', 'cli')
  c.backend.actions.length = 0
  c.backend.breakWith(undefined)
  c.backend.put(incident('errors:0a1b2c3d4e5f60', { lastSeen: 1_700_000_010_000 }))
  c.backend.put(
    incident('errors:0a1b99999999', {
      lastSeen: 1_700_000_030_000,
      state: 'acknowledged',
      ack: { by: 'ravi', via: 'missed_call', at: 1 },
    }),
  )
  c.backend.put(incident('db:77aa00112233', { rule: 'db', lastSeen: 1_700_000_020_000, state: 'pending' }))
})

describe('incidents', () => {
  it('lists the open incidents, the one seen last first, without timelines', async () => {
    const res = await get('/api/incidents')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json.incidents.map((i: { id: string }) => i.id)).toEqual([
      'errors:0a1b99999999',
      'db:77aa00112233',
      'errors:0a1b2c3d4e5f60',
    ])
    expect(res.json.total).toBe(3)
    expect(res.json.incidents[0]).toMatchObject({ shortId: 'errors:0', state: 'acknowledged', ack: { by: 'ravi' } })
    expect(res.json.incidents[0].timeline).toBeUndefined()
  })

  it('narrows the list by state and count when asked, saying how many there are', async () => {
    const firing = await get('/api/incidents?state=firing')
    expect(firing.json).toEqual({ incidents: [expect.objectContaining({ id: 'errors:0a1b2c3d4e5f60' })], total: 1 })
    const first = await get('/api/incidents?limit=2')
    expect(first.json.incidents.map((i: { id: string }) => i.id)).toEqual(['errors:0a1b99999999', 'db:77aa00112233'])
    expect(first.json.total).toBe(3)
    for (const query of ['state=resolved', 'limit=0', 'limit=-1', 'limit=1e3', 'limit=100001', 'sort=title']) {
      const res = await get(`/api/incidents?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.json.code).toBe(ConsoleErrorCodes.BAD_PATH)
    }
  })

  it('shows one incident with its timeline, by key or by a unique prefix', async () => {
    const full = await get('/api/incidents/db:77aa00112233')
    expect(full.status).toBe(200)
    expect(full.json.incident).toMatchObject({ id: 'db:77aa00112233', timeline: [{ kind: 'firing' }] })
    const prefix = await get('/api/incidents/db:7')
    expect(prefix.json.incident.id).toBe('db:77aa00112233')
  })

  it('answers 409 to a prefix of several incidents and 404 to an unknown one', async () => {
    const ambiguous = await get('/api/incidents/errors:0a1b')
    expect(ambiguous.status).toBe(409)
    expect(ambiguous.json).toEqual({ error: expect.stringContaining('several'), code: ConsoleErrorCodes.AMBIGUOUS })
    const unknown = await get('/api/incidents/nope:1234')
    expect(unknown.status).toBe(404)
    expect(unknown.json.code).toBe(ConsoleErrorCodes.NOT_FOUND)
  })

  it('acks, unacks and resolves, with the name given or "console", and tells the backend it came from the console', async () => {
    const acked = await post('/api/incidents/errors:0a1b2c/ack', { by: 'asha' })
    expect(acked.status).toBe(200)
    expect(acked.json.incident).toMatchObject({
      id: 'errors:0a1b2c3d4e5f60',
      state: 'acknowledged',
      ack: { by: 'asha', via: 'console' },
    })
    const unacked = await post('/api/incidents/errors:0a1b2c3d4e5f60/unack')
    expect(unacked.json.incident.state).toBe('firing')
    const resolved = await post(
      '/api/incidents/errors:0a1b2c3d4e5f60/resolve',
      { by: '  ravi  ' },
      { headers: { 'x-logx-client': 'cli' } },
    )
    expect(resolved.json.incident.state).toBe('resolved')
    expect(c.backend.actions).toEqual([
      { id: 'errors:0a1b2c3d4e5f60', action: 'ack', by: 'asha', via: 'console' },
      { id: 'errors:0a1b2c3d4e5f60', action: 'unack', by: 'console', via: 'console' },
      { id: 'errors:0a1b2c3d4e5f60', action: 'resolve', by: 'ravi', via: 'cli' },
    ])
    expect((await get('/api/incidents/errors:0a1b2c3d4e5f60')).status).toBe(404)
  })

  it("passes on the backend's 409 with its reason, and its 404", async () => {
    const again = await post('/api/incidents/errors:0a1b99999999/ack', {})
    expect(again.status).toBe(409)
    expect(again.json).toEqual({
      error: expect.stringContaining('already-acknowledged'),
      code: ConsoleErrorCodes.CONFLICT,
    })
    const gone = await post('/api/incidents/zzzz:0000/resolve', {})
    expect(gone.status).toBe(404)
    expect(gone.json.code).toBe(ConsoleErrorCodes.NOT_FOUND)
  })

  it('refuses a bad action body, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ by: 42 }, 'by: must be a string'],
      [{ by: '' }, 'by: must not be empty'],
      [{ by: 'x'.repeat(101) }, 'by: longer than 100'],
      [{ by: 'a\nb' }, 'by: must be one line'],
      [{ who: 'asha' }, 'who: unknown field'],
      [['asha'], 'body: must be a JSON object'],
    ]
    for (const [body, error] of cases) {
      const res = await post('/api/incidents/errors:0a1b2c3d4e5f60/ack', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json).toEqual({ error: expect.stringContaining(error), code: ConsoleErrorCodes.INVALID_BODY })
    }
    expect(c.backend.actions).toEqual([])
  })
})

describe('silences', () => {
  it('creates one for a duration, lists it, and expires it', async () => {
    const before = Date.now()
    const created = await post('/api/silences', {
      matchers: { rule: 'errors' },
      duration: '2h',
      comment: ' deploy ',
      by: 'asha',
    })
    expect(created.status).toBe(201)
    const { silence } = created.json
    expect(silence).toMatchObject({
      matchers: { rule: 'errors' },
      comment: 'deploy',
      createdBy: 'asha',
      origin: 'runtime',
    })
    expect(silence.endsAt).toBeGreaterThanOrEqual(before + 2 * 3_600_000)
    expect(silence.endsAt).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000)
    expect((await get('/api/silences')).json.silences.map((s: { id: string }) => s.id)).toContain(silence.id)
    const expired = await send(c.port, `/api/silences/${silence.id}`, { method: 'DELETE' })
    expect(expired.status).toBe(200)
    expect(expired.json.silence.id).toBe(silence.id)
    expect((await get('/api/silences')).json.silences.map((s: { id: string }) => s.id)).not.toContain(silence.id)
    const twice = await send(c.port, `/api/silences/${silence.id}`, { method: 'DELETE' })
    expect(twice.status).toBe(404)
  })

  it("takes endsAt as milliseconds or an ISO date, and the CLI's name by default", async () => {
    const at = Date.now() + 60_000
    const ms = await post(
      '/api/silences',
      { matchers: { rule: 'db' }, endsAt: at },
      { headers: { 'x-logx-client': 'cli' } },
    )
    expect(ms.json.silence).toMatchObject({ endsAt: at, createdBy: 'cli' })
    expect(ms.json.silence.comment).toBeUndefined()
    const iso = await post('/api/silences', { matchers: { rule: 'db' }, endsAt: '2999-01-01T00:00:00Z' })
    expect(iso.json.silence).toMatchObject({ endsAt: Date.parse('2999-01-01T00:00:00Z'), createdBy: 'console' })
  })

  it('refuses to expire a silence of the config (409)', async () => {
    c.backend.putSilence({
      id: 'cfg-1',
      matchers: { rule: 'noisy' },
      startsAt: 0,
      endsAt: Date.now() + 3_600_000,
      comment: undefined,
      createdBy: undefined,
      origin: 'config',
    })
    const res = await send(c.port, '/api/silences/cfg-1', { method: 'DELETE' })
    expect(res.status).toBe(409)
    expect(res.json).toEqual({ error: expect.stringContaining('config'), code: ConsoleErrorCodes.CONFLICT })
  })

  it('refuses a bad silence, naming the field', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'body: must be a JSON object'],
      [{ duration: '2h' }, 'matchers: required'],
      [{ matchers: {}, duration: '2h' }, 'matchers: give at least one'],
      [{ matchers: { rule: 5 }, duration: '2h' }, 'matchers.rule: must be a string'],
      [{ matchers: ['rule'], duration: '2h' }, 'matchers: must be an object'],
      [{ matchers: { rule: 'db' } }, 'duration: required'],
      [{ matchers: { rule: 'db' }, duration: '2 hours' }, 'duration: must be a duration like'],
      [{ matchers: { rule: 'db' }, duration: '1h 30m' }, 'duration: must be a duration like'],
      [{ matchers: { rule: 'db' }, duration: '0s' }, 'duration: must be more than 0'],
      [{ matchers: { rule: 'db' }, duration: '2h', endsAt: Date.now() + 1000 }, 'not both'],
      [{ matchers: { rule: 'db' }, endsAt: 'tomorrow' }, 'endsAt: must be a time'],
      [{ matchers: { rule: 'db' }, endsAt: 1000 }, 'endsAt: must be in the future'],
      [{ matchers: { rule: 'db' }, duration: '2h', comment: 7 }, 'comment: must be a string'],
      [{ matchers: { rule: 'db' }, duration: '2h', until: 'x' }, 'until: unknown field'],
      [{ matchers: { rule: 'refused' }, duration: '2h' }, 'no rule named "refused"'],
    ]
    for (const [body, error] of cases) {
      const res = await post('/api/silences', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json).toEqual({ error: expect.stringContaining(error), code: ConsoleErrorCodes.INVALID_BODY })
    }
  })
})

describe('people', () => {
  it('lists the names to act as', async () => {
    expect((await get('/api/people')).json).toEqual({ people: ['asha', 'ravi'] })
  })
})

describe('schedules', () => {
  const AT = Date.parse('2026-03-04T06:30:00Z')
  const ops = OPS_SCHEDULE

  let clocked: ConsoleServer

  beforeAll(async () => {
    const backend = createFakeBackend()
    backend.putSchedules([ops])
    clocked = await startConsole({ now: () => AT }, backend)
  })
  afterAll(() => clocked.server.close())

  it("lists who is on call in each layer now, and the next handoffs, asking the backend at the console's clock", async () => {
    const res = await send(clocked.port, '/api/schedules')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ schedules: [ops] })
    expect(clocked.backend.schedulesAskedAt).toEqual([AT])
  })

  it('is read-only, needs the token like every read, and takes no id', async () => {
    expect((await send(clocked.port, '/api/schedules', { method: 'POST', body: {} })).status).toBe(405)
    expect((await send(clocked.port, '/api/schedules', { token: null })).status).toBe(401)
    expect((await send(clocked.port, '/api/schedules/ops')).status).toBe(404)
  })

  it('answers an empty list when the config has no schedules', async () => {
    expect((await get('/api/schedules')).json).toEqual({ schedules: [] })
  })
})

describe('bad requests', () => {
  it('answers 404 to unknown routes and 405 (with Allow) to methods a route does not serve', async () => {
    for (const path of [
      '/api',
      '/api/',
      '/api/nothing',
      '/api/incidents/errors:0a1b2c/snooze',
      '/api/people/asha',
      '/favicon.ico',
    ]) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(res.json.code).toBe(ConsoleErrorCodes.NOT_FOUND)
    }
    const wrong = await send(c.port, '/api/incidents', { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers['allow']).toBe('GET, HEAD')
    expect((await get('/api/incidents/errors:0a1b2c3d4e5f60/ack')).status).toBe(405)
    expect((await send(c.port, '/api/silences', { method: 'PUT', body: {} })).status).toBe(405)
  })

  it('answers 400 or 404 to hostile paths, and keeps serving', async () => {
    const hostile: [string, number][] = [
      ['/api/incidents/%00', 400],
      ['/api/incidents/abcd%00efgh', 400],
      ['/api/incidents/%zz', 400],
      ['/api/incidents/..', 400],
      ['/api/incidents/%2e%2e/ack', 400],
      ['/api/incidents/../silences', 400],
      ['/api/incidents/a%2Fb%2Fcdef', 400],
      [`/api/incidents/${'a'.repeat(201)}`, 400],
      [`/api/incidents/${'a'.repeat(5000)}`, 400],
      ['/api/incidents/abc', 400],
      ['//', 404],
      ['/..', 400],
      ['/api//incidents', 404],
    ]
    for (const [path, status] of hostile) {
      const res = await get(path)
      expect(res.status, path).toBe(status)
      expect(res.json.code, path).toMatch(/^LOGX_CONSOLE_ERR_/)
    }
    expect((await get('/api/incidents')).status).toBe(200)
  })

  it('refuses a body over 16 KiB (413), one that is not JSON (415), and broken JSON (400)', async () => {
    const big = await post('/api/silences', {
      matchers: { rule: 'db' },
      duration: '1h',
      comment: 'x'.repeat(17 * 1024),
    })
    expect(big.status).toBe(413)
    expect(big.json.code).toBe(ConsoleErrorCodes.BODY_TOO_LARGE)
    const chunked = await send(c.port, '/api/silences', {
      method: 'POST',
      body: 'x'.repeat(20 * 1024),
      chunked: true,
      headers: { 'content-type': 'application/json' },
    })
    expect(chunked.status).toBe(413)
    const form = await send(c.port, '/api/silences', {
      method: 'POST',
      body: 'rule=db',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(form.status).toBe(415)
    expect(form.json).toEqual({
      error: 'content-type: must be application/json',
      code: ConsoleErrorCodes.UNSUPPORTED_MEDIA_TYPE,
    })
    const broken = await send(c.port, '/api/silences', {
      method: 'POST',
      body: '{"matchers":',
      headers: { 'content-type': 'application/json' },
    })
    expect(broken.status).toBe(400)
    expect(broken.json).toEqual({ error: 'body: not valid JSON', code: ConsoleErrorCodes.INVALID_BODY })
    expect((await get('/api/incidents')).status).toBe(200)
  })

  it('answers 500 when the backend throws, tells onError, and keeps serving', async () => {
    c.backend.breakWith(new Error('state file gone'))
    const res = await get('/api/incidents')
    expect(res.status).toBe(500)
    expect(res.json.code).toBe(ConsoleErrorCodes.INTERNAL)
    expect(res.text).not.toContain('state file gone')
    expect(c.errors).toContainEqual(new Error('state file gone'))
    c.backend.breakWith(undefined)
    expect((await get('/api/incidents')).status).toBe(200)
  })

  it('answers HEAD like GET without a body', async () => {
    const res = await send(c.port, '/api/incidents', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
  })
})

describe('the metrics server around it', () => {
  it('still serves /metrics and /health, and refuses to change them', async () => {
    expect((await get('/metrics', { token: null })).status).toBe(200)
    const health = await get('/health?verbose=1', { token: null })
    expect(health.json).toEqual({ ok: true })
    expect((await send(c.port, '/metrics', { method: 'POST', token: null })).status).toBe(405)
  })

  it('with no console, answers other paths as before', async () => {
    const bare = await startMetricsServer(
      { host: '127.0.0.1', port: 0 },
      () => [],
      () => ({ ok: true }),
    )
    const port = Number(new URL(bare.url).port)
    try {
      expect((await send(port, '/console', { token: null })).status).toBe(404)
      expect((await send(port, '//', { token: null })).status).toBe(404)
      expect((await send(port, '/api/silences', { method: 'POST', token: null })).status).toBe(405)
    } finally {
      await bare.close()
    }
  })
})

it('never shows the token in an answer', async () => {
  const answers = await Promise.all([
    get('/api/incidents'),
    get('/api/incidents/%00'),
    get(`/api/${TOKEN}`),
    get('/api/incidents', { token: `${TOKEN}x` }),
    post('/api/silences', { matchers: { rule: TOKEN }, duration: TOKEN }),
    post('/api/silences', { [TOKEN]: 1 }),
    get('/'),
  ])
  for (const a of answers) expect(a.text + JSON.stringify(a.headers)).not.toContain(TOKEN)
})
