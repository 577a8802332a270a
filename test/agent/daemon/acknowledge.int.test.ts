// Acknowledgement end to end, through the sandbox and a real agent process: an error pages by SMS,
// a simulated missed call from the person paged acknowledges it (a PHONECALL activity on the lead),
// the ack survives a SIGKILL and restart, escalation to voice waits while it holds, and when
// ack_timeout elapses the incident re-pages and escalation resumes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { agentConfig, createWorkspace, records, recordsWhen, startAgentProcess, startSandboxProcess } from './helpers'
import type { RunningAgent, SandboxProcess, Workspace } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const ASHA = '919800000001'

// The sandbox runs in its own process, so its records outlive the agent's SIGKILL.
function config(ws: Workspace, sandbox: SandboxProcess): string {
  return agentConfig(ws, {
    api: sandbox.api,
    channels: [
      'oncall-sms: { type: sms, people: [asha] }',
      'oncall-voice: { type: voice, people: [ravi], audio: [alert.mp3] }',
    ],
    rules: `
  - name: db
    notify: [oncall-sms]
    escalate:
      - after: 12s
        notify: oncall-voice
    ack_timeout: 4s
    incident: true`,
    sections: `people:
  asha: { phone: "${ASHA}" }
  ravi: { phone: "919800000003" }
acknowledge:
  missed_call_number: "15550199999"
  poll_interval: 1s
`,
  })
}

interface TimelineEntry {
  kind: string
  text: string
}
interface Incident {
  id: string
  state: string
  ack?: { by: string; via: string }
  timeline?: TimelineEntry[]
}

async function incidents(agent: RunningAgent): Promise<Incident[]> {
  const body = (await (await agent.console('/api/incidents')).json()) as { incidents: Incident[] }
  return body.incidents
}

async function detail(agent: RunningAgent, id: string): Promise<Incident> {
  return ((await (await agent.console(`/api/incidents/${id}`)).json()) as { incident: Incident }).incident
}

async function missedCall(sandbox: SandboxProcess, caller: string): Promise<void> {
  const response = await fetch(`${sandbox.api.baseUrl}/_sandbox/missed-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ caller }),
  })
  expect(response.status).toBe(201)
}

describe('acknowledging a page by missed call', () => {
  let ws: Workspace
  let sandbox: SandboxProcess
  let agent: RunningAgent | undefined

  beforeAll(async () => {
    ws = createWorkspace()
    sandbox = await startSandboxProcess()
  })
  afterAll(async () => {
    await agent?.kill('SIGKILL')
    await sandbox?.close()
    ws?.remove()
  })

  it('acks on a missed call, keeps the ack across a SIGKILL, stops escalation, and resumes it after ack_timeout', async () => {
    ws.writeConfig(config(ws, sandbox))
    agent = await startAgentProcess(ws.config)
    const api = sandbox.api.baseUrl
    appendFileSync(
      join(ws.logs, 'app.log'),
      `${JSON.stringify({ level: 50, msg: 'query failed', err: { type: 'ConnectionError', message: 'connect ECONNREFUSED 10.0.0.5:5432' } })}\n`,
    )

    // The page names the cause and says how to acknowledge.
    const paged = await recordsWhen(api, 'the SMS page', (all) => all.some((r) => r.kind === 'sms'))
    const sms = String(paged.find((r) => r.kind === 'sms')?.record.sms)
    expect(sms).toContain('query failed')
    expect(sms).toContain('ConnectionError')
    expect(sms).toMatch(/missed call/i)
    expect(sms.length).toBeLessThanOrEqual(160)

    // An unknown number acknowledges nothing; asha's missed call acknowledges.
    await missedCall(sandbox, '15550000000')
    await missedCall(sandbox, `+${ASHA}`)
    const [acked] = await pollUntil('the incident acknowledged', async () => {
      const open = await incidents(agent as RunningAgent)
      return open.length === 1 && open[0]?.state === 'acknowledged' ? open : undefined
    })
    expect(acked?.ack).toMatchObject({ by: 'asha', via: 'missed_call' })
    // Both calls are counted by what they did; the unknown number acknowledged nothing.
    const running = agent
    const metrics = await pollUntil('both calls counted', async () => {
      const text = await (await fetch(`${running.metricsUrl}/metrics`)).text()
      return text.includes('logx_agent_missed_calls_total{outcome="unknown_caller"} 1') ? text : undefined
    })
    expect(metrics).toContain('logx_agent_missed_calls_total{outcome="acknowledged"} 1')
    expect(metrics).toContain('logx_agent_missed_calls_total{outcome="nothing_open"} 0')

    // SIGKILL and restart on the same state and sandbox port: the ack is still there.
    await agent.kill('SIGKILL')
    agent = await startAgentProcess(ws.config)
    const [after] = await incidents(agent)
    expect(after).toMatchObject({ id: acked?.id, state: 'acknowledged', ack: { by: 'asha', via: 'missed_call' } })

    // ack_timeout: the incident re-pages asha, then escalation resumes and calls ravi.
    const all = await recordsWhen(api, 'the voice escalation', (r) => r.some((x) => x.kind === 'voice'), 40_000)
    const texts = all.filter((r) => r.kind === 'sms').map((r) => String(r.record.sms))
    expect(texts.some((t) => /UNACK/.test(t))).toBe(true)
    const timeline = ((await detail(agent, acked?.id ?? '')).timeline ?? []).map((e) => e.kind)
    const order = timeline.filter((k) => ['firing', 'acknowledged', 'unacknowledged', 'escalated'].includes(k))
    expect(order).toEqual(['firing', 'acknowledged', 'unacknowledged', 'escalated'])

    // The lead says who acknowledged, how and when; and when the ack lapsed.
    const activities = (await records(api, 'activity')).map(
      (r) => `${String(r.record.activity_type)}: ${String(r.record.title)}`,
    )
    expect(activities.some((a) => /PHONECALL.*Acknowledged by asha/.test(a))).toBe(true)
    expect(activities.some((a) => /No longer acknowledged: ack_timeout/.test(a))).toBe(true)
  }, 90_000)
})
