// Two agents of one fleet (a real redis-server, the built CLI, a sandbox in its own process), each with
// an alertmanager source, as two agents behind one load-balanced address: the firing webhook reaches
// agent A and the resolved one agent B. A pages once; B, which never held the incident, shares the
// resolve on the fleet's action stream, A resolves it and "RESOLVED" goes out once. A late firing of
// the same alert (its old startsAt) then reaching B does not open the incident again; a new firing
// of it (a later startsAt) does.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithRedis } from '../../helpers/redis-server'
import { agentConfig, metric, records, recordsWhen, smsTexts, type RunningAgent } from '../daemon/helpers'
import { agentFleet, type FleetMember } from '../../helpers/agent-fleet'
import { pollUntil } from '../../helpers/poll-until'
import { alert, alertmanagerBody } from './alertmanager-fixtures'

const config = ({ ws, sandbox, cluster, port }: FleetMember): string =>
  agentConfig(ws, {
    api: sandbox.api,
    sources: `  - { name: prom, type: alertmanager, listen: "127.0.0.1:${port}" }`,
    rules: `
  - name: prom
    source: prom
    title: "{{labels.alertname}} on {{labels.instance}}"
    notify: oncall-sms`,
    sections: cluster,
  })

/** The incidents open on this agent's own engine (the console would list the fleet's too). */
const openHere = (agent: RunningAgent): Promise<number> => metric(agent.metricsUrl, 'logx_agent_incidents_open')

describeWithRedis('an alertmanager source on a fleet behind one address', () => {
  const fleet = agentFleet({ ids: ['lb-1', 'lb-2'], configOf: config })
  const { agents, urls } = fleet
  beforeAll(() => fleet.start(), 60_000)
  afterAll(() => fleet.stop())

  const post = async (i: number, alerts: Record<string, unknown>[]): Promise<void> => {
    const response = await fetch(urls[i] as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alertmanagerBody(alerts)),
    })
    expect(response.status).toBe(200)
  }
  const texts = async (word: string): Promise<string[]> =>
    smsTexts(await records(fleet.sandbox.api.baseUrl, 'sms')).filter((t) => t.includes(word))

  it('a resolve that reaches the other agent resolves the incident, and RESOLVED goes out once', async () => {
    const [a, b] = agents as [RunningAgent, RunningAgent]
    const labels = { alertname: 'DiskFull', severity: 'critical', instance: 'db1:9100' }
    const startsAt = new Date(Date.now() - 60_000).toISOString()
    const firing = alert(labels, { startsAt, fingerprint: 'f00dfeed00000001' })
    await post(0, [firing])
    await recordsWhen(fleet.sandbox.api.baseUrl, 'the page', (all) => smsTexts(all).some((t) => t.includes('DiskFull')))
    expect(await openHere(a)).toBe(1)
    expect(await openHere(b)).toBe(0)

    await post(1, [{ ...firing, status: 'resolved', endsAt: new Date().toISOString() }])
    await pollUntil("A's incident resolved by B's resolve", async () => (await openHere(a)) === 0)
    await recordsWhen(fleet.sandbox.api.baseUrl, 'RESOLVED', (all) => smsTexts(all).some((t) => t.includes('RESOLVED')))

    // The firing webhook again, late (the same startsAt), now at B: stale, nothing opens. Then another
    // alert at B, whose page says every earlier request was taken (each 200 comes after its events).
    await post(1, [firing])
    await post(1, [alert({ ...labels, alertname: 'CpuHot' }, { fingerprint: 'f00dfeed00000002' })])
    await recordsWhen(fleet.sandbox.api.baseUrl, 'the second page', (all) =>
      smsTexts(all).some((t) => t.includes('CpuHot')),
    )
    expect(await openHere(b)).toBe(1)

    const disk = await texts('DiskFull')
    expect(disk.filter((t) => t.includes('RESOLVED'))).toHaveLength(1)
    expect(disk.filter((t) => !t.includes('RESOLVED'))).toHaveLength(1)

    // The alert fires again (Alertmanager gives it a new startsAt): a new incident, a new page.
    await post(1, [{ ...firing, startsAt: new Date().toISOString() }])
    await pollUntil('the new firing paged', async () => (await texts('DiskFull')).length === 3)
  }, 90_000)
})
