// Who gets paged, end to end through a real agent process and the sandbox: a schedule's handoff
// during an incident (the escalation reaches whoever is on call then, on a daylight-saving day), a
// night-time escalation that skips the chat step, one silent host of two firing alone (absence) and
// resolving when it logs again, and a page muted by inhibition while its source incident fires. The
// agent's clock is moved (LOGX_AGENT_CLOCK_SKEW_MS) so the handoff is seconds away, not hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { onCallAt, zonedInstant, type ScheduleConfig } from '../../../alerts'
import {
  createWorkspace,
  messagingYaml,
  metric,
  recordsWhen,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type SandboxRecord,
  type Workspace,
} from './helpers'

const PHONES: Record<string, string> = { asha: '919800000001', ravi: '919800000003' }
const json = (fields: object): string => `${JSON.stringify({ level: 50, ...fields })}\n`
const smsTo = (all: readonly SandboxRecord[], phone: string): string[] =>
  all
    .filter((r) => r.kind === 'sms' && (r.record.numbers as unknown[]).map(String).includes(phone))
    .map((r) => String(r.record.sms))
const activities = (all: readonly SandboxRecord[]): string[] =>
  all
    .filter((r) => r.kind === 'activity')
    .map(
      (r) =>
        `${String(r.record.activity_type)}: ${String(r.record.title)}\n${String(r.record.notes ?? r.record.description ?? '')}`,
    )

