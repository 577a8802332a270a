// Who may use the console, over real HTTP: the token (configured or generated per start) or a session
// opened with a one-time login code, on every /api request; the identity proof; the Host check against
// DNS rebinding, no CORS, no cookies, and the page's security headers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConsoleError, ConsoleErrorCodes, createConsoleHandler } from '../../../../agent/daemon/console'
import { identityProof, newChallenge } from '../../../../agent/daemon/console/identity'
import { createConsoleLogins } from '../../../../agent/daemon/console/logins'
import { createFakeBackend, incident } from './fake-backend'
import { send, startConsole, TOKEN, type Answer, type ConsoleServer } from './server'

const withIncident = () => {
  const backend = createFakeBackend()
  backend.put(incident('errors:0a1b2c3d4e5f60'))
  return backend
}

function noCorsNoCookie(answer: Answer): void {
  expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-') || h === 'set-cookie')).toEqual([])
}

describe('with a configured token', () => {
  let c: ConsoleServer
  beforeAll(async () => {
    c = await startConsole({ generated: false }, withIncident())
  })
  afterAll(() => c.server.close())

  it('needs it on every /api request, reading too', async () => {
    for (const path of ['/api/incidents', '/api/incidents/errors:0a1b', '/api/silences', '/api/people']) {
      const res = await send(c.port, path, { token: null })
      expect(res.status, path).toBe(401)
      expect(res.json).toEqual({
        error: expect.stringContaining('authorization: Bearer <token>'),
        code: ConsoleErrorCodes.UNAUTHORIZED,
      })
      expect(res.headers['www-authenticate']).toBe('Bearer realm="logx-console"')
    }
  })

  it('refuses a wrong token, a token without "Bearer", and an action without one, changing nothing', async () => {
    const wrong = await send(c.port, '/api/incidents', { token: 'test-token-5f1c9a0e7d2b4c69' })
    expect(wrong.status).toBe(401)
    expect(wrong.json.error).toBe('authorization: wrong token, or a session that ended')
    expect((await send(c.port, '/api/incidents', { token: null, headers: { authorization: TOKEN } })).status).toBe(401)
    expect((await send(c.port, '/api/incidents', { token: '' })).status).toBe(401)
    const ack = await send(c.port, '/api/incidents/errors:0a1b2c3d4e5f60/ack', {
      method: 'POST',
      token: null,
      body: { by: 'mallory' },
    })
    expect(ack.status).toBe(401)
    expect(c.backend.actions).toEqual([])
  })

  it('takes the right one, whatever the case of "Bearer"', async () => {
    expect((await send(c.port, '/api/incidents')).status).toBe(200)
    expect(
      (await send(c.port, '/api/incidents', { token: null, headers: { authorization: `bearer ${TOKEN}` } })).status,
    ).toBe(200)
  })

  it('serves the page without the token', async () => {
    const page = await send(c.port, '/', { token: null })
    expect(page.status).toBe(200)
    expect(page.text).toContain('id="token-form"')
    expect(page.text).not.toContain(TOKEN)
  })
})

describe('with a token generated at start (loopback, none configured)', () => {
  let c: ConsoleServer
  beforeAll(async () => {
    c = await startConsole({ generated: true }, withIncident())
  })
  afterAll(() => c.server.close())

  it('serves a page that holds no token to a request without one (curl 127.0.0.1:9464/)', async () => {
    for (const path of ['/', '/console']) {
      const page = await send(c.port, path, { token: null })
      expect(page.status).toBe(200)
      expect(page.text).not.toContain(TOKEN)
      expect(page.text).not.toContain('logx-console-token')
    }
    const api = await Promise.all(
      ['/api/incidents', '/api/people', '/api/nothing', '/metrics', '/health'].map((p) => send(c.port, p)),
    )
    for (const a of api) expect(a.text).not.toContain(TOKEN)
  })

  it('refuses every read without a credential, as it refuses changes', async () => {
    for (const path of ['/api/incidents', '/api/incidents/errors:0a1b', '/api/silences', '/api/people']) {
      const res = await send(c.port, path, { token: null })
      expect(res.status, path).toBe(401)
      expect(res.json.code).toBe(ConsoleErrorCodes.UNAUTHORIZED)
    }
    const ack = await send(c.port, '/api/incidents/errors:0a1b2c3d4e5f60/ack', { method: 'POST', token: null })
    expect(ack.status).toBe(401)
    const silence = await send(c.port, '/api/silences', {
      method: 'POST',
      token: null,
      body: { matchers: { rule: 'x' }, duration: '1000d' },
    })
    expect(silence.status).toBe(401)
    expect((await send(c.port, '/api/silences/s1', { method: 'DELETE', token: null })).status).toBe(401)
    expect(c.backend.actions).toEqual([])
    expect(c.backend.added).toEqual([])
    expect((await send(c.port, '/api/incidents/errors:0a1b2c3d4e5f60/ack', { method: 'POST', body: {} })).status).toBe(
      200,
    )
  })
})

