// How the command line and a browser find a running agent's console and get in, with a real agent
// process: `<state_dir>/console.json` (0600) names the console's URL, pid and identity key,
// `console.token` (made per start when none is configured) is readable by its owner only and opens
// every API request, the banner's one-time login URL opens one session, and a graceful stop takes
// both files away.
import { afterAll, expect, it } from 'vitest'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { agentConfig, startAgentInWorkspace, type AgentInWorkspace } from './helpers'

let started: AgentInWorkspace | undefined
afterAll(() => started?.stop())

it('writes where the console is and a token only its owner reads; changes need it; a stop removes both', async () => {
  started = await startAgentInWorkspace((ws) =>
    agentConfig(ws, { sources: `  - { name: app, paths: [${ws.logs}/*.log] }` }),
  )
  const { ws, agent } = started
  const addressFile = join(ws.state, 'console.json')
  const address = JSON.parse(readFileSync(addressFile, 'utf8')) as { url: string; pid: number; key: string }
  expect(address.url).toBe(agent.metricsUrl)
  expect(address.pid).toBe(agent.child.pid)
  expect(address.key).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(statSync(addressFile).mode & 0o777).toBe(0o600)
  const tokenFile = join(ws.state, 'console.token')
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
  const token = readFileSync(tokenFile, 'utf8').trim()
  expect(token.length).toBeGreaterThanOrEqual(32)
  expect(agent.output()).not.toContain(token)

  const silence = (headers: Record<string, string>) =>
    fetch(`${agent.metricsUrl}/api/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ matchers: { rule: 'errors' }, duration: '1h' }),
    })
  expect((await silence({})).status).toBe(401)
  expect((await silence({ authorization: 'Bearer wrong-token-wrong-token-wrong' })).status).toBe(401)
  expect((await silence({ authorization: `Bearer ${token}` })).status).toBe(201)

  // Reading needs it too, and the page holds nothing of it.
  expect((await fetch(`${agent.metricsUrl}/api/incidents`)).status).toBe(401)
  expect(await (await fetch(`${agent.metricsUrl}/`)).text()).not.toContain(token)
  // The banner's one-time login URL opens one session, once.
  const code = /console: \S+\/#login=([A-Za-z0-9_-]+)/.exec(agent.output())?.[1] ?? ''
  const login = () =>
    fetch(`${agent.metricsUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    })
  const first = await login()
  expect(first.status).toBe(200)
  const { session } = (await first.json()) as { session: string }
  const listed = await fetch(`${agent.metricsUrl}/api/incidents`, { headers: { authorization: `Bearer ${session}` } })
  expect(listed.status).toBe(200)
  expect((await login()).status).toBe(401)

  expect(await agent.kill('SIGINT')).toBe(0)
  expect(existsSync(join(ws.state, 'console.json'))).toBe(false)
  expect(existsSync(tokenFile)).toBe(false)
  // The silence made at run time outlives the agent.
  expect(readFileSync(join(ws.state, 'silences.json'), 'utf8')).toContain('"rule":"errors"')
})
