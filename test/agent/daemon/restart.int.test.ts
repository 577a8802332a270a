// SIGKILL and restart, with the sandbox in its own process so its records outlive the agent:
// an incident that paged is not paged again; lines written while the agent was down are alerted;
// an incident waiting out group_wait when the agent died still fires; a notification the API
// refused before the crash is delivered after it. Exactly once each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  createWorkspace,
  metric,
  records,
  recordsWhen,
  smsTexts,
  smsRulesConfig,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const json = (level: number, msg: string): string => `${JSON.stringify({ level, time: Date.now(), msg })}\n`
const countOf = (texts: string[], word: string): number => texts.filter((t) => t.includes(word)).length

describe('logx-agent across SIGKILL and restart', () => {
  let ws: Workspace
  let sandbox: SandboxProcess
  let agent: RunningAgent | undefined
  let app: string
  const outputs: string[] = []

  async function start(): Promise<RunningAgent> {
    agent = await startAgentProcess(ws.config)
    return agent
  }

  async function crash(): Promise<void> {
    if (agent === undefined) return
    await agent.kill('SIGKILL')
    outputs.push(agent.output(), agent.errors())
    agent = undefined
  }

  async function settled(running: RunningAgent): Promise<void> {
    await pollUntil('an empty outbox', async () =>
      (await metric(running.metricsUrl, 'logx_agent_outbox_depth')) === 0 ? true : undefined,
    )
  }

  /** The checkpoint holds the whole file: every line of it was handled and committed. */
  async function committed(): Promise<void> {
    await pollUntil('a checkpoint at the end of app.log', () => {
      try {
        const saved = JSON.parse(readFileSync(join(ws.state, 'checkpoints', 'app.json'), 'utf8')) as {
          files: { offset: number; path: string }[]
        }
        return saved.files.some((f) => f.path === app && f.offset === statSync(app).size) ? true : undefined
      } catch {
        return undefined
      }
    })
  }

  beforeAll(async () => {
    ws = createWorkspace()
    app = join(ws.logs, 'app.log')
    sandbox = await startSandboxProcess()
    ws.writeConfig(
      smsRulesConfig(
        ws,
        `
  - name: slow
    message: /slow query/
    group_wait: 2s
    notify: oncall-sms
  - name: errors
    level: error
    notify: oncall-sms
    incident: true
`,
        sandbox.api,
      ),
    )
    mkdirSync(ws.logs, { recursive: true })
    appendFileSync(app, json(30, `app started ${'.'.repeat(300)}`))
  })

  afterAll(async () => {
    await crash()
    await sandbox?.close()
    ws?.remove()
  })

  it('does not page again for an incident that already paged; alerts what was written while down', async () => {
    const first = await start()
    appendFileSync(app, json(50, 'kilo failed'))
    await recordsWhen(sandbox.api.baseUrl, 'kilo', (all) => countOf(smsTexts(all), 'kilo') === 1)
    await committed()
    // Paged means recorded too: the lead is created after the SMS. A kill before its id is in the lead map
    // resends the creation under the same Idempotency-Key, which the sandbox records as a second lead.
    await settled(first)
    await crash()

    appendFileSync(app, json(50, 'kilo failed') + json(50, 'kilo failed') + json(50, 'lima failed'))
    const second = await start()
    await recordsWhen(sandbox.api.baseUrl, 'lima', (all) => countOf(smsTexts(all), 'lima') === 1)
    await settled(second)
    const all = await records(sandbox.api.baseUrl)
    expect(countOf(smsTexts(all), 'kilo')).toBe(1)
    // The restarted agent has the incident back as it was, and went on counting its lines.
    const open = (
      (await (await second.console('/api/incidents')).json()) as {
        incidents: { title: string; state: string; count: number }[]
      }
    ).incidents
    expect(open.find((i) => i.title === 'kilo failed')).toMatchObject({ state: 'firing', count: 3 })
    // One lead per incident; the first incident's lead is not opened twice.
    const leads = all.filter((r) => r.kind === 'lead').map((r) => String(r.record.name))
    expect(leads.sort()).toEqual(['kilo failed', 'lima failed'])
    expect(first.output()).toContain('agent started')
  })

  it('fires an incident that was waiting out group_wait when the agent was killed', async () => {
    const running = agent as RunningAgent
    appendFileSync(app, json(50, 'slow query mike 1200ms'))
    await pollUntil('the pending incident on disk', () =>
      readFileSync(join(ws.state, 'incidents.json'), 'utf8').includes('slow query mike') ? true : undefined,
    )
    await committed()
    expect(countOf(smsTexts(await records(sandbox.api.baseUrl)), 'mike')).toBe(0)
    await crash()
    const restarted = await start()
    await recordsWhen(sandbox.api.baseUrl, 'mike', (all) => countOf(smsTexts(all), 'mike') === 1)
    await settled(restarted)
    expect(countOf(smsTexts(await records(sandbox.api.baseUrl)), 'mike')).toBe(1)
    expect(running).not.toBe(restarted)
  })

  it('delivers after a restart what the API refused before the crash', async () => {
    const running = agent as RunningAgent
    const fault = await fetch(`${sandbox.api.baseUrl}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'error', status: 503, route: 'send_sms' }),
    })
    expect(fault.status).toBeLessThan(300)
    appendFileSync(app, json(50, 'november failed'))
    await pollUntil('a failed attempt', async () =>
      (await metric(running.metricsUrl, 'logx_agent_notifications_failed_total')) >= 1 ? true : undefined,
    )
    await committed()
    await crash()
    await fetch(`${sandbox.api.baseUrl}/_sandbox/faults`, { method: 'DELETE' })
    const restarted = await start()
    await recordsWhen(sandbox.api.baseUrl, 'november', (all) => countOf(smsTexts(all), 'november') === 1)
    await settled(restarted)
    const all = await records(sandbox.api.baseUrl)
    expect(countOf(smsTexts(all), 'november')).toBe(1)
    expect(smsTexts(all)).toHaveLength(4)
    expect(await restarted.kill('SIGTERM')).toBe(0)
    outputs.push(restarted.output(), restarted.errors())
    agent = undefined
    // Secrets given in the config never reach the agent's output.
    for (const text of outputs) {
      expect(text).not.toContain(sandbox.api.activityToken)
      expect(text).not.toContain(sandbox.api.apiKey)
    }
  })
})
