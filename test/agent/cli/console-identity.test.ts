// The CLI proves who holds the console's port before it sends a token (issue #32 item 9): a
// console.json left by a SIGKILLed agent, or a listener that is not the agent that wrote it, gets
// no request carrying the token. The listeners here record every request they are sent.
// And `logx-agent console`: a fresh one-time login URL from the running agent.
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { incidentsCommand } from '../../../agent/cli/incidents-command'
import { capture, cli } from './capture'
import { startFakeConsole, type FakeConsole } from './fake-console'
import { suiteTempDir } from '../../helpers/temp-dir'

const TOKEN = 'tok-secret-4c1d9e8f7a6b'

const dir = suiteTempDir('console-identity')

interface Recorder {
  url: string
  seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[]
  close(): Promise<void>
}

/** A listener on the port that is not the agent: it answers everything 200 `{ proof }` of its own making. */
async function startImpostor(): Promise<Recorder> {
  const seen: Recorder['seen'] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ proof: 'ab'.repeat(32), incidents: [] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** An agent config whose console.token is TOKEN, and its state directory holding `consoleJson`. */
function agentWith(name: string, consoleJson: string): { config: string; file: string } {
  const home = join(dir, name)
  mkdirSync(join(home, 'state'), { recursive: true })
  const config = join(home, 'agent.yaml')
  writeFileSync(
    config,
    `state_dir: ${join(home, 'state')}
sources: [{ name: app, paths: [${home}/*.log] }]
channels: { sms: { type: sms, numbers: [919800000001] } }
rules: [{ name: errors, notify: sms }]
metrics: { listen: 127.0.0.1:9464 }
console: { token: ${TOKEN} }
`,
  )
  const file = join(home, 'state/console.json')
  writeFileSync(file, consoleJson, { mode: 0o600 })
  return { config, file }
}

const args = (config: string) => ({ config, url: undefined, tokenFile: undefined, json: false, all: false })

describe('before a token leaves', () => {
  let impostor: Recorder
  afterEach(() => impostor.close())

  it('a console.json whose pid is gone is stale: nothing is sent to its port', async () => {
    impostor = await startImpostor()
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    const { config, file } = agentWith('stale', JSON.stringify({ url: impostor.url, pid: dead, key: 'k'.repeat(43) }))
    const { io, out } = capture()
    const code = await incidentsCommand(args(config), io, {})
    expect({ code, ...out() }).toEqual({
      code: 1,
      stdout: '',
      stderr: `logx-agent: no running agent: ${file} is stale (pid ${dead} not alive)\n`,
    })
    expect(impostor.seen).toEqual([])
  })

  it('a live listener that cannot prove it holds the key is refused before the token', async () => {
    impostor = await startImpostor()
    const key = 'k'.repeat(43)
    const { config, file } = agentWith('impostor', JSON.stringify({ url: impostor.url, pid: process.pid, key }))
    const { io, out } = capture()
    const code = await incidentsCommand(args(config), io, {})
    const host = new URL(impostor.url).host
    expect({ code, ...out() }).toEqual({
      code: 1,
      stdout: '',
      stderr: `logx-agent: the process on ${host} is not this agent (it cannot prove it holds the key in ${file})\n`,
    })
    // It was asked one thing, with no token: the challenge.
    expect(impostor.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/identity'])
    expect(impostor.seen[0]?.headers.authorization).toBeUndefined()
    expect(JSON.stringify(impostor.seen)).not.toContain(TOKEN)
    expect(JSON.parse(impostor.seen[0]?.body ?? '{}')).toEqual({ challenge: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })

  it('a console.json without a key is not trusted either', async () => {
    impostor = await startImpostor()
    const { config, file } = agentWith('no-key', JSON.stringify({ url: impostor.url, pid: process.pid }))
    const { io, out } = capture()
    expect(await incidentsCommand(args(config), io, {})).toBe(1)
    expect(out().stderr).toBe(
      `logx-agent: ${file} is not what this logx-agent writes (expected {"url", "pid", "key"})\n`,
    )
    expect(impostor.seen).toEqual([])
  })
})

describe('logx-agent console', () => {
  let fake: FakeConsole
  afterEach(() => fake.close())

  it('prints a fresh one-time login URL of the agent that proved who it is', async () => {
    fake = await startFakeConsole(TOKEN)
    const { config } = agentWith('login', fake.consoleJson())
    const out = await cli(['console', '--config', config, '--json'])
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    const printed = JSON.parse(out.stdout) as { url: string; expiresAt: number }
    expect(printed.url).toMatch(new RegExp(`^${fake.url}/#login=code-1-abcdefghijklmnop$`))
    expect(fake.identityChecks).toHaveLength(1)
    expect(fake.requests.map((r) => `${r.method} ${r.url} ${String(r.headers.authorization)}`)).toEqual([
      `POST /api/login-codes Bearer ${TOKEN}`,
    ])
  })
})
