// Absence rules through the engine, on configs as users write them: a host that stops logging
// pages alone, its first line back resolves it, and a restart never counts as silence.
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type AlertEngine, type Delivery } from '../../alerts/engine'
import type { AbsenceEntry } from '../../alerts/absence'
import { createClock, createConfiguredEngine, configOf } from './helpers'

const MIN = 60_000
const heartbeat = (hostname: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: 30, time: 0, hostname, msg: 'heartbeat', ...extra })
const error = (hostname: string) => JSON.stringify({ level: 50, time: 0, hostname, msg: 'disk full' })

const people = { asha: { phone: '+919800000001' }, ravi: { phone: '+919800000003' } }
const channels = {
  sms: { type: 'sms', people: ['asha'] },
  voice: { type: 'voice', people: ['ravi'], audio: ['alert.mp3'] },
}
const heartbeatRule = {
  name: 'heartbeat',
  level: 'info',
  match: { msg: '/heartbeat/' },
  group_by: ['hostname'],
  absent: { for: '5m' },
  notify: 'sms',
}

function engineWith(rules: Record<string, unknown>[], extra: Record<string, unknown> = {}): AlertEngine {
  return createConfiguredEngine({ config: { people, channels, rules, ...extra } })
}

/** kind and channel of each delivery, the recording channel (`crm`) included. */
const sent = (deliveries: Delivery[]): string[] => deliveries.map((d) => `${d.notice.kind}:${d.notice.channel}`)
const titles = (deliveries: Delivery[]): string[] => [...new Set(deliveries.map((d) => d.notice.incident.title))]
const hosts = Array.from({ length: 50 }, (_, i) => `web${i + 1}`)

/** What the agent writes and reads back: JSON. */
const throughJson = (state: AbsenceEntry[]): AbsenceEntry[] => JSON.parse(JSON.stringify(state)) as AbsenceEntry[]

