// The normalized config drives alerts/ unchanged: the engine accepts the shipped configs, and an
// error line becomes the deliveries the rules promise.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type AlertEngineOptions } from '../../../../alerts'
import { engineOptionsOf, loadAgentConfig, parseAgentConfig, type AgentConfig } from '../../../../agent/config'
import { fakeSecretFile, repoRoot, testEnv } from '../helpers'

const options = { env: testEnv, cwd: '/srv/app', readSecretFile: fakeSecretFile }
const line = (record: Record<string, unknown>): string => JSON.stringify({ time: 0, ...record })
const toAlertEngineOptions = (config: AgentConfig, now: number): AlertEngineOptions =>
  engineOptionsOf({ ...config, secrets: config.secrets.map((s) => s.reveal()) }, now)

describe('engineOptionsOf', () => {
  it('config/agent.yaml: an error line reaches the chat channel and SMS after group_wait', async () => {
    const config = await loadAgentConfig(join(repoRoot, 'config/agent.yaml'), options)
    const t0 = Date.parse('2026-11-22T10:00:00Z')
    const engine = createAlertEngine(toAlertEngineOptions(config, t0))
    expect(engine.ingest(line({ level: 50, msg: 'db down' }), t0, 'app')).toEqual([])
    expect(engine.ingest(line({ level: 30, msg: 'fine' }), t0, 'app')).toEqual([])
    const sent = engine.tick(t0 + 10_000)
    expect(sent.map((d) => [d.notice.channel, d.channelType]).sort()).toEqual([
      ['oncall-sms', 'sms'],
      ['team-chat', 'chat'],
    ])
  })

  it('production.yaml: rules, matchers, escalation and secrets carry over', async () => {
    const config = await loadAgentConfig(join(repoRoot, 'config/examples/production.yaml'), options)
    const t0 = Date.parse('2026-11-22T10:00:00Z')
    const engineOptions = toAlertEngineOptions(config, t0)
    expect(engineOptions.secrets).toEqual([
      'sk-test-123',
      'tok-789',
      'https://crm.example.com/webhooks/lead/acme',
      'console-tok-321',
    ])
    // The normalized rules, channels and silences themselves: nothing written back and read again.
    expect(engineOptions.rules).toBe(config.rules)
    expect(engineOptions.channels).toBe(config.channels)
    expect(engineOptions.silences).toBe(config.silences)
    const engine = createAlertEngine(engineOptions)
    expect(engine.rules.map((r) => r.name)).toEqual(['api-timeouts', 'worker-crash-loop', 'everything-else'])
    expect(engine.rules[0]?.match.map((m) => m.kind === 'regex' && m.regex)).toEqual([/Timeout|ECONNREFUSED/])
    expect(engine.rules[0]?.escalation.map((s) => [s.afterMs, s.channels])).toEqual([
      [0, ['team-chat', 'oncall-sms']],
      [600_000, ['oncall-call']],
      [3_600_000, ['ops-mail']],
    ])
    engine.ingest(line({ level: 50, msg: 'upstream timed out', err: { type: 'TimeoutError' } }), t0, 'api')
    const first = engine.tick(t0 + 10_000)
    expect(first.map((d) => d.notice.channel).sort()).toEqual(['oncall-sms', 'team-chat'])
    const escalated = engine.tick(t0 + 10_000 + 600_000)
    expect(escalated.map((d) => d.notice.channel)).toContain('oncall-call')
  })

  it('oncall.yaml: channels built from people reach the engine as they are, their people named', async () => {
    const config = await loadAgentConfig(join(repoRoot, 'config/examples/oncall.yaml'), options)
    const t0 = Date.parse('2026-11-22T10:00:00Z')
    const engine = createAlertEngine(toAlertEngineOptions(config, t0))
    engine.ingest(line({ level: 50, msg: 'db down' }), t0, 'api')
    const first = engine.tick(t0 + 10_000)
    expect(first.map((d) => d.notice.channel).sort()).toEqual(['oncall-sms', 'team-chat'])
    expect(engine.rules[0]?.escalation.map((s) => [s.afterMs, s.channels, s.people])).toEqual([
      [0, ['team-chat', 'oncall-sms'], undefined],
      [600_000, ['oncall-voice'], ['ravi']],
      [1_800_000, ['oncall-sms', 'oncall-voice'], ['asha', 'ravi']],
      [3_600_000, ['oncall-mail'], undefined],
    ])
  })

  it('redact: values at those paths reach no message, while rules still match on them', () => {
    const yaml = [
      'sources: [{ name: app, paths: ./logs/*.log }]',
      'channels:',
      '  sms: { type: sms, numbers: [919800000001], template: "{{msg}} {{user.password}} {{req.headers.authorization}} {{session.token}} {{cards}}" }',
      '  mail: { type: mail, from: a@example.com, to: b@example.com }',
      'rules:',
      '  - name: auth',
      '    match: { user.password: /^hunter/ }',
      // The logger's redact syntax: brackets, wildcards.
      'redact: [user.password, \'req.headers["authorization"]\', "*.token", "cards[*].number", absent.path]',
    ].join('\n')
    const result = parseAgentConfig(yaml, 'agent.yaml', options)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.config.redact).toEqual([
      ['user', 'password'],
      ['req', 'headers', 'authorization'],
      ['*', 'token'],
      ['cards', '*', 'number'],
      ['absent', 'path'],
    ])
    const engine = createAlertEngine(toAlertEngineOptions(result.config, 0))
    const sent = engine.ingest(
      line({
        level: 50,
        msg: 'login failed',
        user: { password: 'hunter2-planted' },
        req: { headers: { authorization: 'Bearer planted-token' } },
        session: { token: 'planted-session' },
        cards: [{ number: '4111-planted' }, { number: '5500-planted', brand: 'mc' }],
      }),
      0,
      'app',
    )
    expect(sent.map((d) => d.channelType).sort()).toEqual(['mail', 'sms'])
    const text = JSON.stringify(sent)
    expect(text).not.toContain('hunter2-planted')
    expect(text).not.toContain('planted-token')
    expect(text).not.toContain('planted-session')
    expect(text).not.toContain('-planted')
    expect(text).toContain('login failed [redacted] [redacted] [redacted]')
  })

  it('redact: a path that is not a dot path is a config error naming its place', () => {
    const result = parseAgentConfig(
      'sources: [{ name: app, paths: ./x.log }]\nchannels: { s: { type: sms, numbers: [919800000001] } }\nredact: ["a..b"]\n',
      'agent.yaml',
      options,
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => `${p.line}:${p.col} ${p.path}`)).toEqual(['3:10 redact[0]'])
  })

  it("takes a recording channel beside the config's: it hears every notice, whatever the rule notifies", () => {
    const yaml = [
      'sources: [{ name: app, paths: ./logs/*.log }]',
      'channels: { sms: { type: sms, numbers: [919800000001] }, mail: { type: mail, from: a@example.com, to: b@example.com } }',
      'rules: [{ name: db, notify: mail, incident: true }]',
    ].join('\n')
    const result = parseAgentConfig(yaml, 'agent.yaml', options)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    const { config } = result
    const engine = createAlertEngine(
      engineOptionsOf(
        {
          ...config,
          channels: [...config.channels, { type: 'incident', name: 'logx.incident' }],
          secrets: [],
          maxIncidents: 5,
        },
        0,
      ),
    )
    const sent = engine.ingest(line({ level: 50, msg: 'db down' }), 0, 'app')
    expect(sent.map((d) => [d.notice.channel, d.channelType]).sort()).toEqual([
      ['logx.incident', 'incident'],
      ['mail', 'mail'],
    ])
  })
})
