// POST /api/silences over real HTTP on 127.0.0.1, with the agent's own backend behind the console
// (a real alert path in memory, its run-time silences): a matcher pattern that can backtrack
// exponentially on a log line is refused with the field and the reason (agent/config/values/
// user-pattern.ts), and no silence is kept.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parseAgentConfig } from '../../../../agent/config/load/load-config'
import { createAlertPath } from '../../../../agent/acknowledge/with-actions'
import { createConsoleBackend } from '../../../../agent/daemon/console-backend'
import { ConsoleErrorCodes } from '../../../../agent/daemon/console'
import { setupOfConfig } from '../../../../agent/delivery/alert-setup'
import { send, startConsole, type ConsoleServer } from './server'

const quiet = { info() {}, warn() {}, error() {} }
let c: ConsoleServer

function agentBackend(): ReturnType<typeof createConsoleBackend> {
  const result = parseAgentConfig(
    `sources: [{ name: app, paths: [/tmp/never/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
rules: [{ name: errors, notify: oncall-sms }]
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const config = result.config
  const path = createAlertPath({
    setup: setupOfConfig(config, []),
    statePath: undefined,
    outbox: { path: undefined },
    api: undefined,
    crm: undefined,
    log: quiet,
    now: Date.now(),
  })
  return createConsoleBackend(
    path,
    () => config,
    () => 1000,
    Date.now,
  )
}

beforeAll(async () => {
  // The console's own type for its backend is the fake's superset; the agent's backend is what runs.
  c = await startConsole({}, agentBackend() as unknown as Parameters<typeof startConsole>[1])
})
afterAll(() => c.server.close())

it('refuses a silence whose msg matcher is /^(a+)+$/, naming the matcher and why', async () => {
  const res = await send(c.port, '/api/silences', {
    method: 'POST',
    body: { matchers: { rule: 'errors', msg: '/^(a+)+$/' }, duration: '2h' },
  })
  expect(res.status).toBe(400)
  expect(res.json).toEqual({
    error: expect.stringMatching(/^matchers\.msg: regular expression \/\^\(a\+\)\+\$\/ can take exponential time/),
    code: ConsoleErrorCodes.INVALID_BODY,
  })
  expect((await send(c.port, '/api/silences')).json.silences).toEqual([])
})

it('keeps one whose pattern has no nested repetition', async () => {
  const res = await send(c.port, '/api/silences', {
    method: 'POST',
    body: { matchers: { msg: '/^a+$/' }, duration: '2h' },
  })
  expect(res.status).toBe(201)
})