describe('absence rules', () => {
  it('one silent host of fifty fires alone, once, with a title that names it', () => {
    const clock = createClock()
    const engine = engineWith([heartbeatRule])
    for (const host of hosts) expect(engine.ingest(heartbeat(host), clock.now())).toEqual([])
    clock.advance(4 * MIN)
    for (const host of hosts) if (host !== 'web7') engine.ingest(heartbeat(host), clock.now())
    expect(engine.tick(clock.advance(MIN - 1))).toEqual([])
    const fired = engine.tick(clock.advance(1))
    expect(sent(fired)).toEqual(['firing:sms', 'firing:crm'])
    expect(titles(fired)).toEqual(['no heartbeat lines for 5m (hostname=web7)'])
    // A page like any: it says how to acknowledge it.
    expect(fired[0]?.message).toEqual({
      type: 'sms',
      text: expect.stringMatching(/^FIRING no heartbeat lines for 5m \(hostname=web7\) \(1x, heartbeat\) Ack: /),
    })
    // Still silent, the others alive: no second incident and no repeat.
    for (const host of hosts) if (host !== 'web7') engine.ingest(heartbeat(host), clock.advance(1))
    expect(engine.tick(clock.advance(4 * MIN))).toEqual([])
    expect(engine.stats()).toMatchObject({ absenceKeys: 50, absenceIncidents: 1, openIncidents: 1, absenceEvicted: 0 })
  })

  it('does not fire before `for`, however the ticks fall; fires at the first tick after', () => {
    const clock = createClock()
    const engine = engineWith([heartbeatRule])
    engine.ingest(heartbeat('web1'), clock.now())
    for (let i = 0; i < 299; i++) expect(engine.tick(clock.advance(1000))).toEqual([])
    expect(engine.tick(clock.advance(999))).toEqual([])
    // The tick period is the precision: the tick after the deadline fires.
    expect(sent(engine.tick(clock.advance(1000)))).toEqual(['firing:sms', 'firing:crm'])
  })

  it("the key's first line back resolves it to the channels reached, whatever send_resolved says", () => {
    const clock = createClock()
    const engine = engineWith([{ ...heartbeatRule, escalate: [{ after: '10m', notify: 'voice' }] }])
    engine.ingest(heartbeat('web1'), clock.now())
    engine.ingest(heartbeat('web2'), clock.now())
    engine.tick(clock.advance(5 * MIN))
    expect(sent(engine.tick(clock.advance(10 * MIN)))).toEqual([
      'escalated:voice',
      'escalated:crm',
      'escalated:voice',
      'escalated:crm',
    ])
    const back = engine.ingest(heartbeat('web1'), clock.advance(MIN))
    expect(sent(back)).toEqual(['resolved:sms', 'resolved:voice', 'resolved:crm'])
    expect(titles(back)).toEqual(['no heartbeat lines for 5m (hostname=web1)'])
    expect(back[0]?.notice.actor).toBeUndefined()
    expect(engine.incidents().map((i) => i.title)).toEqual(['no heartbeat lines for 5m (hostname=web2)'])
    expect(engine.ingest(heartbeat('web1'), clock.advance(MIN))).toEqual([])
    // Watched still: silent again, it fires again.
    expect(titles(engine.tick(clock.advance(5 * MIN)))).toEqual(['no heartbeat lines for 5m (hostname=web1)'])
  })

  it('an absence incident waits out group_wait; back before that, it paged nobody and says nothing', () => {
    const clock = createClock()
    const engine = engineWith([{ ...heartbeatRule, group_wait: '2m' }])
    engine.ingest(heartbeat('web1'), clock.now())
    expect(engine.tick(clock.advance(5 * MIN))).toEqual([])
    expect(engine.incidents()).toMatchObject([
      { status: 'pending', title: 'no heartbeat lines for 5m (hostname=web1)' },
    ])
    expect(engine.ingest(heartbeat('web1'), clock.advance(MIN))).toEqual([])
    expect(engine.incidents()).toEqual([])
    expect(engine.tick(clock.advance(2 * MIN))).toEqual([])
  })

  it('is acknowledged like any incident: no escalation while acked; its return still resolves it', () => {
    const clock = createClock()
    const engine = engineWith([{ ...heartbeatRule, escalate: [{ after: '10m', notify: 'voice' }] }])
    engine.ingest(heartbeat('web1'), clock.now())
    const key = engine.tick(clock.advance(5 * MIN))[0]?.notice.incident.key as string
    const ack = engine.acknowledge(key, { by: 'asha', via: 'console' }, clock.advance(MIN))
    expect(ack.ok && sent(ack.deliveries)).toEqual(['acknowledged:crm'])
    expect(engine.tick(clock.advance(30 * MIN))).toEqual([])
    expect(engine.stats()).toMatchObject({ acknowledgedIncidents: 1, absenceIncidents: 1 })
    expect(sent(engine.ingest(heartbeat('web1'), clock.advance(MIN)))).toEqual(['resolved:sms', 'resolved:crm'])
    expect(engine.stats()).toMatchObject({ openIncidents: 0, absenceIncidents: 0, absenceKeys: 1 })
  })

  it('resolved by hand, the key is no longer watched until it logs again', () => {
    const clock = createClock()
    const engine = engineWith([heartbeatRule])
    engine.ingest(heartbeat('retired'), clock.now())
    const key = engine.tick(clock.advance(5 * MIN))[0]?.notice.incident.key as string
    const done = engine.resolve(key, { by: 'asha', via: 'cli' }, clock.advance(MIN))
    expect(done.ok && sent(done.deliveries)).toEqual(['resolved:crm'])
    expect(engine.tick(clock.advance(60 * MIN))).toEqual([])
    expect(engine.stats()).toMatchObject({ absenceKeys: 0 })
    engine.ingest(heartbeat('retired'), clock.now())
    expect(titles(engine.tick(clock.advance(5 * MIN)))).toEqual(['no heartbeat lines for 5m (hostname=retired)'])
  })

  it('templates and silences see the key as line fields', () => {
    const clock = createClock()
    const engine = engineWith([{ ...heartbeatRule, group_by: ['hostname', 'svc.name'] }], {
      channels: {
        sms: { ...channels.sms, template: '{{hostname}}/{{svc.name}} silent since {{last_line_at}} {{ack}}' },
      },
      silences: [{ matchers: { hostname: 'web2' }, ends_at: '2100-01-01T00:00:00Z', comment: 'maintenance' }],
    })
    const start = clock.now()
    engine.ingest(heartbeat('web1', { svc: { name: 'api' } }), start)
    engine.ingest(heartbeat('web2', { svc: { name: 'api' } }), start)
    const fired = engine.tick(clock.advance(5 * MIN))
    expect(sent(fired)).toEqual(['firing:sms', 'firing:crm'])
    expect(fired[0]?.message).toEqual({
      type: 'sms',
      text: expect.stringMatching(`^web1/api silent since ${new Date(start).toISOString()} Ack: `),
    })
    expect(titles(fired)).toEqual(['no heartbeat lines for 5m (hostname=web1, svc.name=api)'])
  })
})

