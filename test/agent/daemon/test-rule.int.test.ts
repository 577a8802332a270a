// `logx-agent test-rule`: a dry run over existing files, as a real child process. It reports the
// matches, the incidents and the exact requests, on the lines' own clock, and sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWorkspace, spawnAgent, type Workspace } from './helpers'

interface Report {
  lines: number
  matched: number
  matches: { line: number; rule: string }[]
  incidents: { rule: string; lines: number; title: string }[]
  messages: {
    at: string
    kind: string
    channel: string
    type: string
    requests: Record<string, unknown>[]
    reaches: string[]
    oncall?: { schedule: string; layer: string; user: string }[]
  }[]
}

describe('logx-agent test-rule', () => {
  let ws: Workspace
  let log: string

  beforeAll(() => {
    ws = createWorkspace()
    mkdirSync(ws.logs, { recursive: true })
    log = join(ws.logs, 'app.log')
    // The API it would use does not exist: a dry run must not need it.
    ws.writeConfig(`messaging:
  base_url: http://127.0.0.1:9/
  api_key: never-used-key
  lead_webhook: http://127.0.0.1:9/lead
  activity_webhook: http://127.0.0.1:9/activity
  activity_token: never-used-token
state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
  team-chat: { type: chat, numbers: ["+919800000002"], template_id: 101 }
rules:
  - name: db
    match: { err.type: DbError }
    group_wait: 10s
    notify: oncall-sms
    incident: true
  - name: errors
    notify: team-chat
`)
    const t0 = Date.parse('2026-01-01T00:00:00Z')
    const json = (s: number, level: number, msg: string, extra: object = {}): string =>
      JSON.stringify({ level, time: t0 + s * 1000, msg, ...extra })
    writeFileSync(
      log,
      [
        json(0, 30, 'request served'),
        json(1, 50, 'query failed', { err: { type: 'DbError' } }),
        json(2, 50, 'query failed', { err: { type: 'DbError' } }),
        json(20, 50, 'cache miss storm'),
        '2026-01-01 00:00:21 ERROR worker 7 crashed',
        '',
      ].join('\n'),
    )
  })

  afterAll(() => ws?.remove())

  it('reports matches, incidents and the exact requests, and sends nothing', async () => {
    const run = spawnAgent(['test-rule', ws.config, log, '--json'])
    expect(await run.exited).toBe(0)
    const report = JSON.parse(run.output()) as Report
    expect(report.lines).toBe(5)
    expect(report.matches.map((m) => [m.line, m.rule])).toEqual([
      [2, 'db'],
      [3, 'db'],
      [4, 'errors'],
      [5, 'errors'],
    ])
    expect(report.incidents.map((i) => [i.rule, i.lines, i.title])).toEqual([
      ['db', 2, 'query failed'],
      ['errors', 1, 'cache miss storm'],
      // A plain-text line's title is its message, without the timestamp and level.
      ['errors', 1, 'worker 7 crashed'],
    ])
    const sms = report.messages.filter((m) => m.type === 'sms')
    // group_wait 10s on the lines' clock: the DB incident fires once, counting both lines.
    expect(sms).toHaveLength(1)
    expect(sms[0]?.requests).toEqual([{ numbers: ['919800000001'], text: 'FIRING query failed: DbError (2x, db)' }])
    expect(report.messages.filter((m) => m.type === 'chat').map((m) => m.requests[0]?.variables)).toEqual([
      ['FIRING', 'cache miss storm', '1', 'errors'],
      ['FIRING', 'worker 7 crashed', '1', 'errors'],
    ])
    expect(report.messages.some((m) => m.type === 'incident')).toBe(true)
    expect(existsSync(ws.state)).toBe(false)
    expect(run.output()).not.toContain('never-used')
  })

  it('--rule keeps one rule; the text report says nothing was sent', async () => {
    const run = spawnAgent(['test-rule', ws.config, log, '--rule', 'errors'])
    expect(await run.exited).toBe(0)
    expect(run.output()).toContain(`${log}:4  rule errors  cache miss storm`)
    expect(run.output()).not.toContain('rule db')
    expect(run.output()).toContain('Incidents (3):')
    expect(run.output()).toContain('Dry run: nothing was sent.')
  })

  it('selects what run would: a level key that is not first, spaced, or given twice (JSON keeps the last)', async () => {
    const odd = join(ws.logs, 'odd.log')
    writeFileSync(
      odd,
      ['{"msg":"spaced","level" : 50}', '{"level":30,"msg":"twice","level":50}', '{"level":30,"msg":"fine"}', ''].join(
        '\n',
      ),
    )
    const run = spawnAgent(['test-rule', ws.config, odd, '--rule', 'errors', '--json'])
    expect(await run.exited).toBe(0)
    const report = JSON.parse(run.output()) as Report
    expect(report.matches.map((m) => [m.line, m.rule])).toEqual([
      [1, 'errors'],
      [2, 'errors'],
    ])
  })

  it('rejects an unknown rule and a missing file with exit 2', async () => {
    const unknown = spawnAgent(['test-rule', ws.config, log, '--rule', 'nope'])
    expect(await unknown.exited).toBe(2)
    expect(unknown.errors()).toContain('no rule named "nope"')
    const missing = spawnAgent(['test-rule', ws.config, join(ws.logs, 'absent.log')])
    expect(await missing.exited).toBe(2)
    expect(missing.errors()).toContain('cannot read')
  })

  it("says whom each message reaches: the person on call at its time, a step's people, a channel's own recipients", async () => {
    const dir = join(ws.logs, 'oncall')
    mkdirSync(dir, { recursive: true })
    const config = join(dir, 'agent.yaml')
    // Daily at 09:00 in Kolkata from 2026-01-01: ravi has the turn that began 2026-03-03 09:00 (day
    // 61, odd), asha the one from 2026-03-04 09:00 (03:30Z). The incident opens before that handoff
    // and escalates after it.
    writeFileSync(
      config,
      `messaging:
  base_url: http://127.0.0.1:9/
  api_key: never-used-key
state_dir: ${join(dir, 'state')}
sources:
  - name: app
    paths: [${dir}/*.log]
people:
  asha: { phone: "+919800000001" }
  ravi: { phone: "+919800000003" }
schedules:
  ops:
    time_zone: Asia/Kolkata
    layers:
      - { name: primary, users: [asha, ravi], rotation: daily, handoff: "09:00", start: "2026-01-01" }
channels:
  oncall-sms: { type: sms, oncall: ops }
  team-chat: { type: chat, numbers: ["+919800000002"], people: [asha], template_id: 101 }
rules:
  - name: api
    match: { msg: "/api/" }
    notify: oncall-sms
    escalate:
      - { after: 10m, notify: oncall-sms }
      - { after: 20m, notify: team-chat, oncall: ops }
      - { after: 30m, notify: team-chat, people: [ravi] }
  - name: db
    notify: team-chat
`,
    )
    const file = join(dir, 'app.log')
    const line = (iso: string, msg: string): string => JSON.stringify({ level: 50, time: Date.parse(iso), msg })
    writeFileSync(
      file,
      [
        line('2026-03-04T03:25:00Z', 'api down'),
        line('2026-03-04T03:36:00Z', 'api down'),
        line('2026-03-04T03:46:00Z', 'api down'),
        line('2026-03-04T03:56:00Z', 'api down'),
        line('2026-03-04T03:57:00Z', 'db down'),
        '',
      ].join('\n'),
    )
    const run = spawnAgent(['test-rule', config, file, '--json'])
    expect(await run.exited).toBe(0)
    const sent = (JSON.parse(run.output()) as Report).messages.filter((m) => m.type !== 'incident')
    expect(sent.map((m) => [m.kind, m.channel, m.reaches])).toEqual([
      ['firing', 'oncall-sms', ['ravi']],
      ['escalated', 'oncall-sms', ['asha']],
      ['escalated', 'team-chat', ['asha']],
      ['escalated', 'team-chat', ['ravi']],
      ['firing', 'team-chat', ['+919800000002', 'asha']],
    ])
    expect(sent.map((m) => m.oncall)).toEqual([
      [{ schedule: 'ops', layer: 'primary', user: 'ravi' }],
      [{ schedule: 'ops', layer: 'primary', user: 'asha' }],
      // A step's oncall reaches the person on call on the step's channels, instead of their recipients.
      [{ schedule: 'ops', layer: 'primary', user: 'asha' }],
      undefined,
      undefined,
    ])
    // The request goes to the person reached, by their phone, and to no one else.
    const numbers = sent.map((m) => JSON.stringify(m.requests).match(/98000000\d\d/g))
    expect(numbers).toEqual([
      ['9800000003'],
      ['9800000001'],
      ['9800000001'],
      ['9800000003'],
      ['9800000002', '9800000001'],
    ])

    const text = spawnAgent(['test-rule', config, file])
    expect(await text.exited).toBe(0)
    expect(text.output()).toContain('firing  oncall-sms (sms)  incident api:')
    expect(text.output()).toContain('    reaches ravi (on call for ops/primary)\n')
    expect(text.output()).toContain('    reaches asha (on call for ops/primary)\n')
    expect(text.output()).toContain('    reaches +919800000002, asha\n')
  })

  it('every command has --help', async () => {
    for (const command of ['run', 'validate', 'test-rule', 'sandbox', 'oncall']) {
      const help = spawnAgent([command, '--help'])
      expect(await help.exited, command).toBe(0)
      expect(help.output(), command).toContain(`logx-agent ${command}`)
    }
  })
})
