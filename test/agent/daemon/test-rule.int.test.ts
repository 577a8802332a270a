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
  messages: { kind: string; channel: string; type: string; requests: Record<string, unknown>[] }[]
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
    const json = (s: number, level: number, msg: string, extra: object = {}): string => JSON.stringify({ level, time: t0 + s * 1000, msg, ...extra })
    writeFileSync(log, [
      json(0, 30, 'request served'),
      json(1, 50, 'query failed', { err: { type: 'DbError' } }),
      json(2, 50, 'query failed', { err: { type: 'DbError' } }),
      json(20, 50, 'cache miss storm'),
      '2026-01-01 00:00:21 ERROR worker 7 crashed',
      '',
    ].join('\n'))
  })

  afterAll(() => ws?.remove())

  it('reports matches, incidents and the exact requests, and sends nothing', async () => {
    const run = spawnAgent(['test-rule', ws.config, log, '--json'])
    expect(await run.exited).toBe(0)
    const report = JSON.parse(run.output()) as Report
    expect(report.lines).toBe(5)
    expect(report.matches.map((m) => [m.line, m.rule])).toEqual([[2, 'db'], [3, 'db'], [4, 'errors'], [5, 'errors']])
    expect(report.incidents.map((i) => [i.rule, i.lines, i.title])).toEqual([
      ['db', 2, 'query failed'],
      ['errors', 1, 'cache miss storm'],
      ['errors', 1, '2026-01-01 00:00:21 ERROR worker 7 crashed'],
    ])
    const sms = report.messages.filter((m) => m.type === 'sms')
    // group_wait 10s on the lines' clock: the DB incident fires once, counting both lines.
    expect(sms).toHaveLength(1)
    expect(sms[0]?.requests).toEqual([{ numbers: ['919800000001'], text: 'FIRING query failed: DbError (2x, db)' }])
    expect(report.messages.filter((m) => m.type === 'chat').map((m) => m.requests[0]?.variables)).toEqual([
      ['FIRING', 'cache miss storm', '1', 'errors'],
      ['FIRING', '2026-01-01 00:00:21 ERROR worker 7 crashed', '1', 'errors'],
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
    writeFileSync(odd, ['{"msg":"spaced","level" : 50}', '{"level":30,"msg":"twice","level":50}', '{"level":30,"msg":"fine"}', ''].join('\n'))
    const run = spawnAgent(['test-rule', ws.config, odd, '--rule', 'errors', '--json'])
    expect(await run.exited).toBe(0)
    const report = JSON.parse(run.output()) as Report
    expect(report.matches.map((m) => [m.line, m.rule])).toEqual([[1, 'errors'], [2, 'errors']])
  })

  it('rejects an unknown rule and a missing file with exit 2', async () => {
    const unknown = spawnAgent(['test-rule', ws.config, log, '--rule', 'nope'])
    expect(await unknown.exited).toBe(2)
    expect(unknown.errors()).toContain('no rule named "nope"')
    const missing = spawnAgent(['test-rule', ws.config, join(ws.logs, 'absent.log')])
    expect(await missing.exited).toBe(2)
    expect(missing.errors()).toContain('cannot read')
  })

  it('every command has --help', async () => {
    for (const command of ['run', 'validate', 'test-rule', 'sandbox']) {
      const help = spawnAgent([command, '--help'])
      expect(await help.exited, command).toBe(0)
      expect(help.output(), command).toContain(`logx-agent ${command}`)
    }
  })
})