describe('absence rules and ordinary rules', () => {
  it('a line an absence rule watches still reaches the ordinary rules after it', () => {
    const clock = createClock()
    const watchAll = { name: 'alive', level: 'info', group_by: ['hostname'], absent: { for: '5m' }, notify: 'sms' }
    const errors = { name: 'errors', notify: 'sms', group_by: ['hostname'] }
    const engine = engineWith([watchAll, errors])
    const plain = engineWith([errors])
    const withAbsence = engine.ingest(error('web1'), clock.now())
    const without = plain.ingest(error('web1'), clock.now())
    expect(sent(withAbsence)).toEqual(['firing:sms', 'firing:crm'])
    expect(withAbsence.map((d) => d.message)).toEqual(without.map((d) => d.message))
    expect(engine.incidents().map((i) => i.rule)).toEqual(['errors'])
    // The error line counted as a sign of life too.
    expect(engine.stats()).toMatchObject({ absenceKeys: 1, selected: 1 })
    // A line annotated with the absence rule's name (logx-tail-filter) is not owned by it either.
    const annotated = JSON.stringify({ level: 50, time: 0, hostname: 'web2', msg: 'disk full', logx_rule: 'alive' })
    expect(engine.ingest(annotated, clock.now()).map((d) => d.notice.incident.rule)).toEqual(['errors', 'errors'])
  })

  it('the two-step path: observeAbsence() then select(), as the daemon calls them', () => {
    const clock = createClock()
    const engine = engineWith([heartbeatRule, { name: 'errors', notify: 'sms' }])
    const config = configOf({ people, channels, rules: [heartbeatRule] })
    const line = {
      raw: heartbeat('web1'),
      record: { level: 30, hostname: 'web1', msg: 'heartbeat' },
      level: 30,
      msg: 'heartbeat',
      source: 'app',
      json: true,
    }
    expect(engine.observeAbsence(line, clock.now())).toEqual([])
    expect(engine.select(line)).toBeUndefined()
    engine.tick(clock.advance(5 * MIN))
    expect(sent(engine.observeAbsence(line, clock.advance(MIN)))).toEqual(['resolved:sms', 'resolved:crm'])
    // Without absence rules it does nothing.
    const none = createAlertEngine({ rules: [], channels: config.channels })
    expect(none.observeAbsence(line, clock.now())).toEqual([])
    expect(none.stats()).toMatchObject({ absenceKeys: 0, absenceIncidents: 0 })
  })
})

