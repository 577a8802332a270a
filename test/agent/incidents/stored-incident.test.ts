// An engine's open incident as the incident state keeps it, and back
// (agent/incidents/stored-incident.ts): the incidents come from a real engine built from a YAML
// config, go through JSON as the state file does, and are given to a new engine.
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type AlertEngine, type IncidentSnapshot } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import { toAlertLine } from '../../../agent/events/alert-line'
import { eventLine } from '../../../agent/events/event-line'
import { engineOptionsOfSetup, setupOfConfig } from '../../../agent/delivery/alert-setup'
import type { StoredIncident } from '../../../agent/incidents/incident-state'
import { MAX_STORED_LINE, restoredSnapshot, storedIncident } from '../../../agent/incidents/stored-incident'

function engine(): AlertEngine {
  const result = parseAgentConfig(
    `state_dir: /tmp/logx-stored-incident-unused
sources: [{ name: app, paths: [/tmp/logx-stored-incident-unused/*.log] }]
people:
  asha: { phone: "+919800000001" }
channels: { oncall-sms: { type: sms, people: [asha] } }
rules:
  - { name: errors, repeat_interval: 1h }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return createAlertEngine(engineOptionsOfSetup(setupOfConfig(result.config, []), 0))
}

/** Through JSON, as incidents.json keeps it. */
const throughFile = (stored: StoredIncident): StoredIncident => JSON.parse(JSON.stringify(stored)) as StoredIncident

function only(e: AlertEngine): IncidentSnapshot {
  const [incident] = e.incidents()
  if (incident === undefined) throw new Error('no incident')
  return incident
}

describe('storedIncident and restoredSnapshot', () => {
  it('a JSON line: the snapshot comes back as it was, with the last line for both lines', () => {
    const e = engine()
    e.ingest(toAlertLine('{"level":50,"msg":"db down","attempt":1}', 'json', 'app').line, 1000)
    e.ingest(toAlertLine('{"level":50,"msg":"db down","attempt":2}', 'json', 'app').line, 2000)
    const acked = e.acknowledge(
      only(e).key,
      { by: 'asha', via: 'missed_call', detail: 'missed call from +919800000001' },
      3000,
    )
    if (!acked.ok) throw new Error(acked.reason)
    const incident = only(e)

    const stored = throughFile(storedIncident(incident))
    expect(stored.line).toEqual({ raw: '{"level":50,"msg":"db down","attempt":2}', format: 'json', source: 'app' })
    const back = restoredSnapshot(stored)
    const { firstLine: _f, lastLine: _l, ...rest } = incident
    expect(back).toMatchObject(rest)
    expect(back.ack).toEqual({ by: 'asha', via: 'missed_call', at: 3000, detail: 'missed call from +919800000001' })
    expect(back.pagedTo).toEqual({ asha: 1000 })
    expect(back.lastLine).toMatchObject({
      raw: incident.lastLine.raw,
      json: true,
      source: 'app',
      record: { attempt: 2 },
    })
    expect(back.firstLine).toEqual(back.lastLine)
  })

  it('a text line stays text', () => {
    const e = engine()
    e.ingest(toAlertLine('ERROR payment gateway timed out', 'text', 'gateway').line, 1000)
    const stored = throughFile(storedIncident(only(e)))
    expect(stored.line).toEqual({ raw: 'ERROR payment gateway timed out', format: 'text', source: 'gateway' })
    const back = restoredSnapshot(stored)
    expect(back.lastLine).toMatchObject({
      raw: 'ERROR payment gateway timed out',
      json: false,
      source: 'gateway',
      msg: 'payment gateway timed out',
    })
  })

  it("a multi-line event comes back as the event: its first line's message and level, its trace as err, its container fields", () => {
    const e = engine()
    const first = '2026-11-25 10:00:00,001 ERROR [main] c.e.OrderService: payment capture failed'
    const rest = [
      'java.lang.IllegalStateException: gateway closed',
      '\tat com.example.Gateway.capture(Gateway.java:88)',
      '\tat com.example.OrderService.pay(OrderService.java:41)',
    ]
    const fields = { stream: 'stderr', kubernetes: { namespace: 'payments', pod: 'orders-7d9f', container: 'orders' } }
    const event = eventLine(first, rest, fields, 'cri', 'pods').line
    e.ingest(event, 1000)
    const incident = only(e)
    const stored = throughFile(storedIncident(incident))
    expect(stored.line).toEqual({ raw: [first, ...rest].join('\n'), format: 'text', source: 'pods', fields })
    const back = restoredSnapshot(stored).lastLine
    expect(back).toEqual(incident.lastLine)
    expect(back.msg).toBe('payment capture failed')
    expect(back.record).toMatchObject({
      kubernetes: { namespace: 'payments' },
      err: { type: 'java.lang.IllegalStateException' },
    })
  })

  it('a line from no source comes back from no source', () => {
    const e = engine()
    e.ingest(toAlertLine('{"level":50,"msg":"boom"}', 'json', undefined).line, 1000)
    const back = restoredSnapshot(throughFile(storedIncident(only(e))))
    expect(back.lastLine.source).toBeUndefined()
  })

  it(`a line longer than ${MAX_STORED_LINE} characters is replaced by the incident's title`, () => {
    const e = engine()
    const giant = JSON.stringify({ level: 60, msg: 'heap exhausted', dump: 'x'.repeat(MAX_STORED_LINE) })
    e.ingest(toAlertLine(giant, 'json', 'app').line, 1000)
    const incident = only(e)
    const stored = throughFile(storedIncident(incident))
    expect(stored.line.raw.length).toBeLessThan(1000)
    expect(stored.line).toEqual({
      raw: JSON.stringify({ level: 60, msg: incident.title }),
      format: 'json',
      source: 'app',
    })
    const back = restoredSnapshot(stored)
    expect(back.lastLine.level).toBe(60)
    expect(back.lastLine.msg).toBe(incident.title)
    expect(back.title).toBe(incident.title)
  })

  it('a giant text line comes back as its title, with the level read from the text', () => {
    const e = engine()
    e.ingest(toAlertLine(`ERROR out of memory ${'z'.repeat(MAX_STORED_LINE)}`, 'text', 'app').line, 1000)
    const incident = only(e)
    const back = restoredSnapshot(throughFile(storedIncident(incident)))
    expect(back.lastLine).toMatchObject({ level: 50, msg: incident.title, source: 'app' })
  })

  it('a line of exactly the limit is kept whole', () => {
    const e = engine()
    const prefix = '{"level":50,"msg":"limit","pad":"'
    const raw = `${prefix}${'y'.repeat(MAX_STORED_LINE - prefix.length - 2)}"}`
    expect(raw).toHaveLength(MAX_STORED_LINE)
    e.ingest(toAlertLine(raw, 'json', 'app').line, 1000)
    expect(storedIncident(only(e)).line.raw).toBe(raw)
  })

  it('is JSON-safe: nothing is lost or changed through JSON', () => {
    const e = engine()
    e.ingest(toAlertLine('{"level":50,"msg":"db down"}', 'json', 'app').line, 1000)
    const stored = storedIncident(only(e))
    expect(throughFile(stored)).toEqual(stored)
    expect(JSON.stringify(stored)).not.toContain('firstLine')
  })

  it('a new engine given the stored incident has it back as it was, and does not fire it again', () => {
    const first = engine()
    first.ingest(toAlertLine('{"level":50,"msg":"db down"}', 'json', 'app').line, 1000)
    const stored = throughFile(storedIncident(only(first)))

    const second = engine()
    expect(second.restore([restoredSnapshot(stored)], 2000)).toBe(1)
    expect(only(second)).toMatchObject({ key: stored.snapshot.key, status: 'firing', count: 1, firedAt: 1000 })
    expect(second.ingest(toAlertLine('{"level":50,"msg":"db down"}', 'json', 'app').line, 3000)).toEqual([])
    expect(only(second).count).toBe(2)
  })
})
