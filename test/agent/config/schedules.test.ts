// Schedules, on-call references, active hours, absence rules and inhibition: what the YAML says
// becomes the alerts' types (local times as instants, weekdays as numbers), and transport targets,
// which have no schedules and nothing that ticks them in silence, refuse those keys.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  engineOptionsOf,
  formatProblem,
  parseAgentConfig,
  readAlertOptions,
  readChannelOptions,
  type AgentConfig,
} from '../../../agent/config'
import { fakeSecretFile, fixtures, repoRoot, testEnv } from './helpers'

const options = { env: testEnv, cwd: '/srv/app', readSecretFile: fakeSecretFile }

function load(path: string): AgentConfig {
  const result = parseAgentConfig(readFileSync(path, 'utf8'), path, options)
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config
}

const at = (iso: string): number => Date.parse(iso)
const clock = (hour: number, minute = 0): { hour: number; minute: number } => ({ hour, minute })

describe('config/examples/schedules.yaml', () => {
  const config = load(join(repoRoot, 'config/examples/schedules.yaml'))

  it("layers and overrides: local times in the schedule's zone, an offset where written", () => {
    expect(config.schedules).toEqual([
      {
        name: 'ops',
        timeZone: 'Asia/Kolkata',
        layers: [
          {
            name: 'primary',
            users: ['asha', 'ravi', 'meera'],
            rotation: { kind: 'weekly', day: 1 },
            handoff: clock(9),
            start: { year: 2026, month: 1, day: 5 },
            timeZone: 'Asia/Kolkata',
          },
          {
            name: 'secondary',
            users: ['ravi', 'meera', 'asha'],
            rotation: { kind: 'every', ms: 43_200_000 },
            handoff: clock(21),
            start: { year: 2026, month: 1, day: 5 },
            timeZone: 'Europe/Berlin',
          },
        ],
        overrides: [
          { user: 'meera', from: at('2026-03-02T09:00+05:30'), to: at('2026-03-09T09:00+05:30'), layer: 'primary' },
          { user: 'asha', from: at('2026-03-14T00:00+01:00'), to: at('2026-03-15T00:00+01:00'), layer: 'secondary' },
        ],
      },
      {
        name: 'nights',
        timeZone: 'UTC',
        layers: [
          {
            name: 'watch',
            users: ['ravi', 'asha'],
            rotation: { kind: 'daily' },
            handoff: clock(20),
            start: { year: 2026, month: 1, day: 1 },
            timeZone: 'UTC',
          },
        ],
        overrides: [],
      },
    ])
  })

  it('channels: a schedule instead of recipients, office hours on the chat', () => {
    expect(config.channels.map((c) => [c.name, c.oncall, c.activeHours])).toEqual([
      ['oncall-sms', { schedule: 'ops', layer: undefined }, undefined],
      ['backup-sms', { schedule: 'ops', layer: 'secondary' }, undefined],
      ['night-call', { schedule: 'nights', layer: undefined }, undefined],
      ['ops-mail', undefined, undefined],
      ['team-chat', undefined, [{ timeZone: 'Asia/Kolkata', days: [1, 2, 3, 4, 5], from: clock(9), to: clock(18) }]],
    ])
    expect(config.channels[0]).toMatchObject({ type: 'sms', numbers: [], people: [] })
  })

  it('rules: steps with active hours and a schedule, an absence rule, an inhibition', () => {
    const [dbDown, apiErrors, heartbeat] = config.rules
    expect(apiErrors?.escalate).toEqual([
      {
        afterMs: 600_000,
        notify: ['oncall-sms'],
        activeHours: [
          { timeZone: 'Asia/Kolkata', days: [1, 2, 3, 4, 5], from: clock(18), to: clock(9) },
          { timeZone: 'Asia/Kolkata', days: [0, 6], from: clock(0), to: clock(0) },
        ],
      },
      { afterMs: 1_800_000, notify: ['backup-sms'], oncall: { schedule: 'ops', layer: 'secondary' } },
      { afterMs: 3_600_000, notify: ['night-call'], oncall: { schedule: 'nights', layer: undefined } },
    ])
    expect(apiErrors?.escalate[1]).not.toHaveProperty('activeHours')
    expect([dbDown?.absent, apiErrors?.absent, heartbeat?.absent]).toEqual([undefined, undefined, { forMs: 300_000 }])
    expect(config.inhibit).toEqual([
      {
        source: [{ kind: 'equals', path: 'rule', value: 'db-down' }],
        target: [{ kind: 'equals', path: 'rule', value: 'api-errors' }],
        equal: ['hostname'],
      },
    ])
  })

  it('engineOptionsOf hands schedules and inhibition rules to the engine as they are', () => {
    const engine = engineOptionsOf({ ...config, secrets: [] }, 0)
    expect(engine.schedules).toEqual(config.schedules)
    expect(engine.inhibit).toEqual(config.inhibit)
  })
})

