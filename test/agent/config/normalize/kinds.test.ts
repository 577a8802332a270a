// Rules on kinds and the kinds: section as written in YAML, normalized (agent/config/normalize/kinds.ts),
// and an engine made from them paging a new kind once (the miner is the agent's own).
import { describe, expect, it } from 'vitest'
import { createAlertEngine } from '../../../../alerts'
import { engineOptionsOf, parseAgentConfig, type AgentConfig } from '../../../../agent/config'
import { parsePercent } from '../../../../agent/config/normalize/kinds'
import { testEnv } from '../helpers'

const YAML = `
sources: [{ name: app, paths: ./app.log }]
channels: { ops: { type: sms, numbers: ["919800000001"] } }
kinds: { max: 500, learn: 0s }
rules:
  - name: new-kinds
    kind: new
    min_count: 3
    within: 10m
  - name: back
    kind: regressed
    deploys: { source: app, match: { msg: "/starting version/" } }
  - name: bursts
    spike: { factor: 5, baseline: 1h }
  - name: share
    ratio: { above: 5%, within: 5m }
  - name: plain
`

function configOf(yaml: string): AgentConfig {
  const result = parseAgentConfig(yaml, 'kinds.yaml', { env: testEnv, cwd: '/srv/app' })
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'))
  return result.config
}

describe('rules on kinds in the config', () => {
  it('normalizes each kind of rule, with its defaults, and leaves other rules without kinds', () => {
    const config = configOf(YAML)
    expect(config.kinds).toEqual({ max: 500, learnMs: 0 })
    expect(config.rules.map((r) => r.kinds)).toEqual([
      { type: 'new', minCount: 3, withinMs: 600_000 },
      {
        type: 'regressed',
        quietMs: 7 * 86_400_000,
        deploys: { sources: ['app'], match: [{ kind: 'regex', path: 'msg', regex: /starting version/ }] },
      },
      { type: 'spike', factor: 5, baselineMs: 3_600_000, windowMs: 60_000, min: 1 },
      { type: 'ratio', above: 0.05, withinMs: 300_000, minLines: 100 },
      undefined,
    ])
    expect(Object.hasOwn(config.rules[4] ?? {}, 'kinds')).toBe(false)
  })

  it('kinds: defaults to 10000 kinds per source and 1h of learning', () => {
    const yaml =
      'sources: [{ name: app, paths: ./app.log }]\nchannels: { ops: { type: sms, numbers: ["919800000001"] } }'
    expect(configOf(yaml).kinds).toEqual({ max: 10_000, learnMs: 3_600_000 })
  })

  it('takes a spike factor above 1 with a fraction (1.5), from the YAML or the environment', () => {
    const spikeYaml = (factor: string) =>
      'sources: [{ name: app, paths: ./app.log }]\nchannels: { ops: { type: sms, numbers: ["919800000001"] } }\n' +
      `rules:\n  - name: bursts\n    spike: { factor: ${factor}, baseline: 1h, window: 5m, min: 3 }\n`
    const expected = { type: 'spike', factor: 1.5, baselineMs: 3_600_000, windowMs: 300_000, min: 3 }
    expect(configOf(spikeYaml('1.5')).rules[0]?.kinds).toEqual(expected)
    const env = { ...testEnv, LOGX_TEST_FACTOR: '1.5' }
    const fromEnv = parseAgentConfig(spikeYaml('"${LOGX_TEST_FACTOR}"'), 'kinds.yaml', { env, cwd: '/srv/app' })
    expect(fromEnv.ok && fromEnv.config.rules[0]?.kinds).toEqual(expected)
    for (const bad of ['1', '0.5', '-2', '.inf', '"1.5x"']) {
      const result = parseAgentConfig(spikeYaml(bad), 'kinds.yaml', { env: testEnv, cwd: '/srv/app' })
      expect(result.ok, bad).toBe(false)
      if (!result.ok)
        expect(result.problems.map((p) => `${p.path}: ${p.message}`)[0], bad).toMatch(
          /^rules\[0\]\.spike\.factor: expected a number above 1, got /,
        )
    }
  })

  it('refuses deploys of a source that is not declared, naming the key and the sources there are', () => {
    const yaml =
      'sources: [{ name: app, paths: ./app.log }, { name: web, paths: ./web.log }]\n' +
      'channels: { ops: { type: sms, numbers: ["919800000001"] } }\n' +
      'rules:\n  - name: back\n    kind: regressed\n    deploys: { source: nosuch, match: { msg: "/starting/" } }\n'
    const result = parseAgentConfig(yaml, 'kinds.yaml', { env: testEnv, cwd: '/srv/app' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => [p.line, p.col, p.path, p.message])).toEqual([
      [6, 24, 'rules[0].deploys.source', 'unknown source "nosuch" (known: app, web)'],
    ])
  })

  it('reads percentages above 0 and below 100 only', () => {
    expect(parsePercent('5%')).toBe(0.05)
    expect(parsePercent(' 0.5 % ')).toBe(0.005)
    for (const bad of ['0%', '100%', '5', 'five%', '-1%']) expect(parsePercent(bad), bad).toBeUndefined()
  })

  it('an engine made from the config pages a new kind once it was seen min_count times', () => {
    // Without the other rules: a line the kind rule does not take would go on to them.
    const config = configOf(YAML.slice(0, YAML.indexOf('  - name: back')))
    const parts = { ...config, secrets: [], kinds: { learnMs: config.kinds?.learnMs, max: config.kinds?.max } }
    const engine = createAlertEngine(engineOptionsOf(parts, 0))
    const t0 = Date.parse('2026-12-02T10:00:00Z')
    const line = JSON.stringify({ level: 50, msg: 'upstream timed out after 30 s' })
    expect(engine.ingest(line, t0, 'app')).toEqual([])
    expect(engine.ingest(line, t0 + 1000, 'app')).toEqual([])
    const sent = engine.ingest(line, t0 + 2000, 'app')
    expect(sent.map((d) => d.notice.incident.rule)).toEqual(['new-kinds'])
    expect(sent[0]?.notice.incident.title).toMatch(/^NEW error kind on \S+ \(3x in 2 s\): /)
    expect(engine.ingest(line, t0 + 3000, 'app')).toEqual([])
  })
})
