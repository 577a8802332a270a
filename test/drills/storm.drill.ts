// Storm drill: 10,000 distinct incidents at once. A real agent process (dist/, its embedded sandbox,
// as `npm start` runs it) tails a file that gets 10,000 plain-text error lines in one write, each
// with its own message (`group_by: [msg]`, `group_wait: 0s`): 10,000 incidents, 10,000 SMS.
// Promise: every one is delivered, once, and none waited out a backoff because a keep-alive
// connection was reset under it (the client's idle timeout is below the sandbox's, and a request on
// a socket the server was closing goes again at once). Checked from the sandbox's listing.
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import {
  createWorkspace,
  metric,
  smsRulesConfig,
  startAgentProcess,
  type RunningAgent,
  type Workspace,
} from '../agent/daemon/helpers'
import { peakRssOf, recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'

const INCIDENTS = 10_000
const API_KEY = 'sandbox-api-key'

let ws: Workspace | undefined
let agent: RunningAgent | undefined
afterAll(async () => {
  await agent?.kill('SIGKILL')
  ws?.remove()
})

const line = (i: number): string =>
  `2026-11-25 10:00:00,000 ERROR [storm] com.example.Storm: payment capture failed for order ${String(i).padStart(6, '0')}\n`

async function smsPage(
  baseUrl: string,
  page: number,
  perPage: number,
): Promise<{ data: { sms: string; created_at: string }[]; total: number }> {
  const response = await fetch(`${baseUrl}/api/v1/?apirequest=sms_record&per_page=${perPage}&page=${page}`, {
    headers: { apikey: API_KEY },
  })
  return (await response.json()) as { data: { sms: string; created_at: string }[]; total: number }
}

test('storm: 10,000 distinct incidents, each delivered once, no reset-driven retries', async ({ task }) => {
  ws = createWorkspace()
  mkdirSync(ws.logs, { recursive: true })
  const app = join(ws.logs, 'app.log')
  appendFileSync(app, '')
  ws.writeConfig(
    smsRulesConfig(
      ws,
      `
  - name: storm
    level: error
    group_by: [msg]
    group_wait: 0s
    notify: oncall-sms
`,
    ),
  )
  agent = await startAgentProcess(ws.config)
  const { baseUrl, metricsUrl } = agent

  let text = ''
  for (let i = 0; i < INCIDENTS; i++) text += line(i)
  const started = Date.now()
  appendFileSync(app, text)
  let stored = 0
  try {
    await pollUntil(
      `${INCIDENTS} SMS in the sandbox`,
      async () => {
        stored = (await smsPage(baseUrl, 1, 1)).total
        return stored >= INCIDENTS ? true : undefined
      },
      { timeoutMs: 60_000 },
    )
  } catch {
    // Reported below: the row and the assertions say how many arrived.
  }
  const records: { sms: string; created_at: string }[] = []
  for (let page = 1; page <= Math.ceil(stored / 100); page++) records.push(...(await smsPage(baseUrl, page, 100)).data)
  const lastAt = records.length === 0 ? Date.now() : Math.max(...records.map((r) => Date.parse(r.created_at)))
  const distinct = new Set(records.map((r) => r.sms))
  const [retried, failed, dead, depth] = await Promise.all([
    metric(metricsUrl, 'logx_agent_notifications_retried_total'),
    metric(metricsUrl, 'logx_agent_notifications_failed_total'),
    metric(metricsUrl, 'logx_agent_notifications_dead_total'),
    metric(metricsUrl, 'logx_agent_outbox_depth'),
  ])
  const peakRss = peakRssOf(agent.child.pid as number)
  const resets = (agent.output().match(/ECONNRESET/g) ?? []).length
  const timeMs = lastAt - started
  recordDrill(task, {
    drill: 'storm: 10,000 distinct incidents',
    events: INCIDENTS,
    unit: 'SMS (one per incident)',
    lost: INCIDENTS - distinct.size,
    duplicated: records.length - distinct.size,
    peakRssMb: peakRss,
    timeMs,
    notes: `${Math.round(INCIDENTS / (timeMs / 1000))} SMS/s first line to last SMS; ECONNRESET ${resets}, failed ${failed}, retried ${retried}, dead ${dead}, outbox depth ${depth}`,
  })

  expect(distinct.size).toBe(INCIDENTS)
  expect(records.length - distinct.size).toBe(0)
  // No delivery failed, so none waited out a backoff: a reset keep-alive socket would show here.
  expect(resets).toBe(0)
  expect(failed).toBe(0)
  expect(retried).toBe(0)
  expect(depth).toBe(0)
})