describe('test/fixtures/config/good/schedules.yaml', () => {
  const config = load(join(fixtures, 'good/schedules.yaml'))
  const [us] = config.schedules

  it('reads wall times across a daylight-saving change as the zone lived them', () => {
    expect(us?.overrides).toEqual([
      // 01:00 EST and 03:00 EDT: one hour apart, the clocks having gone forward at 02:00.
      { user: 'ravi', from: at('2026-03-08T06:00Z'), to: at('2026-03-08T07:00Z'), layer: 'day' },
      // 02:30 did not happen that night: it is read as 03:30 EDT.
      { user: 'asha', from: at('2026-03-08T07:30Z'), to: at('2026-03-08T08:00Z'), layer: 'week' },
      { user: 'asha', from: at('2026-03-08T07:00Z'), to: at('2026-03-09T04:00Z'), layer: 'day' },
      { user: 'ravi', from: at('2026-03-10T12:00Z'), to: at('2026-03-10T12:30Z'), layer: 'shifts' },
    ])
  })

  it('layers: defaults, a zone alias, rotations of each kind, a user listed twice', () => {
    expect(us?.layers).toEqual([
      {
        name: 'day',
        users: ['asha', 'ravi', 'asha'],
        rotation: { kind: 'daily' },
        handoff: clock(8, 30),
        start: { year: 2026, month: 3, day: 1 },
        timeZone: 'America/New_York',
      },
      {
        name: 'week',
        users: ['ravi'],
        rotation: { kind: 'weekly', day: 5 },
        handoff: clock(9),
        start: { year: 2026, month: 3, day: 6 },
        timeZone: 'Asia/Calcutta',
      },
      {
        name: 'shifts',
        users: ['ravi', 'asha'],
        rotation: { kind: 'every', ms: 5_400_000 },
        handoff: clock(0),
        start: { year: 2026, month: 3, day: 7 },
        timeZone: 'America/New_York',
      },
    ])
  })

  it('active hours: one range or a list, days once each in week order, UTC and the whole day by default', () => {
    const [, chat, mail] = config.channels
    expect(chat?.activeHours).toEqual([{ timeZone: 'UTC', days: [0, 6], from: clock(22), to: clock(6) }])
    expect(mail?.activeHours).toEqual([
      { timeZone: 'America/New_York', days: [5], from: clock(0), to: clock(0) },
      { timeZone: 'UTC', days: [], from: clock(0), to: clock(0) },
    ])
    expect(config.rules[0]?.escalate[0]).toEqual({
      afterMs: 300_000,
      notify: ['sms', 'chat'],
      oncall: { schedule: 'us', layer: 'shifts' },
      activeHours: [{ timeZone: 'Europe/Berlin', days: [], from: clock(9), to: clock(17) }],
    })
    expect(config.rules[1]?.absent).toEqual({ forMs: 90_000 })
    expect(config.inhibit).toEqual([
      {
        source: [
          { kind: 'equals', path: 'rule', value: 'errors' },
          { kind: 'regex', path: 'err.type', regex: /^DB/ },
        ],
        target: [{ kind: 'regex', path: 'title', regex: /timeout/i }],
        equal: [],
      },
    ])
  })
})

describe('without schedules', () => {
  it('the defaults: no schedules, no inhibition, channels and rules without them', () => {
    const config = load(join(repoRoot, 'config/examples/production.yaml'))
    expect(config.schedules).toEqual([])
    expect(config.inhibit).toEqual([])
    expect(config.channels.map((c) => [c.oncall, c.activeHours])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ])
    expect(config.rules.map((r) => r.absent)).toEqual([undefined, undefined, undefined])
    for (const step of config.rules.flatMap((r) => r.escalate))
      expect(Object.keys(step).sort()).toEqual(['afterMs', 'notify'])
  })
})

describe('transport targets: no schedules, no active hours, no absence', () => {
  const problems = (written: Record<string, unknown>): string[] => {
    const result = readAlertOptions(written, ['sms'])
    return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`)
  }

  it("a rule's absent and a step's oncall and active_hours are unknown keys", () => {
    expect(
      problems({
        rules: [
          {
            absent: { for: '5m' },
            escalate: [{ after: '5m', notify: 'sms', oncall: 'ops', active_hours: { days: 'sat' } }],
          },
        ],
      }),
    ).toEqual([
      'rules[0].absent: unknown key "absent"',
      'rules[0].escalate[0].oncall: unknown key "oncall"',
      'rules[0].escalate[0].active_hours: unknown key "active_hours"',
    ])
  })

  it("a target's rules and channel come out without them", () => {
    const result = readAlertOptions({ rules: [{ escalate: [{ after: '5m', notify: 'sms' }] }] }, ['sms'])
    expect(result.ok && result.value.rules[0]?.absent).toBeUndefined()
    expect(result.ok && result.value.rules[0]?.escalate).toEqual([{ afterMs: 300_000, notify: ['sms'] }])
    const channel = readChannelOptions(
      'sms',
      { numbers: ['+919800000001'], oncall: 'ops', active_hours: {} },
      undefined,
    )
    // Keys outside channelOptionKeys are the target's own options to refuse; they never reach the channel.
    expect(channel.ok && [channel.value.oncall, channel.value.activeHours]).toEqual([undefined, undefined])
  })
})
