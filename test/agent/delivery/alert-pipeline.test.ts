// The pipeline's promises across engines (a restart or a reload builds a fresh one), with a fake
// dispatcher and a fake clock: an incident that paged is not paged again within repeat_interval,
// and one that was waiting out group_wait still fires.
import { describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Delivery } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { toAlertLine } from '../../../agent/events/alert-line'
import { createAlertPipeline } from '../../../agent/delivery/alert-pipeline'
import type { AlertPipeline } from '../../../agent/delivery/types'
import { createRecordingDispatcher } from './recording-dispatcher'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import { setupOfConfig } from '../../../agent/delivery/alert-setup'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { testRuleCommand } from '../../../agent/cli/test-rule/test-rule-command'
import { tempDir } from '../../helpers/temp-dir'

function setup(rules: string, extra = ''): { config: AgentConfig; stateDir: string } {
  const stateDir = tempDir('pipeline')
  const result = parseAgentConfig(
    `state_dir: ${stateDir}
sources: [{ name: app, paths: [${stateDir}/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
${extra}rules:
${rules}`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return { config: result.config, stateDir }
}

function start(
  config: AgentConfig,
  stateDir: string,
  now: number,
  secrets: string[] = [],
): { pipeline: AlertPipeline; sent: Delivery[] } {
  const sent: Delivery[] = []
  const dispatcher = createRecordingDispatcher(sent)
  const log = createAgentLogger({ level: 'silent', destination: { write: () => true } })
  return {
    pipeline: createAlertPipeline({
      setup: setupOfConfig(config, secrets),
      state: createIncidentState(join(stateDir, 'incidents.json')),
      dispatcher,
      log,
      now,
    }),
    sent,
  }
}

const line = (msg: string) => toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line
const kinds = (sent: Delivery[]) => sent.map((d) => `${d.notice.kind} ${d.notice.incident.title}`)

describe('alert pipeline across engines', () => {
  it('gives a new engine the incidents that paged: no page again until repeat_interval, then a repeat', () => {
    const { config, stateDir } = setup('  - { name: errors, repeat_interval: 30m }\n')
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(line('db down'), 1000)
    expect(kinds(first.sent)).toEqual(['firing db down'])

    const second = start(config, stateDir, 2000)
    expect(second.pipeline.incidents().map((i) => `${i.status} ${i.title}`)).toEqual(['firing db down'])
    second.pipeline.ingest(line('db down'), 3000)
    second.pipeline.ingest(line('cache down'), 3000)
    expect(kinds(second.sent)).toEqual(['firing cache down'])

    const third = start(config, stateDir, 0)
    third.pipeline.ingest(line('db down'), 1000 + 30 * 60_000)
    expect(kinds(third.sent)).toEqual(['repeat db down'])
  })

  it('fires after a restart an incident that was waiting out group_wait', () => {
    const { config, stateDir } = setup('  - { name: errors, group_wait: 10s }\n')
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(line('disk full'), 1000)
    first.pipeline.tick(5000)
    expect(first.sent).toEqual([])

    const second = start(config, stateDir, 6000)
    second.pipeline.tick(15_000)
    expect(second.sent).toEqual([])
    second.pipeline.tick(16_000)
    expect(kinds(second.sent)).toEqual(['firing disk full'])
    // Fired once: a third engine has nothing left to replay.
    const third = start(config, stateDir, 17_000)
    third.pipeline.tick(60_000)
    expect(third.sent).toEqual([])
  })

  it('forgets a paged incident once it has been quiet for resolve_after', () => {
    const { config, stateDir } = setup('  - { name: errors, resolve_after: 1m, repeat_interval: 1h }\n')
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(line('queue stuck'), 1000)
    const second = start(config, stateDir, 2000)
    second.pipeline.tick(62_000)
    second.pipeline.ingest(line('queue stuck'), 62_000)
    expect(kinds(second.sent)).toEqual(['firing queue stuck'])
  })

  it('keeps no redacted value or secret in incidents.json, and still fires a pending incident whose rule matches a redacted field', () => {
    const { config, stateDir } = setup(
      '  - { name: auth, group_wait: 10s, match: { user.token: /^tok-/ }, group_by: [user.name] }\n',
      'redact: [user.token]\n',
    )
    const secret = 'sk-endpoint-secret-1'
    const first = start(config, stateDir, 0, [secret])
    const planted = toAlertLine(
      JSON.stringify({ level: 50, msg: `login failed with ${secret}`, user: { name: 'ann', token: 'tok-planted-42' } }),
      'json',
      'app',
    ).line
    first.pipeline.ingest(planted, 1000)
    const state = readFileSync(join(stateDir, 'incidents.json'), 'utf8')
    expect(state).toContain('login failed')
    expect(state).not.toContain('tok-planted-42')
    expect(state).not.toContain(secret)

    // A restart replays the censored line: the rule it matched is carried, not re-matched.
    const second = start(config, stateDir, 6000, [secret])
    second.pipeline.tick(16_000)
    expect(kinds(second.sent)).toEqual(['firing login failed with [redacted]'])
    expect(JSON.stringify(second.sent)).not.toContain('tok-planted-42')
    // The key of the replayed incident is the key the live line gets: no second page.
    second.pipeline.ingest(planted, 17_000)
    expect(second.sent).toHaveLength(1)
  })
})

describe('a line the engine throws on', () => {
  it('is skipped and counted; the next line alerts', () => {
    const stateDir = tempDir('pipeline')
    const result = parseAgentConfig(
      `state_dir: ${stateDir}
sources: [{ name: app, paths: [${stateDir}/*.log] }]
channels: { ops-mail: { type: mail, from: a@example.com, to: b@example.com } }
`,
      'agent.yaml',
    )
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    const { pipeline, sent } = start(result.config, stateDir, 0)
    // No JSON line can be cyclic; a cyclic record stands for whatever input a future bug chokes on.
    const cyclic: Record<string, unknown> = { level: 50, msg: 'cyclic' }
    cyclic.self = cyclic
    pipeline.ingest({ ...line('cyclic'), record: cyclic }, 1000)
    expect(pipeline.stats().failedLines).toBe(1)
    pipeline.ingest(line('next one'), 2000)
    expect(kinds(sent)).toEqual(['firing next one'])
  })
})

describe('the per-line path', () => {
  it('a line holding a secret as a number is censored and alerts; its source does not stop', () => {
    // Censoring once stringified the record, cut the secret out and parsed it again: a number that
    // spelled a secret left unparsable JSON, and the throw stopped the line's source.
    const { config, stateDir } = setup('  - { name: errors, group_by: [msg] }\n')
    const secret = '4111111111111111'
    const { pipeline, sent } = start(config, stateDir, 0, [secret])
    const card = toAlertLine(
      JSON.stringify({ level: 50, msg: 'card declined', card: Number(secret) }),
      'json',
      'app',
    ).line
    expect(() => pipeline.ingest(card, 1000)).not.toThrow()
    expect(kinds(sent)).toEqual(['firing card declined'])
    expect(pipeline.stats().failedLines).toBe(0)
    expect(JSON.stringify(sent)).not.toContain(secret)
  })

  it('records in incidents.json the key the engine uses (one censor, one fingerprint per line)', () => {
    const { config, stateDir } = setup('  - { name: errors, group_wait: 10s }\n', 'redact: [user]\n')
    const { pipeline, sent } = start(config, stateDir, 0, ['sk-endpoint-secret-1'])
    for (const user of ['ann', 'bob']) {
      pipeline.ingest(
        toAlertLine(JSON.stringify({ level: 50, msg: 'db 42 down sk-endpoint-secret-1', user }), 'json', 'app').line,
        1000,
      )
    }
    const keys = [
      ...new Set(
        createIncidentState(join(stateDir, 'incidents.json'))
          .pending()
          .map((p) => p.raw),
      ),
    ]
    // Both lines are one incident once censored, and its raw text keeps neither value.
    expect(keys).toHaveLength(1)
    expect(readFileSync(join(stateDir, 'incidents.json'), 'utf8')).not.toMatch(/ann|bob|sk-endpoint-secret-1/)
    const state = { pending: pipeline.incidents().map((i) => i.key) }
    pipeline.tick(11_000)
    expect(sent.map((d) => d.notice.incident.key)).toEqual(state.pending)
    expect(sent[0]?.notice.incident.count).toBe(2)
  })
})

describe('absence rules across engines', () => {
  const beat = (host: string) => toAlertLine(JSON.stringify({ level: 30, host, msg: 'heartbeat' }), 'json', 'app').line
  const absence =
    '  - { name: heartbeat, level: info, match: { msg: "/heartbeat/" }, group_by: [host], absent: { for: 1m }, notify: oncall-sms }\n'

  it('the keys it watches outlive a restart, and the time the agent was down is not silence', () => {
    const { config, stateDir } = setup(absence)
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(beat('web1'), 1000)
    first.pipeline.ingest(beat('web2'), 1000)
    first.pipeline.flush(2000)

    // Down from 2 s to 10 min: a restarted agent watches both hosts again, from its start.
    const second = start(config, stateDir, 600_000)
    expect(second.pipeline.stats().absenceKeys).toBe(2)
    second.pipeline.tick(600_000 + 30_000)
    expect(second.sent).toEqual([])
    second.pipeline.ingest(beat('web1'), 600_000 + 50_000)
    second.pipeline.tick(600_000 + 61_000)
    expect(kinds(second.sent).filter((k) => k.startsWith('firing'))).toEqual([
      'firing no heartbeat lines for 1m (host=web2)',
    ])
  })
})

describe('test-rule and inhibition', () => {
  it('shows a muted page and the incident that muted it, even for rules without incident: true', async () => {
    const { config, stateDir } = setup(
      '  - { name: db-down, match: { kind: db }, notify: oncall-sms }\n  - { name: api-errors, match: { kind: api }, notify: oncall-sms }\n',
      'inhibit:\n  - { source: { rule: db-down }, target: { rule: api-errors }, equal: [host] }\n',
    )
    const file = join(stateDir, 'app.log')
    writeFileSync(
      file,
      [
        { kind: 'db', host: 'h1', msg: 'db down' },
        { kind: 'api', host: 'h1', msg: 'api 500' },
      ]
        .map((f) => `${JSON.stringify({ level: 50, ...f })}\n`)
        .join(''),
    )
    const yaml = join(stateDir, 'agent.yaml')
    writeFileSync(
      yaml,
      `messaging: { base_url: "http://127.0.0.1:9/", api_key: never-used-key }\nstate_dir: ${stateDir}/state\nsources: [{ name: app, paths: [${stateDir}/*.log] }]\nchannels: { oncall-sms: { type: sms, numbers: [919800000001] } }\nrules:\n  - { name: db-down, match: { kind: db }, notify: oncall-sms }\n  - { name: api-errors, match: { kind: api }, notify: oncall-sms }\ninhibit:\n  - { source: { rule: db-down }, target: { rule: api-errors }, equal: [host] }\n`,
    )
    expect(config.inhibit).toHaveLength(1)
    let stdout = ''
    const io = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
      signal: new AbortController().signal,
    }
    expect(await testRuleCommand({ config: yaml, files: [file], rule: undefined, json: false }, io)).toBe(0)
    expect(stdout).toMatch(/inhibited {2}incident \(CRM lead and activity\) \(incident\) {2}incident api-errors:/)
    expect(stdout).toContain('muted (inhibit) while "db down" (rule db-down')
    expect(stdout.match(/firing {2}oncall-sms/g)).toHaveLength(1)
    expect(stdout).not.toContain('api 500 (1x')
  })
})
