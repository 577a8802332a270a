// A fleet of two real agent processes on one real redis-server, sending through one sandbox in its
// own process: the same lines on both hosts page once per incident, under one key; the fleet's
// incidents show which host saw what; an ack on one agent stops the escalation on both; a silence
// made on one holds on the other; /health and /metrics say the fleet's state.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithRedis, startRedisServer, type RedisServer } from '../../helpers/redis-server'
import { agentFleet, clusterYaml } from '../../helpers/agent-fleet'
import { freePort } from '../../helpers/free-port'
import {
  metric,
  records,
  recordsWhen,
  smsRulesConfig,
  smsTexts,
  startAgentInWorkspace,
  startSandboxProcess,
  type AgentInWorkspace,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

function config(ws: Workspace, sandbox: SandboxProcess, cluster: string): string {
  const rules = `
  - name: storm
    group_by: [msg]
    message: "^order"
    notify: oncall-sms
    incident: true
  - name: db
    message: "^db"
    notify: oncall-sms
    escalate:
      - after: 3s
        notify: lead-sms
  - name: disk
    message: "^disk"
    notify: oncall-sms
    incident: true
    escalate:
      - after: 3s
        notify: lead-sms
  - name: slow
    message: "^slow"
    threshold: { count: 4, within: 1m }
    notify: oncall-sms
  - name: cache
    message: "^cache"
    notify: oncall-sms
    escalate:
      - after: 3s
        notify: lead-sms
`
  return smsRulesConfig(ws, rules, sandbox.api, {
    channels: ['lead-sms: { type: sms, numbers: [919800000002] }'],
    sections: cluster,
  })
}

/** The log each agent tails, there (empty) before the agent starts. */
function emptyAppLog(ws: Workspace): void {
  mkdirSync(ws.logs, { recursive: true })
  appendFileSync(join(ws.logs, 'app.log'), '')
}

const line = (msg: string): string => `${JSON.stringify({ level: 50, time: Date.now(), msg })}\n`

interface Summary {
  id: string
  state: string
  count: number
  hosts?: { agent: string; count: number }[]
}

async function incidents(agent: RunningAgent): Promise<Summary[]> {
  return ((await (await agent.console('/api/incidents')).json()) as { incidents: Summary[] }).incidents
}

describeWithRedis('a fleet of two agents on one Redis', () => {
  const fleet = agentFleet({
    ids: ['web-1', 'web-2'],
    configOf: ({ ws, sandbox, cluster }) => config(ws, sandbox, cluster),
    prepare: emptyAppLog,
  })
  const { agents, workspaces: spaces } = fleet
  beforeAll(() => fleet.start(), 60_000)
  afterAll(() => fleet.stop())

  /** A change through an agent's console API, with the token its owner reads. */
  const post = (i: number, path: string, body: unknown): Promise<Response> => {
    const token = readFileSync(join((spaces[i] as Workspace).state, 'console.token'), 'utf8').trim()
    return fetch(`${(agents[i] as RunningAgent).metricsUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    })
  }

  const appendBoth = (text: string, counts: [number, number] = [1, 1]): void => {
    spaces.forEach((ws, i) => appendFileSync(join(ws.logs, 'app.log'), text.repeat(counts[i] ?? 1)))
  }

  it('the same 20 incidents on both hosts page once each, under one key per page, on one lead each', async () => {
    let text = ''
    for (let i = 0; i < 20; i++) text += line(`order ${i} failed`)
    appendBoth(text)
    const [a, b] = agents as [RunningAgent, RunningAgent]
    // Every item (a page, a CRM record) is claimed by both agents, one winning: once the claims that
    // settled are twice the wins, and the pages are in, nothing more is coming.
    const claims = async (outcome?: string): Promise<number> => {
      const name =
        outcome === undefined
          ? 'logx_agent_cluster_claims_total'
          : `logx_agent_cluster_claims_total{outcome="${outcome}"}`
      return (await metric(a.metricsUrl, name)) + (await metric(b.metricsUrl, name))
    }
    await recordsWhen(
      fleet.sandbox.api.baseUrl,
      '20 pages',
      (all) => smsTexts(all).filter((t) => t.includes('order')).length >= 20,
    )
    await pollUntil(
      'every claim to have settled',
      async () => {
        const won = await claims('won')
        return won >= 20 && (await claims()) - (await claims('held')) === 2 * won ? true : undefined
      },
      { timeoutMs: 30_000 },
    )
    const sms = (await records(fleet.sandbox.api.baseUrl, 'sms')).filter((r) => String(r.record.sms).includes('order'))
    expect(sms).toHaveLength(20)
    expect(new Set(smsTexts(sms)).size).toBe(20)
    expect(new Set(sms.map((r) => r.record.idempotency_key)).size).toBe(20)
    // One lead per incident, whichever agent recorded it first; every page sent is an activity on it.
    const crm = await recordsWhen(
      fleet.sandbox.api.baseUrl,
      '20 leads and their activities',
      (all) => all.filter((r) => r.kind === 'activity').length >= 40,
    )
    const leads = crm.filter((r) => r.kind === 'lead')
    expect(leads).toHaveLength(20)
    const leadIds = new Set(leads.map((r) => String(r.record.lead_id)))
    const activities = crm.filter((r) => r.kind === 'activity')
    expect(activities.every((r) => leadIds.has(String(r.record.lead_id)))).toBe(true)
    const perLead = new Map<string, number>()
    for (const r of activities) perLead.set(String(r.record.lead_id), (perLead.get(String(r.record.lead_id)) ?? 0) + 1)
    expect([...perLead.values()].every((n) => n >= 2)).toBe(true)
  })

  it("the fleet's incidents name the hosts that saw them, with their counts", async () => {
    appendBoth(line('order 7 failed'), [3, 1])
    const [a] = agents as [RunningAgent]
    const seen = await pollUntil(
      'the fleet view of order 7 with both hosts',
      async () => {
        const list = await incidents(a)
        const found = list.find((i) => i.hosts?.length === 2 && i.count >= 6)
        return found
      },
      { timeoutMs: 15_000 },
    )
    expect(Object.fromEntries((seen.hosts ?? []).map((h) => [h.agent, h.count]))).toEqual({ 'web-1': 4, 'web-2': 2 })
  })

  it('an ack on web-2 stops the escalation on web-1 too; the incident not acknowledged escalates', async () => {
    appendBoth(line('db down') + line('cache down'))
    const [a, b] = agents as [RunningAgent, RunningAgent]
    await recordsWhen(
      fleet.sandbox.api.baseUrl,
      'the db and cache pages',
      (all) => smsTexts(all).filter((t) => /db down|cache down/.test(t)).length >= 2,
    )
    const db = await pollUntil('the db incident on web-2', async () =>
      (await incidents(b)).find((i) => i.id.startsWith('db:') && i.state === 'firing'),
    )
    const acked = await post(1, `/api/incidents/${db.id}/ack`, { by: 'asha' })
    expect(acked.status).toBe(200)
    await pollUntil('web-1 to hold the db incident as acknowledged', async () =>
      (await incidents(a)).find((i) => i.id === db.id)?.state === 'acknowledged' ? true : undefined,
    )
    // The cache incident escalates after 3 s (the event awaited); the db one, acknowledged, does not.
    const all = await recordsWhen(
      fleet.sandbox.api.baseUrl,
      'the cache escalation',
      (list) =>
        list.some(
          (r) =>
            r.kind === 'sms' &&
            String(r.record.sms).includes('cache down') &&
            String(r.record.mobile ?? r.record.numbers ?? '').includes('919800000002'),
        ),
      20_000,
    )
    const escalations = all.filter(
      (r) => r.kind === 'sms' && String(r.record.mobile ?? r.record.numbers ?? '').includes('919800000002'),
    )
    expect(escalations.map((r) => String(r.record.sms)).filter((t) => t.includes('cache down'))).toHaveLength(1)
    expect(escalations.map((r) => String(r.record.sms)).filter((t) => t.includes('db down'))).toEqual([])
  })

  it('a silence made on web-1 holds on web-2: a matching incident pages nobody', async () => {
    expect(
      (await post(0, '/api/silences', { matchers: { rule: 'storm' }, duration: '1h', comment: 'deploy' })).status,
    ).toBe(201)
    const [, b] = agents as [RunningAgent, RunningAgent]
    await pollUntil('web-2 to hold the silence', async () => {
      const { silences } = (await (await b.console('/api/silences')).json()) as {
        silences: { comment?: string }[]
      }
      return silences.some((x) => x.comment === 'deploy') ? true : undefined
    })
    // Only web-2 sees this one: silenced there, so no page at all; the next one (another rule) pages.
    appendFileSync(join((spaces[1] as Workspace).logs, 'app.log'), line('order 99 failed') + line('cache warm failed'))
    const all = await recordsWhen(fleet.sandbox.api.baseUrl, 'the page after the silenced line', (list) =>
      smsTexts(list).some((t) => t.includes('cache warm failed')),
    )
    expect(smsTexts(all).filter((t) => t.includes('order 99'))).toEqual([])
  })

  it("a threshold counts both hosts' lines: two on each, four in the fleet, one page", async () => {
    appendBoth(line('slow query on orders') + line('slow query on orders'))
    const all = await recordsWhen(fleet.sandbox.api.baseUrl, 'the threshold page', (list) =>
      smsTexts(list).some((t) => t.includes('slow query')),
    )
    expect(smsTexts(all).filter((t) => t.includes('slow query'))).toHaveLength(1)
  })

  it('/health and /metrics say the fleet is up, with both peers', async () => {
    const [a] = agents as [RunningAgent]
    const health = (await (await fetch(`${a.metricsUrl}/health`)).json()) as {
      status: string
      cluster: { status: string; agent: string; peers: number }
    }
    expect(health.status).toBe('up')
    expect(health.cluster).toMatchObject({ status: 'up', agent: 'web-1', peers: 2 })
    expect(await metric(a.metricsUrl, 'logx_agent_cluster_up')).toBe(1)
  })

  // Last: it kills web-1.
  it("when web-1 dies, web-2 escalates the incident web-1 opened, and records it on web-1's lead", async () => {
    const [a, b] = agents as [RunningAgent, RunningAgent]
    appendFileSync(join((spaces[0] as Workspace).logs, 'app.log'), line('disk full on /data'))
    await recordsWhen(
      fleet.sandbox.api.baseUrl,
      'the disk page and its lead',
      (all) =>
        all.some((r) => r.kind === 'lead' && String(r.record.name).includes('disk full')) &&
        smsTexts(all).some((t) => t.includes('disk full')),
    )
    appendFileSync(join((spaces[1] as Workspace).logs, 'app.log'), line('disk full on /data'))
    await pollUntil('web-2 to hold the disk incident', async () =>
      (await incidents(b)).some((i) => i.id.startsWith('disk:') && i.state === 'firing') ? true : undefined,
    )
    await a.kill('SIGKILL')
    const all = await recordsWhen(
      fleet.sandbox.api.baseUrl,
      'the escalation by web-2',
      (list) =>
        list.some(
          (r) =>
            r.kind === 'sms' &&
            String(r.record.sms).includes('disk full') &&
            String(r.record.numbers).includes('919800000002'),
        ),
      20_000,
    )
    const pages = all.filter((r) => r.kind === 'sms' && String(r.record.sms).includes('disk full'))
    expect(pages).toHaveLength(2)
    const leads = all.filter((r) => r.kind === 'lead' && String(r.record.name).includes('disk full'))
    expect(leads).toHaveLength(1)
    // The escalation's activity (made by web-2) is on the lead web-1 created.
    const crm = await recordsWhen(
      fleet.sandbox.api.baseUrl,
      'the escalation recorded',
      (list) =>
        list.filter((r) => r.kind === 'activity' && String(r.record.lead_id) === String(leads[0]?.record.lead_id))
          .length >= 3,
    )
    expect(crm.filter((r) => r.kind === 'lead' && String(r.record.name).includes('disk full'))).toHaveLength(1)
  })
})

describeWithRedis('an agent of a fleet started while Redis is down', () => {
  let sandbox: SandboxProcess
  let redis: RedisServer | undefined
  let started: AgentInWorkspace | undefined

  afterAll(async () => {
    await started?.stop()
    await sandbox?.close()
    await redis?.stop()
  })

  it('starts degraded and pages on its own, then joins the fleet when Redis comes', async () => {
    const port = await freePort()
    sandbox = await startSandboxProcess()
    const cluster = clusterYaml('web-9', `redis://127.0.0.1:${port}`)
    started = await startAgentInWorkspace((ws) => config(ws, sandbox, cluster), emptyAppLog)
    const { ws, agent } = started
    const health = async (): Promise<{ ok: boolean; status: string; cluster: { reason?: string } }> =>
      (await fetch(`${agent.metricsUrl}/health`)).json() as never
    expect(await health()).toMatchObject({ ok: true, status: 'degraded' })
    expect((await health()).cluster.reason).toMatch(/Redis/)
    appendFileSync(join(ws.logs, 'app.log'), line('order 500 failed'))
    await recordsWhen(sandbox.api.baseUrl, 'the page sent without Redis', (all) =>
      smsTexts(all).some((t) => t.includes('order 500')),
    )
    redis = await startRedisServer({ port })
    await pollUntil('the agent to reach Redis', async () => ((await health()).status === 'up' ? true : undefined), {
      timeoutMs: 20_000,
    })
    // The page sent meanwhile is written to the shared log once Redis is back (just after it is up).
    await pollUntil('the page sent meanwhile to be merged', async () =>
      (await metric(agent.metricsUrl, 'logx_agent_cluster_merged_total')) >= 1 ? true : undefined,
    )
  })
})
