// The crash window between journaling a page in the outbox and recording it in incidents.json
// (two writes, one after the other): a SIGKILL there used to leave the incident unrecorded, and the
// restarted agent, reading the line again, paged it a second time (a new message beside the one
// still in the outbox). The agent now records the pages its outbox holds before it reads again.
// The window is too narrow to hit on purpose: the test kills the agent with the page stuck in the
// outbox (the API refuses), then takes the page out of incidents.json and the offsets out of the
// checkpoint, which is what the disk holds after a kill inside the window.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import {
  createWorkspace,
  metric,
  records,
  smsTexts,
  smsRulesConfig,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

let ws: Workspace
let sandbox: SandboxProcess
let agent: RunningAgent | undefined

beforeAll(async () => {
  ws = createWorkspace()
  sandbox = await startSandboxProcess()
  ws.writeConfig(
    smsRulesConfig(
      ws,
      `
  - name: errors
    level: error
    notify: oncall-sms
`,
      sandbox.api,
    ),
  )
  mkdirSync(ws.logs, { recursive: true })
})

afterAll(async () => {
  await agent?.kill('SIGKILL')
  await sandbox?.close()
  ws?.remove()
})

it('does not page again after a crash between the outbox and the incident state', async () => {
  const app = join(ws.logs, 'app.log')
  const refuse = await fetch(`${sandbox.api.baseUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'error', status: 503, route: 'send_sms' }),
  })
  expect(refuse.status).toBeLessThan(300)
  agent = await startAgentProcess(ws.config)
  const first = agent
  appendFileSync(
    app,
    `${JSON.stringify({ level: 30, msg: `app started ${'.'.repeat(300)}` })}\n${JSON.stringify({ level: 50, msg: 'oscar failed' })}\n`,
  )
  await pollUntil('a refused attempt', async () =>
    (await metric(first.metricsUrl, 'logx_agent_notifications_failed_total')) >= 1 ? true : undefined,
  )
  await pollUntil('the line committed', () => {
    try {
      const saved = JSON.parse(readFileSync(join(ws.state, 'checkpoints', 'app.json'), 'utf8')) as {
        files: { offset: number }[]
      }
      return saved.files.some((f) => f.offset === statSync(app).size) ? true : undefined
    } catch {
      return undefined
    }
  })
  await first.kill('SIGKILL')
  agent = undefined

  // What the disk holds after a kill just after the outbox append.
  const stateFile = join(ws.state, 'incidents.json')
  expect(createIncidentState(stateFile).size.paged).toBe(1)
  writeFileSync(stateFile, '')
  rmSync(join(ws.state, 'checkpoints', 'app.json'))

  await fetch(`${sandbox.api.baseUrl}/_sandbox/faults`, { method: 'DELETE' })
  agent = await startAgentProcess(ws.config)
  const restarted = agent
  await pollUntil('the page delivered, the file read again, the outbox empty', async () => {
    const texts = smsTexts(await records(sandbox.api.baseUrl, 'sms'))
    if (!texts.some((t) => t.includes('oscar'))) return undefined
    const behind = await metric(restarted.metricsUrl, 'logx_agent_bytes_behind')
    const depth = await metric(restarted.metricsUrl, 'logx_agent_outbox_depth')
    return behind === 0 && depth === 0 ? true : undefined
  })
  expect(await metric(restarted.metricsUrl, 'logx_agent_repages_suppressed_total')).toBe(1)
  const sms = (await records(sandbox.api.baseUrl, 'sms')).filter((r) => String(r.record.sms).includes('oscar'))
  expect(sms).toHaveLength(1)
  expect(typeof sms[0]?.record.idempotency_key).toBe('string')
})
