// What people do to incidents (agent/acknowledge/incident-actions.ts), on a real pipeline built from a
// YAML config, with the incident state and the run-time silences in real files and a fake
// dispatcher that keeps what would be sent. "A restart" builds all of it again on the same files.
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { Delivery } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { toAlertLine } from '../../../agent/events/alert-line'
import { createAlertPipeline } from '../../../agent/delivery/alert-pipeline'
import type { AlertPipeline } from '../../../agent/delivery/types'
import { setupOfConfig } from '../../../agent/delivery/alert-setup'
import { createRecordingDispatcher } from '../delivery/recording-dispatcher'
import { createIncidentActions, type IncidentActions } from '../../../agent/acknowledge/incident-actions'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import type { MissedCall } from '../../../agent/acknowledge/missed-calls'
import { createPhoneBook } from '../../../agent/acknowledge/phone-book'
import { createRuntimeSilences } from '../../../agent/incidents/runtime-silences'
import { tempDir } from '../../helpers/temp-dir'

const ASHA = '+919800000001'
const RAVI = '+919800000003'

function configIn(dir: string): AgentConfig {
  const result = parseAgentConfig(
    `state_dir: ${dir}
sources: [{ name: app, paths: [${dir}/*.log] }]
people:
  asha: { phone: "${ASHA}" }
  ravi: { phone: "${RAVI}" }
channels:
  oncall-sms: { type: sms, people: [asha] }
  backup-sms: { type: sms, people: [ravi] }
rules:
  - { name: errors, level: error, notify: [oncall-sms], repeat_interval: 1h }
  - { name: slow, level: warn, group_wait: 10s, notify: [backup-sms] }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

interface Running {
  pipeline: AlertPipeline
  actions: IncidentActions
  sent: Delivery[]
}

/** The pipeline, state, silences and actions wired as alert-path.ts wires them; callers from `people:`. */
function start(dir: string, now: number, ackAll = false): Running {
  const config = configIn(dir)
  const sent: Delivery[] = []
  const dispatcher = createRecordingDispatcher(sent)
  const log = { info() {}, warn() {}, error() {} }
  const state = createIncidentState(join(dir, 'incidents.json'))
  const silences = createRuntimeSilences(join(dir, 'silences.json'))
  const pipeline = createAlertPipeline({
    setup: setupOfConfig(config, []),
    state,
    dispatcher,
    log,
    now,
    runtimeSilences: (at) => silences.configs(at),
  })
  const actions = createIncidentActions({ pipeline, state, silences, log })
  const book = createPhoneBook(config.people)
  actions.setCallers((caller) => book.personOf(caller), ackAll)
  return { pipeline, actions, sent }
}

const error = (msg: string) => toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line
const warning = (msg: string) => toAlertLine(JSON.stringify({ level: 40, msg }), 'json', 'app').line
const keyOf = (run: Running, title: string): string => {
  const found = run.pipeline.incidents().find((i) => i.title === title)
  if (found === undefined) throw new Error(`no incident ${title}`)
  return found.key
}
const status = (run: Running, title: string) => run.pipeline.incidents().find((i) => i.title === title)?.status
const pages = (run: Running) =>
  run.sent.map((d) => `${d.notice.kind} ${d.notice.incident.title} -> ${d.notice.channel}`)
const call = (id: string, caller: string, at: number): MissedCall => ({ id, caller, at, called: '15550199999' })

describe('finding an incident', () => {
  it('by its key, or by a unique prefix of 4 characters or more', () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.pipeline.ingest(error('cache down'), 1000)
    run.pipeline.ingest(warning('slow query'), 1000)
    const db = keyOf(run, 'db down')
    const slow = keyOf(run, 'slow query')

    expect(run.actions.find(db)).toMatchObject({ key: db, title: 'db down' })
    expect(run.actions.find(db.slice(0, 10))).toMatchObject({ title: 'db down' })
    expect(run.actions.find('slow')).toMatchObject({ key: slow })
    // Both errors incidents start with it.
    expect(run.actions.find('errors:')).toBe('ambiguous')
    expect(run.actions.find('erro')).toBe('ambiguous')
    // The short id the console and `logx-agent incidents` show: the start of the key's hash.
    const hash = db.slice(db.lastIndexOf(':') + 1)
    expect(run.actions.find(hash.slice(0, 8))).toMatchObject({ key: db })
    expect(run.actions.find(hash.slice(0, 3))).toBeUndefined()
    // Unique, but too short to be taken for an id.
    expect(run.actions.find('slo')).toBeUndefined()
    expect(run.actions.find('nope:1234')).toBeUndefined()
  })
})

describe('acknowledge, unacknowledge, resolve by hand', () => {
  it('refuses what cannot be done, with 404 or 409 and a message saying why', () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.pipeline.ingest(warning('slow query'), 1000)
    const db = keyOf(run, 'db down')
    const slow = keyOf(run, 'slow query')

    expect(run.actions.act('errors:nothing', 'ack', { by: 'asha', via: 'console' }, 2000)).toEqual({
      ok: false,
      status: 404,
      error: 'no such open incident',
    })
    const pending = run.actions.act(slow, 'ack', { by: 'asha', via: 'console' }, 2000)
    expect(pending).toMatchObject({ ok: false, status: 409 })
    expect(pending.ok ? '' : pending.error).toContain('pending (group_wait')
    expect(run.actions.act(db, 'unack', { by: 'asha', via: 'console' }, 2000)).toEqual({
      ok: false,
      status: 409,
      error: 'the incident is not acknowledged',
    })

    const acked = run.actions.act(db, 'ack', { by: 'asha', via: 'console' }, 2000)
    expect(acked).toMatchObject({
      ok: true,
      resolved: false,
      incident: { key: db, status: 'acknowledged', ack: { by: 'asha', via: 'console', at: 2000 } },
    })
    // The first ack stands; the second says whose it is, how and when.
    const again = run.actions.act(db, 'ack', { by: 'ravi', via: 'cli' }, 3000)
    expect(again).toEqual({
      ok: false,
      status: 409,
      error: `already acknowledged by asha (console) at ${new Date(2000).toISOString()}`,
    })
    expect(run.pipeline.incident(db)?.ack?.by).toBe('asha')
  })

  it('unacknowledging re-pages; resolving forgets the incident; the counts say who did what how', () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 1000)
    const db = keyOf(run, 'db down')
    run.actions.act(db, 'ack', { by: 'asha', via: 'console' }, 2000)
    expect(pages(run)).toEqual(['firing db down -> oncall-sms'])

    const unacked = run.actions.act(db, 'unack', { by: 'ravi', via: 'cli' }, 3000)
    expect(unacked).toMatchObject({ ok: true, incident: { status: 'firing', ack: undefined } })
    expect(pages(run)).toEqual(['firing db down -> oncall-sms', 'unacknowledged db down -> oncall-sms'])

    const resolved = run.actions.act(db, 'resolve', { by: 'asha', via: 'console' }, 4000)
    expect(resolved).toMatchObject({ ok: true, resolved: true, incident: { key: db } })
    expect(run.pipeline.incident(db)).toBeUndefined()
    expect(run.actions.act(db, 'resolve', { by: 'asha', via: 'console' }, 5000)).toMatchObject({
      ok: false,
      status: 404,
    })
    expect(run.actions.stats().manual).toEqual({ 'ack:console': 1, 'unack:cli': 1, 'resolve:console': 1 })
  })

  it('an incident resolved while pending does not fire later: not after a reload, not after a restart', () => {
    const dir = tempDir('actions')
    const run = start(dir, 0)
    run.pipeline.ingest(warning('slow query'), 1000)
    expect(run.actions.act(keyOf(run, 'slow query'), 'resolve', { by: 'asha', via: 'console' }, 2000)).toMatchObject({
      ok: true,
      resolved: true,
    })
    run.pipeline.tick(5000)
    run.pipeline.replace(setupOfConfig(configIn(dir), []), 6000)
    run.pipeline.tick(20_000)
    expect(pages(run)).toEqual([])

    const after = start(dir, 21_000)
    after.pipeline.tick(40_000)
    expect(pages(after)).toEqual([])
  })

  it('an incident resolved while firing stays resolved after a restart', () => {
    const dir = tempDir('actions')
    const run = start(dir, 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.actions.act(keyOf(run, 'db down'), 'resolve', { by: 'asha', via: 'cli' }, 2000)
    const after = start(dir, 3000)
    expect(after.pipeline.incidents()).toEqual([])
    // The next line is a new incident: it pages.
    after.pipeline.ingest(error('db down'), 4000)
    expect(pages(after)).toEqual(['firing db down -> oncall-sms'])
  })

  it('an acknowledgement survives a restart', () => {
    const dir = tempDir('actions')
    const run = start(dir, 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.actions.act(keyOf(run, 'db down'), 'ack', { by: 'ravi', via: 'cli' }, 2000)

    const after = start(dir, 3000)
    expect(after.pipeline.incidents().map((i) => [i.title, i.status, i.ack?.by, i.ack?.via])).toEqual([
      ['db down', 'acknowledged', 'ravi', 'cli'],
    ])
    // Acknowledged: its lines page nobody, now or when a repeat would be due.
    after.pipeline.ingest(error('db down'), 4000)
    after.pipeline.tick(2 * 3600_000)
    expect(after.sent).toEqual([])
  })
})

describe('acknowledging by missed call', () => {
  it("a known caller acknowledges the incident paged to them most recently, however the number's written", () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.pipeline.ingest(error('cache down'), 2000)
    run.actions.missedCalls([call('c1', '919800000001', 3000)], 3500)

    expect(status(run, 'cache down')).toBe('acknowledged')
    expect(run.pipeline.incident(keyOf(run, 'cache down'))?.ack).toEqual({
      by: 'asha',
      via: 'missed_call',
      at: 3000,
      detail: 'missed call from 919800000001',
    })
    expect(status(run, 'db down')).toBe('firing')
    expect(run.actions.stats().missedCalls).toEqual({ acknowledged: 1, unknownCaller: 0, nothingOpen: 0, repeated: 0 })
    // Said as a missed call when someone tries again by hand.
    const again = run.actions.act(keyOf(run, 'cache down'), 'ack', { by: 'ravi', via: 'console' }, 4000)
    expect(again.ok ? '' : again.error).toBe(
      `already acknowledged by asha (missed call) at ${new Date(3000).toISOString()}`,
    )
  })

  it('a call from a number nobody has changes nothing and is counted', () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.actions.missedCalls([call('c1', '+919800000009', 2000)], 2000)
    expect(status(run, 'db down')).toBe('firing')
    expect(run.actions.stats().missedCalls).toEqual({ acknowledged: 0, unknownCaller: 1, nothingOpen: 0, repeated: 0 })
  })

  it('a person with nothing paged to them acknowledges nothing (ravi was not paged for errors)', () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.actions.missedCalls([call('c1', RAVI, 2000)], 2000)
    expect(status(run, 'db down')).toBe('firing')
    expect(run.actions.stats().missedCalls.nothingOpen).toBe(1)
  })

  it('a call made before the page acknowledges nothing, even when polled after it', () => {
    const run = start(tempDir('actions'), 0)
    run.pipeline.ingest(error('db down'), 5000)
    run.actions.missedCalls([call('c1', ASHA, 4000)], 6000)
    expect(status(run, 'db down')).toBe('firing')
    expect(run.actions.stats().missedCalls).toMatchObject({ acknowledged: 0, nothingOpen: 1 })
  })

  it('a call offered again is used once, also after a restart on the same state file', () => {
    const dir = tempDir('actions')
    const run = start(dir, 0)
    run.pipeline.ingest(error('db down'), 1000)
    run.pipeline.ingest(error('cache down'), 2000)
    run.actions.missedCalls([call('c1', ASHA, 3000)], 3000)
    run.actions.missedCalls([call('c1', ASHA, 3000)], 4000)
    expect(status(run, 'cache down')).toBe('acknowledged')
    expect(status(run, 'db down')).toBe('firing')
    expect(run.actions.stats().missedCalls).toEqual({ acknowledged: 1, unknownCaller: 0, nothingOpen: 0, repeated: 1 })

    const after = start(dir, 5000)
    after.actions.missedCalls([call('c1', ASHA, 3000)], 5000)
    expect(status(after, 'db down')).toBe('firing')
    expect(after.actions.stats().missedCalls).toEqual({
      acknowledged: 0,
      unknownCaller: 0,
      nothingOpen: 0,
      repeated: 1,
    })
    // The acknowledgement came back with the incident; a new call acknowledges the next one.
    expect(after.pipeline.incident(keyOf(after, 'cache down'))?.ack).toMatchObject({ by: 'asha', via: 'missed_call' })
    after.actions.missedCalls([call('c2', ASHA, 6000)], 6000)
    expect(status(after, 'db down')).toBe('acknowledged')
  })

  it('a call from an unknown number is used once too, across a restart', () => {
    const dir = tempDir('actions')
    start(dir, 0).actions.missedCalls([call('c9', '+919800000009', 1000)], 1000)
    const after = start(dir, 2000)
    after.actions.missedCalls([call('c9', '+919800000009', 1000)], 2000)
    expect(after.actions.stats().missedCalls).toMatchObject({ unknownCaller: 0, repeated: 1 })
  })

  it('with ack_all one call acknowledges every firing incident paged to the caller', () => {
    const run = start(tempDir('actions'), 0, true)
    run.pipeline.ingest(error('db down'), 1000)
    run.pipeline.ingest(error('cache down'), 2000)
    run.pipeline.ingest(warning('slow query'), 2000)
    run.actions.missedCalls([call('c1', ASHA, 3000)], 3000)
    expect(
      run.pipeline
        .incidents()
        .map((i) => [i.title, i.status])
        .sort(),
    ).toEqual([
      ['cache down', 'acknowledged'],
      ['db down', 'acknowledged'],
      ['slow query', 'pending'],
    ])
    expect(run.actions.stats().missedCalls.acknowledged).toBe(1)
  })
})

describe('silences made at run time', () => {
  const until = 3600_000

  it('refuses a request that cannot be a silence, naming the field', () => {
    const run = start(tempDir('actions'), 0)
    const add = (matchers: Record<string, string>, endsAt = until) => {
      const result = run.actions.addSilence({ matchers, endsAt, comment: undefined, by: 'asha' }, 1000)
      return result.ok ? 'ok' : result.error
    }
    expect(add({})).toMatch(/^matchers: /)
    expect(add({ 'a..b': 'x' })).toMatch(/^matchers\.a\.\.b: /)
    expect(add({ msg: '/(unclosed/' })).toMatch(/^matchers\.msg: /)
    expect(add({ msg: 'db down' }, 500)).toBe('endsAt: must be in the future')
    expect(add({ msg: 'db down' }, 1000)).toBe('endsAt: must be in the future')
    expect(run.actions.silences(1000)).toEqual([])
  })

  it('mutes matching incidents, outlives a restart, and stops muting once expired by hand', () => {
    const dir = tempDir('actions')
    const run = start(dir, 0)
    const added = run.actions.addSilence(
      { matchers: { msg: '/full$/' }, endsAt: until, comment: 'disk swap', by: 'asha' },
      1000,
    )
    if (!added.ok) throw new Error(added.error)
    expect(added.silence).toMatchObject({
      matchers: { msg: '/full$/' },
      startsAt: 1000,
      endsAt: until,
      comment: 'disk swap',
      createdBy: 'asha',
    })
    run.pipeline.ingest(error('disk full'), 2000)
    run.pipeline.ingest(error('db down'), 2000)
    expect(pages(run)).toEqual(['firing db down -> oncall-sms'])

    const after = start(dir, 3000)
    expect(after.actions.silences(3000).map((s) => s.id)).toEqual([added.silence.id])
    after.pipeline.ingest(error('tmp full'), 4000)
    expect(after.sent).toEqual([])

    expect(after.actions.expireSilence(added.silence.id, 5000)).toMatchObject({ id: added.silence.id })
    expect(after.actions.expireSilence(added.silence.id, 5000)).toBeUndefined()
    expect(after.actions.silences(5000)).toEqual([])
    after.pipeline.ingest(error('log full'), 6000)
    expect(pages(after)).toEqual(['firing log full -> oncall-sms'])
    // Expired for good: the next start has no silence either.
    expect(start(dir, 7000).actions.silences(7000)).toEqual([])
  })

  it('a muted page reached nobody: a missed call then acknowledges nothing', () => {
    const run = start(tempDir('actions'), 0)
    run.actions.addSilence({ matchers: { msg: 'disk full' }, endsAt: until, comment: undefined, by: undefined }, 1000)
    run.pipeline.ingest(error('disk full'), 2000)
    run.actions.missedCalls([call('c1', ASHA, 3000)], 3000)
    expect(status(run, 'disk full')).toBe('firing')
    expect(run.actions.stats().missedCalls).toMatchObject({ acknowledged: 0, nothingOpen: 1 })
  })

  it('a silence ends by itself at its endsAt', () => {
    const run = start(tempDir('actions'), 0)
    run.actions.addSilence({ matchers: { rule: 'errors' }, endsAt: 10_000, comment: undefined, by: undefined }, 1000)
    run.pipeline.ingest(error('db down'), 2000)
    expect(run.sent).toEqual([])
    expect(run.actions.silences(10_000)).toEqual([])
    run.pipeline.ingest(error('cache down'), 11_000)
    expect(pages(run)).toEqual(['firing cache down -> oncall-sms'])
  })
})
