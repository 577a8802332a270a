// One-time login codes and sessions (agent/daemon/console/logins.ts): one test per numbered rule.

import { describe, expect, it } from 'vitest'
import {
  CODE_TTL_MS,
  createConsoleLogins,
  MAX_CODES,
  MAX_SESSIONS,
  SESSION_IDLE_MS,
} from '../../../../agent/daemon/console/logins'

const T0 = 1_700_000_000_000

describe('console logins', () => {
  it('1. a code is random, opens one session, and is used up by it', () => {
    const logins = createConsoleLogins()
    const { code, expiresAt } = logins.issueCode(T0)
    expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(logins.issueCode(T0).code).not.toBe(code)
    expect(expiresAt).toBe(T0 + CODE_TTL_MS)
    const session = logins.exchange(code, T0 + 1)
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(logins.exchange(code, T0 + 2)).toBeUndefined()
    expect(logins.sessionLive(session ?? '', T0 + 3)).toBe(true)
  })

  it('2. a code is refused once 10 minutes have passed', () => {
    const logins = createConsoleLogins()
    const late = logins.issueCode(T0).code
    const inTime = logins.issueCode(T0).code
    expect(logins.exchange(inTime, T0 + CODE_TTL_MS - 1)).toBeDefined()
    expect(logins.exchange(late, T0 + CODE_TTL_MS)).toBeUndefined()
  })

  it('3. at most MAX_CODES wait: one more drops the oldest', () => {
    const logins = createConsoleLogins()
    const codes = Array.from({ length: MAX_CODES + 1 }, (_, i) => logins.issueCode(T0 + i).code)
    expect(logins.size().codes).toBe(MAX_CODES)
    expect(logins.exchange(codes[0] ?? '', T0 + 100)).toBeUndefined()
    expect(logins.exchange(codes[1] ?? '', T0 + 100)).toBeDefined()
  })

  it('4. a session lives while used, and ends after an hour without a request', () => {
    const logins = createConsoleLogins()
    const session = logins.exchange(logins.issueCode(T0).code, T0) ?? ''
    expect(logins.sessionLive(session, T0 + SESSION_IDLE_MS - 1)).toBe(true)
    // Renewed by that request: another idle period from there.
    expect(logins.sessionLive(session, T0 + 2 * SESSION_IDLE_MS - 2)).toBe(true)
    expect(logins.sessionLive(session, T0 + 3 * SESSION_IDLE_MS)).toBe(false)
    expect(logins.size().sessions).toBe(0)
  })

  it('5. at most MAX_SESSIONS live: one more ends the one used least recently', () => {
    const logins = createConsoleLogins()
    const sessions: string[] = []
    for (let i = 0; i < MAX_SESSIONS; i++) sessions.push(logins.exchange(logins.issueCode(T0).code, T0 + i) ?? '')
    // The first is used again: the second is now the least recently used.
    expect(logins.sessionLive(sessions[0] ?? '', T0 + 1000)).toBe(true)
    logins.exchange(logins.issueCode(T0 + 1001).code, T0 + 1001)
    expect(logins.size().sessions).toBe(MAX_SESSIONS)
    expect(logins.sessionLive(sessions[0] ?? '', T0 + 1002)).toBe(true)
    expect(logins.sessionLive(sessions[1] ?? '', T0 + 1002)).toBe(false)
  })

  it('6. a secret that is not an entry is refused, whatever it shares with one', () => {
    const logins = createConsoleLogins()
    const { code } = logins.issueCode(T0)
    const session = logins.exchange(logins.issueCode(T0).code, T0) ?? ''
    for (const wrong of ['', code.slice(0, -1), `${code}x`, session.slice(0, -1), `${session} `])
      expect(logins.exchange(wrong, T0) ?? logins.sessionLive(wrong, T0), JSON.stringify(wrong)).toBeFalsy()
    // The code refused above is still good: a wrong guess uses up nothing.
    expect(logins.exchange(code, T0)).toBeDefined()
  })
})
