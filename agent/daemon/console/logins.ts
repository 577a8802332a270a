// One-time login codes and the sessions they open: how a browser gets into the console without the
// page ever carrying a secret. The agent prints a login URL (`<console>/#login=<code>`) at start and
// `logx-agent console` asks it for more; the page trades the code for a session secret it keeps in
// memory only. The clock is an argument; nothing here knows HTTP.
//
// 1. A code is 24 random bytes (base64url). It opens one session: the first exchange uses it up.
// 2. A code is refused once CODE_TTL_MS (10 minutes) has passed since it was issued.
// 3. At most MAX_CODES codes wait at once: one more drops the oldest.
// 4. A session secret (32 random bytes) is live until SESSION_IDLE_MS passes without a request
//    bearing it; each such request renews it.
// 5. At most MAX_SESSIONS sessions live at once: one more ends the one used least recently.
// 6. A secret is compared against every entry, each in constant time (SHA-256 digests, then
//    timingSafeEqual), with no early exit: how long a refusal takes says nothing of the entries.

import { randomBytes } from 'node:crypto'
import { bytesEqual } from '../../secret-equal'
import { sha256 } from '../../sha256'

export const CODE_TTL_MS = 10 * 60_000
export const SESSION_IDLE_MS = 60 * 60_000
export const MAX_CODES = 16
export const MAX_SESSIONS = 32

interface Entry {
  digest: Buffer
  /** A code: when it was issued. A session: when a request last bore it. */
  at: number
}

export interface ConsoleLogins {
  /** A fresh one-time code, and when it stops being accepted. */
  issueCode(now: number): { code: string; expiresAt: number }
  /** The session secret a live, unused code opens; undefined when it is unknown, used or expired. */
  exchange(code: string, now: number): string | undefined
  /** Whether `secret` is a live session's; a live one is renewed. */
  sessionLive(secret: string, now: number): boolean
  /** Counts, for tests and metrics. */
  size(): { codes: number; sessions: number }
}

const digestOf = (secret: string): Buffer => sha256(Buffer.from(secret, 'utf8'))

/** Rule 6: the index of the entry whose digest is `digest`, or -1, after comparing with every one. */
function findEntry(entries: readonly Entry[], digest: Buffer): number {
  let found = -1
  entries.forEach((entry, index) => {
    if (bytesEqual(digest, entry.digest)) found = index
  })
  return found
}

/** Drops entries older than `ttl` at `now` (rules 2 and 4). */
function dropExpired(entries: Entry[], ttl: number, now: number): void {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]
    if (entry !== undefined && now - entry.at >= ttl) entries.splice(i, 1)
  }
}

/** Rules 3 and 5: makes room for one more by dropping the oldest (`at` smallest). */
function makeRoom(entries: Entry[], max: number): void {
  while (entries.length >= max) {
    let oldest = 0
    entries.forEach((entry, index) => {
      if (entry.at < (entries[oldest]?.at ?? Infinity)) oldest = index
    })
    entries.splice(oldest, 1)
  }
}

export function createConsoleLogins(): ConsoleLogins {
  const codes: Entry[] = []
  const sessions: Entry[] = []
  return {
    issueCode(now) {
      dropExpired(codes, CODE_TTL_MS, now)
      makeRoom(codes, MAX_CODES)
      const code = randomBytes(24).toString('base64url')
      codes.push({ digest: digestOf(code), at: now })
      return { code, expiresAt: now + CODE_TTL_MS }
    },
    exchange(code, now) {
      dropExpired(codes, CODE_TTL_MS, now)
      const index = findEntry(codes, digestOf(code))
      if (index === -1) return undefined
      codes.splice(index, 1)
      dropExpired(sessions, SESSION_IDLE_MS, now)
      makeRoom(sessions, MAX_SESSIONS)
      const secret = randomBytes(32).toString('base64url')
      sessions.push({ digest: digestOf(secret), at: now })
      return secret
    },
    sessionLive(secret, now) {
      dropExpired(sessions, SESSION_IDLE_MS, now)
      const index = findEntry(sessions, digestOf(secret))
      const session = sessions[index]
      if (session === undefined) return false
      session.at = now
      return true
    },
    size: () => ({ codes: codes.length, sessions: sessions.length }),
  }
}
