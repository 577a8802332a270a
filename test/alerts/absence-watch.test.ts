// The absence watch on its own (alerts/absence.ts): the message and line an absence incident opens
// with, what a line costs, and what restore() accepts.
import { describe, expect, it } from 'vitest'
import { createAbsenceWatch, type AbsenceEntry } from '../../alerts/absence'
import { absenceLine, absenceMessage, formatDuration } from '../../alerts/absence-line'
import { createAlertEngine } from '../../alerts/engine'
import { parseLine, type AlertLine } from '../../alerts/line'
import { compileRules, type Rule } from '../../alerts/rule'
import { configOf } from './helpers'

const MIN = 60_000
const channels = { sms: { type: 'sms', numbers: ['+919800000001'] } }

function rulesOf(rules: Record<string, unknown>[]): Rule[] {
  return compileRules(configOf({ channels, rules }).rules)
}

const heartbeat = (fields: Record<string, unknown>): AlertLine =>
  parseLine(JSON.stringify({ level: 30, time: 0, msg: 'heartbeat', ...fields }))

describe('the words of an absence incident', () => {
  it('writes durations as the config does', () => {
    expect([300_000, 90_000, 3_600_000, 5_400_000, 86_400_000, 1500, 0].map(formatDuration)).toEqual([
      '5m',
      '1m30s',
      '1h',
      '1h30m',
      '1d',
      '1s500ms',
      '0ms',
    ])
  })

  it('names the rule, the duration and the key', () => {
    expect(absenceMessage('cron', 3_600_000, {})).toBe('no cron lines for 1h')
    expect(absenceMessage('heartbeat', 300_000, { hostname: 'web1', shard: 3, zone: null })).toBe(
      'no heartbeat lines for 5m (hostname=web1, shard=3, zone=null)',
    )
  })

  it('makes a line with the labels at their paths, without touching the labels', () => {
    const [rule] = rulesOf([
      { name: 'heartbeat', level: 'info', group_by: ['svc.name', 'svc.zone', '__proto__'], absent: { for: '5m' } },
    ])
    // As a saved state brings them: `__proto__` an own key.
    const labels = JSON.parse('{"svc.name":"api","svc.zone":"a","__proto__":"x"}') as Record<string, unknown>
    const line = absenceLine(rule as Rule, 300_000, { lastSeen: Date.UTC(2026, 0, 5, 9), labels })
    expect(line.msg).toBe('no heartbeat lines for 5m (svc.name=api, svc.zone=a, __proto__=x)')
    expect(line.record).toMatchObject({
      svc: { name: 'api', zone: 'a' },
      last_line_at: '2026-01-05T09:00:00.000Z',
      msg: line.msg,
    })
    expect(Object.getPrototypeOf(line.record)).toBe(Object.prototype)
    expect(Object.hasOwn(line.record, '__proto__')).toBe(true)
    expect(JSON.parse(line.raw)).toEqual(line.record)
    expect(Object.keys(labels)).toEqual(['svc.name', 'svc.zone', '__proto__'])
  })
})

