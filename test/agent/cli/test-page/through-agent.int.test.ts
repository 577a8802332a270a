// `logx-agent test-page` through a running agent (in this process): the CLI finds it by
// <state_dir>/console.json, starts the page with POST /api/test-pages and follows
// GET /api/test-pages/<id>; the agent's page waits for the sandbox's simulated missed call.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { testPageCommand } from '../../../../agent/cli/test-page/command'
import { readAgentConfig } from '../../../../agent/config/load/load-config'
import { startAgent, type Agent } from '../../../../agent/daemon/agent'
import { createAgentLogger } from '../../../../agent/daemon/logger'
import { pollUntil } from '../../../helpers/poll-until'
import { tempDir } from '../../../helpers/temp-dir'
import { capture } from '../capture'

const ASHA = '919800000001'

describe('logx-agent test-page through the running agent', () => {
  let agent: Agent | undefined
  afterEach(async () => {
    await agent?.stop(1000)
    agent = undefined
  })

  it('pages through the console API and exits 0 on the missed call', async () => {
    const dir = tempDir('test-page-agent')
    const file = join(dir, 'agent.yaml')
    writeFileSync(
      file,
      `messaging: { sandbox: { listen: 127.0.0.1:0 } }
state_dir: ${join(dir, 'state')}
sources: [{ name: app, paths: [${join(dir, 'logs')}/*.log] }]
people: { asha: { phone: "${ASHA}" } }
channels: { oncall-sms: { type: sms, people: [asha] } }
acknowledge: { poll_interval: 1s }
rules: [{ name: errors, notify: [oncall-sms] }]
metrics: { listen: 127.0.0.1:0 }
`,
    )
    const loaded = await readAgentConfig(file, { env: {} })
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems))
    agent = await startAgent(loaded.config, { log: createAgentLogger({ level: 'silent' }) })
    const base = new URL(agent.endpoint.inboxUrl ?? '').origin
    const { io, out } = capture()
    const running = testPageCommand(
      { config: file, target: 'asha', timeout: '60s', json: false, url: undefined, tokenFile: undefined },
      io,
      {},
    )
    await pollUntil('the page queued', () => out().stdout.includes('queued: sms via oncall-sms'))
    expect(out().stdout).not.toContain('no running agent')
    const call = await fetch(`${base}/_sandbox/missed-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ caller: ASHA }),
    })
    expect(call.status).toBe(201)
    expect(await running, out().stderr).toBe(0)
    expect(out().stdout).toMatch(/acknowledged: missed call from \+?919800000001 \(asha\)/)
    // The progress stays readable from the console.
    const id = /test page ([0-9a-f]+) /.exec(out().stdout)?.[1]
    const token = readFileSync(join(dir, 'state', 'console.token'), 'utf8').trim()
    const progress = await fetch(`${agent.metricsUrl ?? ''}/api/test-pages/${id ?? ''}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await progress.json()).toMatchObject({ testPage: { test: true, state: 'acknowledged', person: 'asha' } })
  }, 60_000)
})
