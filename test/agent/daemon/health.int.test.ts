// When the agent can no longer write its state, the source stops (its offsets would otherwise claim
// lines whose incidents are not on disk) and /health says so; the alert already decided still goes out.
import { afterAll, describe, expect, it } from 'vitest'
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { agentConfig, recordsWhen, smsTexts, startAgentInWorkspace, type AgentInWorkspace } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

describe('/health', () => {
  let started: AgentInWorkspace | undefined
  afterAll(() => started?.stop())

  it('turns 503 naming the source when its state cannot be written', async () => {
    started = await startAgentInWorkspace((ws) =>
      agentConfig(ws, { sources: `  - { name: app, paths: [${ws.logs}/*.log] }` }),
    )
    const { ws, agent } = started
    const healthy = await fetch(`${agent.metricsUrl}/health`)
    expect(healthy.status).toBe(200)
    expect(await healthy.json()).toMatchObject({ ok: true, sources: 1, failed: [] })

    // A directory where the state file goes: every write of the state fails.
    mkdirSync(join(ws.state, 'incidents.json'))
    appendFileSync(join(ws.logs, 'app.log'), `${JSON.stringify({ level: 50, msg: 'papa failed' })}\n`)
    const body = await pollUntil('an unhealthy agent', async () => {
      const response = await fetch(`${agent.metricsUrl}/health`)
      return response.status === 503
        ? ((await response.json()) as { ok: boolean; failed: { source: string; failure: string }[] })
        : undefined
    })
    expect(body.ok).toBe(false)
    expect(body.failed).toEqual([{ source: 'app', failure: expect.stringContaining('incidents.json') }])
    await recordsWhen(agent.baseUrl, 'papa', (all) => smsTexts(all).some((t) => t.includes('papa')))
  })
})