describe('the watch', () => {
  function watchOf(rules: Rule[], maxKeys?: number) {
    const calls = { clean: 0, isOpen: 0 }
    const open = new Set<string>()
    const watch = createAbsenceWatch(rules, {
      maxKeys,
      isOpen: (key) => {
        calls.isOpen++
        return open.has(key)
      },
      clean: (line) => {
        calls.clean++
        return line
      },
    })
    return { watch, calls, open }
  }

  it('is inactive without absence rules', () => {
    const { watch } = watchOf(rulesOf([{ name: 'errors' }]))
    expect(watch.active).toBe(false)
    expect(watch.seen(heartbeat({ level: 50 }), 0)).toBeUndefined()
    expect(watch.due(10 * MIN)).toEqual([])
  })

  it('a known key costs a map update: no censoring and no incident lookup per line', () => {
    const { watch, calls } = watchOf(
      rulesOf([{ name: 'heartbeat', level: 'info', group_by: ['hostname'], absent: { for: '5m' } }]),
    )
    for (let i = 0; i < 1000; i++) watch.seen(heartbeat({ hostname: `web${i % 10}` }), i)
    expect(calls).toEqual({ clean: 10, isOpen: 10 })
    expect(watch.stats()).toEqual({ keys: 10, open: 0, evicted: 0 })
  })

  it("fires exactly `for` after each key's last line, however close together the lines came", () => {
    const { watch } = watchOf(
      rulesOf([{ name: 'heartbeat', level: 'info', group_by: ['hostname'], absent: { for: '5m' } }]),
    )
    watch.seen(heartbeat({ hostname: 'a' }), 0)
    watch.seen(heartbeat({ hostname: 'b' }), 100)
    watch.seen(heartbeat({ hostname: 'a' }), 500)
    expect(watch.due(5 * MIN + 99)).toEqual([])
    expect(watch.due(5 * MIN + 100).map((d) => d.line.msg)).toEqual(['no heartbeat lines for 5m (hostname=b)'])
    expect(watch.due(5 * MIN + 499)).toEqual([])
    expect(watch.due(5 * MIN + 500).map((d) => d.line.msg)).toEqual(['no heartbeat lines for 5m (hostname=a)'])
  })

  it('one key for a rule without group_by; a line of another level or message is not counted', () => {
    const { watch } = watchOf(
      rulesOf([{ name: 'cron', level: 'info', message: '/backup done/', absent: { for: '1h' } }]),
    )
    watch.seen(heartbeat({ msg: 'backup done', job: 'a' }), 0)
    watch.seen(heartbeat({ msg: 'backup done', job: 'b' }), MIN)
    watch.seen(heartbeat({ msg: 'backup started' }), 30 * MIN)
    watch.seen(heartbeat({ msg: 'backup done', level: 10 }), 30 * MIN)
    expect(watch.state()).toEqual([{ rule: 'cron', key: expect.stringMatching(/^cron:/), lastSeen: MIN, labels: {} }])
    expect(watch.due(61 * MIN - 1)).toEqual([])
    expect(watch.due(61 * MIN)).toMatchObject([{ line: { msg: 'no cron lines for 1h' } }])
  })

  it('keys values of any type apart: the string "1" is not the number 1', () => {
    const { watch } = watchOf(
      rulesOf([{ name: 'heartbeat', level: 'info', group_by: ['shard'], absent: { for: '5m' } }]),
    )
    for (const shard of ['1', 1, null, undefined, { a: 1 }, '\u0000null']) watch.seen(heartbeat({ shard }), 0)
    expect(watch.state().map((s) => s.labels.shard)).toEqual(['1', 1, null, { a: 1 }, '\u0000null'])
  })

  it('a due key is not opened again while its incident is open', () => {
    const { watch, open } = watchOf(
      rulesOf([{ name: 'heartbeat', level: 'info', group_by: ['hostname'], absent: { for: '5m' } }]),
    )
    watch.seen(heartbeat({ hostname: 'web1' }), 0)
    const [due] = watch.due(5 * MIN)
    open.add(due?.key as string)
    expect(watch.due(10 * MIN)).toEqual([])
    expect(watch.seen(heartbeat({ hostname: 'web1' }), 11 * MIN)).toEqual([due?.key])
    expect(watch.forget(due?.key as string)).toBe(true)
    expect(watch.forget(due?.key as string)).toBe(false)
  })

  it('restore skips what it cannot use', () => {
    const { watch } = watchOf(
      rulesOf([{ name: 'heartbeat', level: 'info', group_by: ['hostname'], absent: { for: '5m' } }]),
    )
    const good: AbsenceEntry = { rule: 'heartbeat', key: 'heartbeat:1', lastSeen: 0, labels: { hostname: 'web1' } }
    const bad = [
      { ...good, key: 'heartbeat:2', lastSeen: Number.NaN },
      { ...good, key: 'heartbeat:3', labels: null },
      { ...good, key: 'heartbeat:4', labels: { hostname: 'web4', extra: 1 } },
      { ...good, key: 42 },
      { ...good, rule: 'gone' },
    ] as unknown as AbsenceEntry[]
    expect(watch.restore([good, good, ...bad], 5)).toBe(1)
    expect(watch.state()).toEqual([{ ...good, lastSeen: 5 }])
  })
})

describe('secrets in a key', () => {
  it('never reach a page or the saved state', () => {
    const config = configOf({
      channels,
      rules: [{ name: 'heartbeat', level: 'info', group_by: ['hostname', 'token'], absent: { for: '5m' } }],
    })
    const engine = createAlertEngine({
      rules: config.rules,
      channels: config.channels,
      secrets: ['s3cr3t-token'],
      redact: [['token']],
    })
    engine.ingest(JSON.stringify({ level: 30, hostname: 'web-s3cr3t-token', token: 'abc', msg: 'heartbeat' }), 0)
    const fired = engine.tick(5 * MIN)
    expect(fired[0]?.notice.incident.title).toBe(
      'no heartbeat lines for 5m (hostname=web-[redacted], token=[redacted])',
    )
    expect(JSON.stringify(fired.map((d) => d.message))).not.toContain('s3cr3t')
    expect(JSON.stringify(engine.absenceState())).not.toMatch(/s3cr3t|abc/)
  })
})
