// The agent with its embedded sandbox (what `npm start` runs) against the hostile neighbours of issue
// #32 (items 2-4): a rebinding page reads neither the sandbox nor /metrics and /health and simulates
// no missed call; another site's page stores no lead; the sandbox's store shows on /metrics; a listen
// address off loopback is refused at load unless messaging.sandbox.allow_remote.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readAgentConfig } from '../../../agent/config/load/load-config'
import { startAgent, type Agent } from '../../../agent/daemon/agent'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { suiteTempDir, tempDir } from '../../helpers/temp-dir'
import {
  crossOriginLeadFlood,
  rawRequest,
  rebindingPostsMissedCall,
  rebindingReadsAgent,
  rebindingReadsRecords,
} from '../../drills/lib/hostile-neighbours'

const ASHA = '919800000001'

function writeConfig(dir: string, listen: string, extra = ''): string {
  const file = join(dir, 'agent.yaml')
  writeFileSync(
    file,
    `messaging: { sandbox: { listen: "${listen}"${extra} } }
state_dir: ${join(dir, 'state')}
sources: [{ name: app, paths: [${join(dir, 'logs')}/*.log] }]
people: { asha: { phone: "${ASHA}" } }
channels: { oncall-sms: { type: sms, people: [asha] } }
rules: [{ name: errors, notify: [oncall-sms] }]
metrics: { listen: 127.0.0.1:0 }
`,
  )
  return file
}

async function metricValue(agent: Agent, name: string): Promise<number> {
  const text = await (await fetch(`${agent.metricsUrl ?? ''}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return Number(line?.split(' ')[1] ?? Number.NaN)
}

describe('the agent with its embedded sandbox', () => {
  let agent: Agent
  let sandboxBase: string
  const dir = suiteTempDir('sandbox-guard')

  beforeAll(async () => {
    const loaded = await readAgentConfig(writeConfig(dir, '127.0.0.1:0'), { env: {} })
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems))
    agent = await startAgent(loaded.config, { log: createAgentLogger({ level: 'silent' }) })
    sandboxBase = new URL(agent.endpoint.inboxUrl ?? '').origin
  }, 60_000)
  afterAll(async () => {
    await agent?.stop(1000)
  })

  it('a rebinding page reads neither the sandbox nor /metrics and /health, and simulates no missed call', async () => {
    const attacks = [
      await rebindingReadsRecords(sandboxBase),
      await rebindingPostsMissedCall(sandboxBase, ASHA),
      await rebindingReadsAgent(agent.metricsUrl ?? '', '/metrics'),
      await rebindingReadsAgent(agent.metricsUrl ?? '', '/health'),
    ]
    expect(attacks.filter((a) => a.succeeded)).toEqual([])
    expect(attacks.map((a) => a.detail.slice(0, 3))).toEqual(['403', '403', '403', '403'])
  })

  it("another site's page stores no lead; what the sandbox holds shows on /metrics", async () => {
    const leads = async () => metricValue(agent, 'logx_agent_sandbox_records')
    const flood = await crossOriginLeadFlood(`${sandboxBase}/webhooks/lead/sandbox`, {
      count: 5,
      bytes: 100_000,
      storedCount: leads,
    })
    expect(flood).toMatchObject({ succeeded: false })
    const before = await leads()
    const bytesBefore = await metricValue(agent, 'logx_agent_sandbox_bytes')
    const lead = await rawRequest(`${sandboxBase}/webhooks/lead/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a lead the agent could have made' }),
    })
    expect(lead.status).toBe(200)
    expect(await leads()).toBe(before + 1)
    expect(await metricValue(agent, 'logx_agent_sandbox_bytes')).toBeGreaterThan(bytesBefore)
    expect(await metricValue(agent, 'logx_agent_sandbox_evicted_total')).toBe(0)
  })
})

describe('messaging.sandbox.listen off loopback', () => {
  it('is refused at load, naming the key that allows it', async () => {
    const loaded = await readAgentConfig(writeConfig(tempDir('sandbox-remote'), '0.0.0.0:0'), { env: {} })
    expect(loaded.ok).toBe(false)
    const problems = loaded.ok ? [] : loaded.problems.map((p) => `${p.path}: ${p.message}`)
    expect(problems).toEqual([expect.stringMatching(/^messaging\.sandbox\.listen: .*allow_remote: true$/)])
  })

  it('starts with allow_remote: true', async () => {
    const file = writeConfig(tempDir('sandbox-remote-ok'), '0.0.0.0:0', ', allow_remote: true')
    const loaded = await readAgentConfig(file, { env: {} })
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems))
    expect(loaded.config.messaging).toMatchObject({ mode: 'sandbox', allowRemote: true })
    const remote = await startAgent(loaded.config, { log: createAgentLogger({ level: 'silent' }) })
    try {
      expect(remote.endpoint.mode).toBe('sandbox')
    } finally {
      await remote.stop(1000)
    }
  }, 60_000)
})
