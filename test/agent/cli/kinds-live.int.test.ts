// `logx-agent kinds --live` against a real console (the daemon's handler on 127.0.0.1 with the
// fake backend and a kind table): the table with the new mark, hosts and incident; --level; --json
// as the API lists the kinds; the token refused and an agent without kinds, as sentences (exit 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kindsCommand, type KindsArgs } from '../../../agent/cli/kinds/kinds-command'
import { createFakeBackend } from '../daemon/console/fake-backend'
import { kindEntry, kindsReader } from '../daemon/console/kinds-fixtures'
import { startConsole, TOKEN, type ConsoleServer } from '../daemon/console/server'

let c: ConsoleServer
let bare: ConsoleServer
const now = Date.now()

beforeAll(async () => {
  const reader = kindsReader([
    kindEntry('aaaa000011112222', { level: 30, template: 'user <*> logged in', count: 900, firstSeen: now - 9e8 }),
    kindEntry('bbbb000011112222', {
      template: 'Connection refused to <*>',
      count: 12,
      firstSeen: now - 120_000,
      hosts: ['web-1', 'web-2'],
      incident: 'errors:77aa00112233',
    }),
  ])
  c = await startConsole({}, Object.assign(createFakeBackend(), { kinds: reader }))
  bare = await startConsole()
})

afterAll(async () => {
  await c?.server.close()
  await bare?.server.close()
})

async function live(url: string, more: Partial<KindsArgs> = {}, token = TOKEN) {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    signal: new AbortController().signal,
  }
  const args: KindsArgs = {
    files: [],
    config: undefined,
    url,
    tokenFile: undefined,
    json: false,
    format: undefined,
    level: undefined,
    perLine: false,
    live: true,
    ...more,
  }
  const code = await kindsCommand(args, io, { LOGX_CONSOLE_TOKEN: token })
  return { code, stdout, stderr }
}

describe('kinds --live', () => {
  it("lists the running agent's kinds, most lines first, with new, hosts and incident", async () => {
    const out = await live(c.server.url)
    expect(out.code).toBe(0)
    const lines = out.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID +LEVEL +COUNT +NEW +FIRST SEEN +LAST SEEN +HOSTS +INCIDENT +TEMPLATE$/)
    expect(lines[1]).toMatch(/^aaaa000011112222 +info +900 +\d+d\d*h? ago .*user <\*> logged in$/)
    expect(lines[2]).toMatch(/^bbbb000011112222 +error +12 +new +2m ago .*web-1,web-2 +errors:77aa00112233 +Connection/)
  })

  it('--level keeps that level and worse; --json prints the kinds as the API gives them', async () => {
    const out = await live(c.server.url, { level: 'error', json: true })
    const kinds = JSON.parse(out.stdout) as { id: string; hourly: number[]; new: boolean }[]
    expect(kinds.map((k) => k.id)).toEqual(['bbbb000011112222'])
    expect(kinds[0]?.hourly).toHaveLength(24)
    expect(kinds[0]?.new).toBe(true)
  })

  it('says why when the token is refused or the agent keeps no kinds (exit 1)', async () => {
    const refused = await live(c.server.url, {}, 'not-the-token-at-all')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('the console token was refused')
    expect(refused.stderr).not.toContain('not-the-token-at-all')
    const none = await live(bare.server.url)
    expect(none.code).toBe(1)
    expect(none.stderr).toBe('logx-agent: this agent keeps no error kinds (kinds are off)\n')
  })
})