describe('absence across restarts', () => {
  it('the time the agent was down never counts; the silence before it does not either', () => {
    const clock = createClock()
    const before = engineWith([heartbeatRule])
    before.ingest(heartbeat('web1'), clock.now())
    before.ingest(heartbeat('web2'), clock.advance(3 * MIN))
    const state = throughJson(before.absenceState())
    expect(state).toEqual([
      { rule: 'heartbeat', key: expect.any(String), lastSeen: clock.now() - 3 * MIN, labels: { hostname: 'web1' } },
      { rule: 'heartbeat', key: expect.any(String), lastSeen: clock.now(), labels: { hostname: 'web2' } },
    ])
    // Down for an hour.
    const after = engineWith([heartbeatRule])
    expect(after.restoreAbsence(state, clock.advance(60 * MIN))).toBe(2)
    expect(after.tick(clock.now())).toEqual([])
    expect(after.ingest(heartbeat('web2'), clock.advance(4 * MIN))).toEqual([])
    expect(titles(after.tick(clock.advance(MIN)))).toEqual(['no heartbeat lines for 5m (hostname=web1)'])
    expect(after.tick(clock.advance(4 * MIN - 1))).toEqual([])
    expect(titles(after.tick(clock.advance(1)))).toEqual(['no heartbeat lines for 5m (hostname=web2)'])
  })

  it('an open absence incident restored with its key is not paged again; its return resolves it', () => {
    const clock = createClock()
    const before = engineWith([heartbeatRule])
    before.ingest(heartbeat('web1'), clock.now())
    const key = before.tick(clock.advance(5 * MIN))[0]?.notice.incident.key as string
    const after = engineWith([heartbeatRule])
    // Either order: the agent restores incidents, then the watch.
    expect(after.restore(before.incidents(), clock.advance(MIN))).toBe(1)
    expect(after.restoreAbsence(throughJson(before.absenceState()), clock.now())).toBe(1)
    expect(after.tick(clock.advance(10 * MIN))).toEqual([])
    expect(after.incident(key)?.status).toBe('firing')
    expect(sent(after.ingest(heartbeat('web1'), clock.advance(MIN)))).toEqual(['resolved:sms', 'resolved:crm'])
    // Its watch was lost (an older state file): the line back still resolves the restored incident.
    const lost = engineWith([heartbeatRule])
    lost.restore(before.incidents(), clock.now())
    expect(lost.stats()).toMatchObject({ absenceIncidents: 1, absenceKeys: 0 })
    expect(sent(lost.ingest(heartbeat('web1'), clock.advance(MIN)))).toEqual(['resolved:sms', 'resolved:crm'])
  })

  it('drops keys of rules removed, no longer absence rules, or grouping by other fields; keeps live keys', () => {
    const clock = createClock()
    const cron = {
      name: 'cron',
      level: 'info',
      match: { msg: '/backup done/' },
      group_by: ['job'],
      absent: { for: '1h' },
      notify: 'sms',
    }
    const before = engineWith([heartbeatRule, cron])
    before.ingest(heartbeat('web1'), clock.now())
    before.ingest(JSON.stringify({ level: 30, job: 'nightly', msg: 'backup done' }), clock.now())
    const state = throughJson(before.absenceState())
    expect(state.map((s) => s.rule)).toEqual(['heartbeat', 'cron'])
    expect(engineWith([heartbeatRule]).restoreAbsence(state, clock.now())).toBe(1)
    expect(engineWith([heartbeatRule, { ...cron, absent: undefined }]).restoreAbsence(state, clock.now())).toBe(1)
    expect(engineWith([{ ...heartbeatRule, group_by: ['host'] }, cron]).restoreAbsence(state, clock.now())).toBe(1)
    const reloaded = engineWith([heartbeatRule])
    reloaded.ingest(heartbeat('web1'), clock.advance(MIN))
    expect(reloaded.restoreAbsence(state, 0)).toBe(0)
    expect(reloaded.absenceState()).toEqual([
      { rule: 'heartbeat', key: state[0]?.key, lastSeen: clock.now(), labels: { hostname: 'web1' } },
    ])
  })

  it('after a reload (resumedAt 0) every silence keeps its clock', () => {
    const clock = createClock()
    const before = engineWith([heartbeatRule])
    before.ingest(heartbeat('web1'), clock.now())
    const reloaded = engineWith([heartbeatRule])
    expect(reloaded.restoreAbsence(before.absenceState(), 0)).toBe(1)
    expect(titles(reloaded.tick(clock.advance(5 * MIN)))).toEqual(['no heartbeat lines for 5m (hostname=web1)'])
  })
})

describe('the bound on watched keys', () => {
  it('past maxAbsenceKeys the least recently seen key (to within a second) is dropped and counted', () => {
    const clock = createClock()
    const config = configOf({ people, channels, rules: [heartbeatRule] })
    const engine = createAlertEngine({ rules: config.rules, channels: config.channels, maxAbsenceKeys: 3 })
    for (const host of ['a', 'b', 'c']) engine.ingest(heartbeat(host), clock.advance(1000))
    engine.ingest(heartbeat('a'), clock.advance(1000))
    engine.ingest(heartbeat('d'), clock.advance(1000))
    expect(engine.absenceState().map((s) => s.labels.hostname)).toEqual(['c', 'a', 'd'])
    expect(engine.stats()).toMatchObject({ absenceKeys: 3, absenceEvicted: 1 })
    // b is no longer watched: only the three fire.
    const fired = engine.tick(clock.advance(5 * MIN))
    expect(titles(fired).map((t) => t.replace('no heartbeat lines for 5m ', ''))).toEqual([
      '(hostname=c)',
      '(hostname=a)',
      '(hostname=d)',
    ])
    // Restored keys beyond the bound: the least recently seen go first.
    const restored = createAlertEngine({ rules: config.rules, channels: config.channels, maxAbsenceKeys: 2 })
    expect(restored.restoreAbsence(engine.absenceState(), clock.now())).toBe(3)
    expect(restored.absenceState().map((s) => s.labels.hostname)).toEqual(['a', 'd'])
    expect(restored.stats()).toMatchObject({ absenceKeys: 2, absenceEvicted: 1 })
  })
})