describe('one-time login codes and sessions', () => {
  let c: ConsoleServer
  const logins = createConsoleLogins()
  beforeAll(async () => {
    c = await startConsole({ generated: true, logins }, withIncident())
  })
  afterAll(() => c.server.close())

  const login = (code: unknown, headers?: Record<string, string>) =>
    send(c.port, '/api/login', { method: 'POST', token: null, body: { code }, headers })

  it('trades a code for a session once; the second use is refused', async () => {
    const { code } = logins.issueCode(Date.now())
    const first = await login(code)
    expect(first.status).toBe(200)
    const session = String(first.json.session)
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const again = await login(code)
    expect(again.status).toBe(401)
    expect(again.json).toEqual({
      error: expect.stringContaining('logx-agent console'),
      code: 'LOGX_CONSOLE_ERR_LOGIN_REFUSED',
    })
    expect(again.text).not.toContain(code)
    const listed = await send(c.port, '/api/incidents', { token: session })
    expect(listed.status).toBe(200)
    expect(listed.json.total).toBe(1)
    expect(
      (
        await send(c.port, '/api/silences', {
          method: 'POST',
          token: session,
          body: { matchers: { rule: 'x' }, duration: '1h' },
        })
      ).status,
    ).toBe(201)
  })

  it('refuses an unknown code, a code as a form or as text, and a session where the token is needed', async () => {
    expect((await login('A'.repeat(32))).status).toBe(401)
    expect((await login(12)).status).toBe(400)
    const { code } = logins.issueCode(Date.now())
    const form = await send(c.port, '/api/login', {
      method: 'POST',
      token: null,
      body: `code=${code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(form.status).toBe(415)
    const session = String((await login(code)).json.session)
    const mint = await send(c.port, '/api/login-codes', { method: 'POST', token: session })
    expect(mint.status).toBe(401)
    expect(mint.json.error).toContain('console token')
    const minted = await send(c.port, '/api/login-codes', { method: 'POST' })
    expect(minted.status).toBe(201)
    expect((await login(minted.json.code)).status).toBe(200)
  })

  it('refuses a session that is not one', async () => {
    const res = await send(c.port, '/api/incidents', { token: 'x'.repeat(43) })
    expect(res.status).toBe(401)
  })
})

describe('the identity proof', () => {
  it("answers a challenge with HMAC-SHA256 under console.json's key, to anyone on loopback", async () => {
    const key = 'k'.repeat(43)
    const c = await startConsole({ generated: true, identityKey: key })
    try {
      const challenge = newChallenge()
      const res = await send(c.port, '/api/identity', { method: 'POST', token: null, body: { challenge } })
      expect(res.status).toBe(200)
      expect(res.json).toEqual({ proof: identityProof(key, challenge) })
      const bad = await send(c.port, '/api/identity', { method: 'POST', token: null, body: { challenge: 'zz' } })
      expect(bad.status).toBe(400)
    } finally {
      await c.server.close()
    }
  })
})

describe('the Host header, listening on loopback', () => {
  let c: ConsoleServer
  beforeAll(async () => {
    c = await startConsole({ generated: true })
  })
  afterAll(() => c.server.close())

  it("accepts loopback names with the server's port", async () => {
    for (const host of [`127.0.0.1:${c.port}`, `localhost:${c.port}`, `LocalHost:${c.port}`, `[::1]:${c.port}`]) {
      expect((await send(c.port, '/api/incidents', { host })).status, host).toBe(200)
    }
  })

  it('answers 403 to any other name or port, page and API alike (DNS rebinding)', async () => {
    for (const host of [
      `evil.example:${c.port}`,
      'evil.example',
      `127.0.0.1:${c.port + 1}`,
      '127.0.0.1',
      `127.0.0.2:${c.port}`,
      `localhost.:${c.port}`,
      `localhost.evil.example:${c.port}`,
    ]) {
      for (const path of ['/', '/api/incidents']) {
        const res = await send(c.port, path, { host })
        expect(res.status, `${host} ${path}`).toBe(403)
        expect(res.json.code).toBe(ConsoleErrorCodes.FORBIDDEN_HOST)
        expect(res.text).not.toContain(TOKEN)
      }
    }
  })

  it('is not checked when the console listens on another address (the token guards it)', async () => {
    const open = await startConsole({ generated: false, host: '0.0.0.0' })
    try {
      expect((await send(open.port, '/api/incidents', { host: 'agent-7.internal:9464' })).status).toBe(200)
      expect((await send(open.port, '/api/incidents', { host: 'agent-7.internal:9464', token: null })).status).toBe(401)
    } finally {
      await open.server.close()
    }
  })
})

describe('no CORS, no cookies', () => {
  let c: ConsoleServer
  beforeAll(async () => {
    c = await startConsole({ generated: true })
  })
  afterAll(() => c.server.close())

  it('answers every preflight with 405 and no Access-Control-* header', async () => {
    const preflight = {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization',
    }
    for (const path of ['/api/incidents', '/api/incidents/errors:0a1b2c3d/ack', '/api/silences', '/', '/api/nothing']) {
      const res = await send(c.port, path, { method: 'OPTIONS', headers: preflight, token: null })
      expect(res.status, path).toBe(405)
      expect(res.json.code).toBe(ConsoleErrorCodes.METHOD_NOT_ALLOWED)
      noCorsNoCookie(res)
    }
  })

  it('sends no Access-Control-* header and no cookie on any answer, even to a cross-origin request', async () => {
    const origin = { origin: 'https://evil.example' }
    const answers = await Promise.all([
      send(c.port, '/', { headers: origin }),
      send(c.port, '/api/incidents', { headers: origin }),
      send(c.port, '/api/incidents', { headers: origin, host: 'evil.example' }),
      send(c.port, '/api/silences', {
        method: 'POST',
        headers: origin,
        body: { matchers: { rule: 'x' }, duration: '1h' },
      }),
    ])
    answers.forEach(noCorsNoCookie)
  })
})

describe("the page's headers", () => {
  let c: ConsoleServer
  beforeAll(async () => {
    c = await startConsole({ generated: true })
  })
  afterAll(() => c.server.close())

  it("allow only its own nonce'd script and style, no framing, no referrer, no caching", async () => {
    const page = await send(c.port, '/')
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['x-frame-options']).toBe('DENY')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    const csp = String(page.headers['content-security-policy'])
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1]
    expect(nonce).toBeDefined()
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(page.text).toContain(`<script nonce="${nonce}">`)
    // No inline handler anywhere in the markup: the script attaches its listeners.
    expect(page.text).not.toMatch(/\son[a-z]+\s*=/i)
    const again = await send(c.port, '/')
    expect(String(again.headers['content-security-policy'])).not.toContain(nonce)
  })
})

describe('options', () => {
  const backend = createFakeBackend()
  it('refuse a generated token on an address other than loopback', () => {
    let thrown: unknown
    try {
      createConsoleHandler({ backend, token: TOKEN, generated: true, host: '0.0.0.0' })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConsoleError)
    expect(thrown).toMatchObject({ code: ConsoleErrorCodes.OPTIONS, message: expect.stringContaining('console.token') })
    expect((thrown as Error).message).not.toContain(TOKEN)
  })

  it('refuse a token too short to be a secret', () => {
    expect(() => createConsoleHandler({ backend, token: 'abc', generated: false, host: '127.0.0.1' })).toThrow(
      /at least 8 characters/,
    )
  })
})
