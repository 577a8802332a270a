// GET /api/kinds over real HTTP on 127.0.0.1: the console's auth as on every /api route, the query
// (sort, limit, source) checked and applied, each kind with its 24 hourly counts, first seen, new
// mark, hosts and incident; 404 on an agent that keeps no kinds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFakeBackend } from './fake-backend'
import { HOUR, kindEntry, kindsReader } from './kinds-fixtures'
import { send, startConsole, type ConsoleServer } from './server'

let c: ConsoleServer
let bare: ConsoleServer
const now = Date.now()
const thisHour = Math.floor(now / HOUR) * HOUR

beforeAll(async () => {
  const reader = kindsReader([
    kindEntry('k-busy', { count: 900, firstSeen: now - 5 * 86_400_000, hourly: [[thisHour - 2 * HOUR, 900]] }),
    kindEntry('k-fresh', {
      count: 2,
      firstSeen: now - 60_000,
      hourly: [[thisHour, 2]],
      hosts: ['web-2', 'web-1'],
      incident: 'errors:0a1b2c3d4e5f',
    }),
    kindEntry('k-db', { source: 'db', count: 50, firstSeen: now - 2 * 86_400_000 }),
  ])
  // The console's clock pinned, so the hour buckets cannot move under the test.
  c = await startConsole({ now: () => now }, Object.assign(createFakeBackend(), { kinds: reader }))
  bare = await startConsole()
})

afterAll(async () => {
  await c?.server.close()
  await bare?.server.close()
})

describe('GET /api/kinds', () => {
  it('needs the token, as every /api route', async () => {
    const answer = await send(c.port, '/api/kinds', { token: null })
    expect(answer.status).toBe(401)
    expect(answer.json.code).toBe('LOGX_CONSOLE_ERR_UNAUTHORIZED')
  })

  it('lists the kinds, most lines first, each with its last 24 hours, first seen, new mark, hosts, incident', async () => {
    const answer = await send(c.port, '/api/kinds')
    expect(answer.status).toBe(200)
    expect(answer.json.total).toBe(3)
    expect(answer.json.kinds.map((k: { id: string }) => k.id)).toEqual(['k-busy', 'k-db', 'k-fresh'])
    const [busy, , fresh] = answer.json.kinds
    expect(busy.hourly).toHaveLength(24)
    expect(busy.hourly[21]).toBe(900)
    expect(busy.new).toBe(false)
    expect(fresh).toMatchObject({
      new: true,
      firstSeen: now - 60_000,
      hosts: ['web-2', 'web-1'],
      incident: 'errors:0a1b2c3d4e5f',
      level: 50,
      source: 'app',
    })
    expect(fresh.hourly[23]).toBe(2)
  })

  it('sorts newest first, keeps one source, and at most limit', async () => {
    const newest = await send(c.port, '/api/kinds?sort=new')
    expect(newest.json.kinds.map((k: { id: string }) => k.id)).toEqual(['k-fresh', 'k-db', 'k-busy'])
    const db = await send(c.port, '/api/kinds?source=db')
    expect(db.json).toMatchObject({ total: 1, kinds: [{ id: 'k-db' }] })
    const one = await send(c.port, '/api/kinds?limit=1&sort=count')
    expect(one.json.kinds.map((k: { id: string }) => k.id)).toEqual(['k-busy'])
    expect(one.json.total).toBe(3)
  })

  it('refuses a bad query naming the parameter', async () => {
    for (const [query, named] of [
      ['sort=size', 'sort:'],
      ['limit=0', 'limit:'],
      ['limit=20000', 'limit:'],
      ['source=', 'source:'],
      ['source=%07bell', 'source:'],
      ['colour=red', 'colour:'],
    ] as const) {
      const answer = await send(c.port, `/api/kinds?${query}`)
      expect(answer.status, query).toBe(400)
      expect(answer.json.code).toBe('LOGX_CONSOLE_ERR_BAD_PATH')
      expect(answer.json.error.startsWith(named), answer.json.error).toBe(true)
    }
  })

  it('is read only, and 404 on an agent that keeps no kinds', async () => {
    const posted = await send(c.port, '/api/kinds', { method: 'POST', body: {} })
    expect(posted.status).toBe(405)
    const none = await send(bare.port, '/api/kinds')
    expect(none.status).toBe(404)
    expect(none.json.error).toContain('keeps no error kinds')
  })
})
