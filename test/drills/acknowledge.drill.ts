// Acknowledgement by missed call, under a crash: 50 incidents are paged, one after another, to 3
// people (each to one person's SMS channel, in a seeded order); then missed calls come in, seeded
// and interleaved: each person calls a few times (sometimes more often than they have incidents),
// unknown numbers call too, and the agent is SIGKILLed after the first half of the calls and
// restarted. After it, for every person: the incidents acknowledged are exactly the most recently
// paged of theirs, one per call (a call acknowledges the most recent unacknowledged incident paged
// to its caller), acknowledged by them via missed call; no incident of anyone else, and nothing for
// an unknown number. The lead of every acknowledged incident has one acknowledgement activity (a
// PHONECALL), keyed once: none lost, none invented, none done twice.
// Seeded: DRILL_SEED replays the people, the calls and their order.
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  createWorkspace,
  messagingYaml,
  metric,
  records,
  recordsWhen,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from '../agent/daemon/helpers'
import { seededRandom } from './lib/crash'
import { peakRssOf, recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'

const INCIDENTS = 50
const PEOPLE = ['p1', 'p2', 'p3'] as const
const phoneOf = (person: string): string => `91980000010${person.slice(1)}`
const UNKNOWN = ['15550000001', '15550000002']

function config(ws: Workspace, sandbox: SandboxProcess): string {
  return `${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    start_at: beginning
people:
${PEOPLE.map((p) => `  ${p}: { phone: "${phoneOf(p)}" }`).join('\n')}
channels:
${PEOPLE.map((p) => `  sms-${p}: { type: sms, people: [${p}] }`).join('\n')}
acknowledge:
  missed_call_number: "15550199999"
  poll_interval: 1s
rules:
${PEOPLE.map(
  (p) => `  - name: r-${p}
    match: { team: ${p} }
    group_by: [incident]
    notify: sms-${p}
    incident: true`,
).join('\n')}
metrics: { listen: 127.0.0.1:0 }
`
}

interface Incident {
  id: string
  title: string
  state: string
  ack?: { by: string; via: string }
}

async function openIncidents(agent: RunningAgent): Promise<Incident[]> {
  return ((await (await agent.console('/api/incidents')).json()) as { incidents: Incident[] }).incidents
}

async function missedCall(sandbox: SandboxProcess, caller: string): Promise<void> {
  const response = await fetch(`${sandbox.api.baseUrl}/_sandbox/missed-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ caller }),
  })
  if (response.status !== 201) throw new Error(`simulating a missed call: ${response.status} ${await response.text()}`)
}

const incidentOf = (text: string): string | undefined => /inc-\d{2}/.exec(text)?.[0]

test('acknowledgement by missed call: 50 incidents, 3 people, random calls and a SIGKILL: every ack lands once on the right incident', async ({
  task,
}) => {
  const seed = Number(process.env.DRILL_SEED ?? Math.floor(Math.random() * 2 ** 31))
  process.stdout.write(`[ack drill] seed ${seed} (DRILL_SEED=${seed} replays it)\n`)
  const random = seededRandom(seed)
  const started = Date.now()
  const ws = createWorkspace()
  let sandbox: SandboxProcess | undefined
  let agent: RunningAgent | undefined
  try {
    sandbox = await startSandboxProcess()
    const api = sandbox.api.baseUrl
    ws.writeConfig(config(ws, sandbox))
    mkdirSync(ws.logs, { recursive: true })
    agent = await startAgentProcess(ws.config)

    // Pages one at a time, so "the most recently paged" is a fact, not a tie.
    const owner = new Map<string, string>()
    const pagedOrder: string[] = []
    for (let i = 1; i <= INCIDENTS; i++) {
      const id = `inc-${String(i).padStart(2, '0')}`
      const person = PEOPLE[Math.floor(random() * PEOPLE.length)] as string
      owner.set(id, person)
      appendFileSync(
        join(ws.logs, 'app.log'),
        `${JSON.stringify({ level: 50, team: person, incident: id, msg: `checkout failed ${id}` })}\n`,
      )
      await recordsWhen(api, `the page of ${id}`, (all) =>
        all.some((r) => r.kind === 'sms' && incidentOf(String(r.record.sms)) === id),
      )
      pagedOrder.push(id)
    }

    // The calls: each person calls between 1 and (their incidents + 2) times; unknown numbers too; shuffled.
    const calls: string[] = []
    const callsOf = new Map<string, number>()
    for (const person of PEOPLE) {
      const theirs = pagedOrder.filter((id) => owner.get(id) === person).length
      const count = 1 + Math.floor(random() * (theirs + 2))
      callsOf.set(person, count)
      for (let i = 0; i < count; i++) calls.push(phoneOf(person))
    }
    for (const number of UNKNOWN) calls.push(number, number)
    for (let i = calls.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[calls[i], calls[j]] = [calls[j] as string, calls[i] as string]
    }
    const expected = new Map<string, string[]>()
    for (const person of PEOPLE) {
      const theirs = pagedOrder.filter((id) => owner.get(id) === person)
      expected.set(person, theirs.slice(Math.max(0, theirs.length - (callsOf.get(person) ?? 0))).sort())
    }
    const expectedAcks = [...expected.values()].reduce((n, ids) => n + ids.length, 0)

    // Half the calls, the first acks landing, SIGKILL, the rest, a restart.
    const half = Math.floor(calls.length / 2)
    for (const number of calls.slice(0, half)) await missedCall(sandbox, number)
    const running = agent
    await pollUntil('a first acknowledgement', async () =>
      (await openIncidents(running)).some((i) => i.state === 'acknowledged') ? true : undefined,
    )
    await agent.kill('SIGKILL')
    for (const number of calls.slice(half)) await missedCall(sandbox, number)
    agent = await startAgentProcess(ws.config)
    const last = agent

    const ackedNow = async (): Promise<Incident[]> =>
      (await openIncidents(last)).filter((i) => i.state === 'acknowledged')
    await pollUntil(
      `${expectedAcks} acknowledgements`,
      async () => ((await ackedNow()).length >= expectedAcks ? true : undefined),
      { timeoutMs: 60_000 },
    ).catch(() => undefined)
    // Two more polls after that: nothing else may be acknowledged by then.
    const polls = await metric(last.metricsUrl, 'logx_agent_missed_call_polls_total')
    await pollUntil('two more polls', async () =>
      (await metric(last.metricsUrl, 'logx_agent_missed_call_polls_total')) >= polls + 2 ? true : undefined,
    )
    const peakRssMb = peakRssOf(last.child.pid ?? 0) ?? 0

    const acked = await ackedNow()
    const got = new Map<string, string[]>(PEOPLE.map((p) => [p, []]))
    const wrong: string[] = []
    for (const incident of acked) {
      const id = incidentOf(incident.title) ?? '?'
      const by = incident.ack?.by ?? '?'
      if (owner.get(id) !== by || incident.ack?.via !== 'missed_call')
        wrong.push(`${id} (${owner.get(id)}'s) acked by ${by} via ${incident.ack?.via}`)
      got.get(by)?.push(id)
    }
    for (const ids of got.values()) ids.sort()

    // The CRM: one acknowledgement activity per acknowledged incident, each under one key.
    const all = await records(api, 'lead,activity')
    const incidentOfLead = new Map(
      all.filter((r) => r.kind === 'lead').map((r) => [String(r.record.lead_id), incidentOf(String(r.record.name))]),
    )
    const ackKeys = new Map<string, Set<string>>()
    for (const r of all) {
      if (r.kind !== 'activity' || !/^Acknowledged/.test(String(r.record.title))) continue
      const id = incidentOfLead.get(String(r.record.lead_id)) ?? '?'
      const keys = ackKeys.get(id) ?? new Set<string>()
      keys.add(String(r.record.idempotency_key))
      ackKeys.set(id, keys)
    }
    const twice = [...ackKeys].filter(([, keys]) => keys.size > 1).map(([id]) => id)
    const missing = [...expected.values()].flat().filter((id) => !ackKeys.has(id))
    const invented = [...ackKeys.keys()].filter((id) => ![...expected.values()].flat().includes(id))

    const lost = [...expected].reduce(
      (n, [p, ids]) => n + ids.filter((id) => !(got.get(p) ?? []).includes(id)).length,
      0,
    )
    recordDrill(task, {
      drill: 'acknowledge by missed call',
      events: calls.length,
      unit: 'missed calls',
      lost,
      duplicated: twice.length,
      peakRssMb,
      timeMs: Date.now() - started,
      notes: `${INCIDENTS} incidents, ${PEOPLE.length} people, ${calls.length} calls (${UNKNOWN.length * 2} from unknown numbers), 1 SIGKILL after ${half}; expected ${expectedAcks} acks, got ${acked.length}; wrong ${wrong.length}; activities missing ${missing.length}, invented ${invented.length}, twice ${twice.length}; seed ${seed}`,
    })
    expect(wrong).toEqual([])
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected))
    expect({ missing, invented, twice }).toEqual({ missing: [], invented: [], twice: [] })
  } finally {
    await agent?.kill('SIGKILL')
    await sandbox?.close()
    ws.remove()
  }
})