describe('on-call schedules, active hours, absence and inhibition', () => {
  let sandbox: SandboxProcess
  const workspaces: Workspace[] = []
  const agents: RunningAgent[] = []

  beforeAll(async () => {
    sandbox = await startSandboxProcess()
  })
  afterAll(async () => {
    for (const agent of agents) await agent.kill('SIGKILL')
    await sandbox?.close()
    for (const ws of workspaces) ws.remove()
  })

  async function start(
    body: string,
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ ws: Workspace; agent: RunningAgent; log: string }> {
    const ws = createWorkspace()
    workspaces.push(ws)
    mkdirSync(ws.logs, { recursive: true })
    ws.writeConfig(`${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    start_at: beginning
people:
  asha: { phone: "${PHONES.asha}" }
  ravi: { phone: "${PHONES.ravi}" }
${body}
metrics: { listen: 127.0.0.1:0 }
`)
    const agent = await startAgentProcess(ws.config, env)
    agents.push(agent)
    return { ws, agent, log: join(ws.logs, 'app.log') }
  }

  it('an escalation after a handoff reaches the new person on call (New York, the day clocks go forward)', async () => {
    const schedule: ScheduleConfig = {
      name: 'ops',
      timeZone: 'America/New_York',
      layers: [
        {
          name: 'primary',
          users: ['asha', 'ravi'],
          rotation: { kind: 'daily' },
          handoff: { hour: 9, minute: 0 },
          start: { year: 2026, month: 3, day: 1 },
          timeZone: 'America/New_York',
        },
      ],
      overrides: [],
    }
    // 09:00 local on 2026-03-08 is 13:00Z (EDT since 02:00 that night); the agent starts 6 s before it.
    const handoff = zonedInstant({ year: 2026, month: 3, day: 8, hour: 9, minute: 0 }, 'America/New_York')
    expect(handoff).toBe(Date.parse('2026-03-08T13:00:00Z'))
    const before = onCallAt(schedule, undefined, handoff - 1)?.user as string
    const after = onCallAt(schedule, undefined, handoff)?.user as string
    expect(before).not.toBe(after)
    const { agent, log } = await start(
      `schedules:
  ops:
    time_zone: America/New_York
    layers:
      - { name: primary, users: [asha, ravi], rotation: daily, handoff: "09:00", start: "2026-03-01" }
channels:
  oncall-sms: { type: sms, oncall: ops }
rules:
  - name: handoff
    match: { test: handoff }
    notify: oncall-sms
    escalate:
      - { after: 10s, notify: oncall-sms }
    incident: true`,
      { LOGX_AGENT_CLOCK_SKEW_MS: String(handoff - 6000 - Date.now()) },
    )
    appendFileSync(log, json({ test: 'handoff', msg: 'payments queue stuck' }))
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the escalation to the next person on call',
      (r) => smsTo(r, PHONES[after] as string).some((t) => t.includes('payments queue stuck')),
      30_000,
    )
    expect(smsTo(all, PHONES[before] as string).filter((t) => t.includes('payments queue stuck'))).toHaveLength(1)
    expect(smsTo(all, PHONES[after] as string).filter((t) => t.includes('payments queue stuck'))[0]).toMatch(
      /^ESCALATED/,
    )
    // The lead says who was on call each time (each message's activity is recorded once it is sent).
    const onCall = (who: string): string => `on call: ${who} (schedule ops, primary)`
    const recorded = await recordsWhen(
      sandbox.api.baseUrl,
      'both messages on the lead',
      (r) => {
        const trail = activities(r).filter((a) => a.startsWith('MESSAGE'))
        return trail.some((a) => a.includes(onCall(before))) && trail.some((a) => a.includes(onCall(after)))
      },
      30_000,
    )
    const trail = activities(recorded).filter((a) => a.startsWith('MESSAGE'))
    expect(trail.filter((a) => a.includes(onCall(before)))).toHaveLength(1)
    expect(trail.filter((a) => a.includes(onCall(after)))).toHaveLength(1)
    await agent.kill('SIGKILL')
  }, 60_000)

  it('at night an escalation step limited to office hours is skipped: the phone call comes at once', async () => {
    // "Office hours": a one-hour window twelve hours from now (UTC), so it is night for the step now.
    const hour = (new Date().getUTCHours() + 12) % 24
    const office = `{ from: "${String(hour).padStart(2, '0')}:00", to: "${String((hour + 1) % 24).padStart(2, '0')}:00" }`
    const { agent, log } = await start(`channels:
  oncall-sms: { type: sms, people: [asha] }
  team-chat: { type: chat, numbers: ["+919800000002"], template_id: 101 }
  oncall-voice: { type: voice, people: [ravi], audio: [alert.mp3] }
rules:
  - name: night
    match: { test: night }
    notify: oncall-sms
    escalate:
      - { after: 2s, notify: team-chat, active_hours: ${office} }
      - { after: 1h, notify: oncall-voice }`)
    appendFileSync(log, json({ test: 'night', msg: 'disk full on db1' }))
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the voice call',
      (r) => r.some((x) => x.kind === 'voice' && JSON.stringify(x.record).includes(PHONES.ravi as string)),
      30_000,
    )
    expect(smsTo(all, PHONES.asha as string).filter((t) => t.includes('disk full on db1'))).toHaveLength(1)
    expect(all.filter((r) => r.kind === 'chat' && JSON.stringify(r.record).includes('disk full on db1'))).toEqual([])
    await agent.kill('SIGKILL')
  }, 60_000)

  it('one silent host of two fires alone, and resolves when it logs again', async () => {
    const { agent, log } = await start(`channels:
  oncall-sms: { type: sms, people: [asha] }
rules:
  - name: heartbeat
    level: info
    match: { msg: "/heartbeat/" }
    group_by: [host]
    absent: { for: 2s }
    notify: oncall-sms`)
    const beat = (host: string): void =>
      appendFileSync(log, `${JSON.stringify({ level: 30, host, msg: 'heartbeat' })}\n`)
    beat('web1')
    beat('web2')
    // web1 keeps beating; web2 went quiet.
    const timer = setInterval(() => beat('web1'), 300)
    try {
      const all = await recordsWhen(
        sandbox.api.baseUrl,
        'the absence page of web2',
        (r) => smsTo(r, PHONES.asha as string).some((t) => t.includes('host=web2')),
        30_000,
      )
      expect(smsTo(all, PHONES.asha as string).filter((t) => t.includes('host=web1'))).toEqual([])
      expect(await metric(agent.metricsUrl, 'logx_agent_absence_keys')).toBe(2)
      beat('web2')
      await recordsWhen(
        sandbox.api.baseUrl,
        'web2 resolved',
        (r) => smsTo(r, PHONES.asha as string).some((t) => t.startsWith('RESOLVED') && t.includes('host=web2')),
        30_000,
      )
    } finally {
      clearInterval(timer)
    }
    await agent.kill('SIGKILL')
  }, 60_000)

  it('a page muted by inhibition is said on its lead, and only for the host whose database is down', async () => {
    const { agent, log } = await start(`channels:
  oncall-sms: { type: sms, people: [asha] }
rules:
  - { name: db-down, match: { test: inhibit, kind: db }, notify: oncall-sms, incident: true }
  - { name: api-errors, match: { test: inhibit, kind: api }, group_by: [host], notify: oncall-sms, incident: true }
inhibit:
  - source: { rule: db-down }
    target: { rule: api-errors }
    equal: [host]`)
    appendFileSync(log, json({ test: 'inhibit', kind: 'db', host: 'h1', msg: 'database down on h1' }))
    await recordsWhen(sandbox.api.baseUrl, 'the db page', (r) =>
      smsTo(r, PHONES.asha as string).some((t) => t.includes('database down on h1')),
    )
    appendFileSync(
      log,
      json({ test: 'inhibit', kind: 'api', host: 'h1', msg: 'api 500 on h1' }) +
        json({ test: 'inhibit', kind: 'api', host: 'h2', msg: 'api 500 on h2' }),
    )
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the h2 page and the muted note',
      (r) =>
        smsTo(r, PHONES.asha as string).some((t) => t.includes('api 500 on h2')) &&
        activities(r).some((a) => a.includes('Page muted by inhibition')),
      30_000,
    )
    expect(smsTo(all, PHONES.asha as string).filter((t) => t.includes('api 500 on h1'))).toEqual([])
    expect(activities(all).filter((a) => a.includes('Page muted by inhibition'))).toHaveLength(1)
    expect(activities(all).find((a) => a.includes('Page muted by inhibition'))).toContain(
      '"database down on h1" (db-down) is firing',
    )
    expect(await metric(agent.metricsUrl, 'logx_agent_notices_inhibited_total')).toBe(1)
    await agent.kill('SIGKILL')
  }, 60_000)
})
