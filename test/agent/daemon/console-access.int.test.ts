// How the command line finds a running agent's console and gets in, with a real agent process:
// `<state_dir>/console.json` names the console's URL, `console.token` (made per start when none is
// configured) is readable by its owner only and opens changes, and a graceful stop takes both away.
import { afterAll, expect, it } from 'vitest'
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createWorkspace, messagingYaml, startAgentProcess, type RunningAgent, type Workspace } from './helpers'

let ws: Workspace | undefined
let agent: RunningAgent | undefined
afterAll(async () => {
  await agent?.kill('SIGKILL')
  ws?.remove()
})

it('writes where the console is and a token only its owner reads; changes need it; a stop removes both', async () => {
  ws = createWorkspace()
  mkdirSync(ws.logs, { recursive: true })
  ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources: [{ name: app, paths: [${ws.logs}/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
metrics: { listen: 127.0.0.1:0 }
`)
  agent = await startAgentProcess(ws.config)
  const address = JSON.parse(readFileSync(join(ws.state, 'console.json'), 'utf8')) as { url: string; pid: number }
  expect(address.url).toBe(agent.metricsUrl)
  expect(address.pid).toBe(agent.child.pid)
  const tokenFile = join(ws.state, 'console.token')
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
  const token = readFileSync(tokenFile, 'utf8').trim()
  expect(token.length).toBeGreaterThanOrEqual(32)
  expect(agent.output()).not.toContain(token)

  const silence = (headers: Record<string, string>) =>
    fetch(`${agent?.metricsUrl}/api/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ matchers: { rule: 'errors' }, duration: '1h' }),
    })
  expect((await silence({})).status).toBe(401)
  expect((await silence({ authorization: 'Bearer wrong-token-wrong-token-wrong' })).status).toBe(401)
  expect((await silence({ authorization: `Bearer ${token}` })).status).toBe(201)

  expect(await agent.kill('SIGINT')).toBe(0)
  agent = undefined
  expect(existsSync(join(ws.state, 'console.json'))).toBe(false)
  expect(existsSync(tokenFile)).toBe(false)
  // The silence made at run time outlives the agent.
  expect(readFileSync(join(ws.state, 'silences.json'), 'utf8')).toContain('"rule":"errors"')
})
