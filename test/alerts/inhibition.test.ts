// One test per numbered rule of alerts/inhibition.ts, on incidents as the engine snapshots them,
// and the labels both silences and inhibition match on (alerts/labels.ts).
import { describe, expect, it } from 'vitest'
import { createInhibitor, type InhibitRule } from '../../alerts/inhibition'
import { incidentLabels } from '../../alerts/labels'
import type { FieldMatch } from '../../alerts/matcher'
import type { IncidentSnapshot, IncidentStatus } from '../../alerts/notice'
import { jsonLine, snapshotOf } from './helpers'

const eq = (path: string, value: string | number | boolean | null): FieldMatch => ({ kind: 'equals', path, value })
const re = (path: string, regex: RegExp): FieldMatch => ({ kind: 'regex', path, regex })

let keys = 0
/** An open incident of `rule` whose last line has `fields` (firing unless said otherwise). */
function incident(
  rule: string,
  fields: Record<string, unknown>,
  status: IncidentStatus = 'firing',
  firstFields?: Record<string, unknown>,
): IncidentSnapshot {
  const last = jsonLine(fields)
  return snapshotOf(last, {
    key: `${rule}:${++keys}`,
    rule,
    status,
    firstLine: firstFields === undefined ? last : jsonLine(firstFields),
  })
}

/** `inhibit: [{ source: { rule: db-down }, target: { rule: api-errors }, equal: [host] }]` */
const dbDownMutesApi: InhibitRule = {
  source: [eq('rule', 'db-down')],
  target: [eq('rule', 'api-errors')],
  equal: ['host'],
}

describe('inhibition rules', () => {
  it('1. a source matching the source side mutes a target matching the target side', () => {
    const inhibitor = createInhibitor([dbDownMutesApi])
    const db = incident('db-down', { host: 'web1', msg: 'connection refused' })
    const api = incident('api-errors', { host: 'web1' })
    expect(inhibitor.mutedBy(api, [db])).toBe(db)
    // Another rule's incident is not a target, nor a source.
    expect(inhibitor.mutedBy(incident('disk-full', { host: 'web1' }), [db])).toBeUndefined()
    expect(inhibitor.mutedBy(api, [incident('disk-full', { host: 'web1' })])).toBeUndefined()
    // Line fields, regexes and the incident's title match as in silences; an empty side matches all.
    const byFields = createInhibitor([
      { source: [re('title', /^db /), eq('severity', 'critical')], target: [], equal: [] },
    ])
    const critical = incident('any', { msg: 'db primary lost', severity: 'critical' })
    expect(byFields.mutedBy(incident('other', {}), [critical])).toBe(critical)
    expect(
      byFields.mutedBy(incident('other', {}), [incident('any', { msg: 'db primary lost', severity: 'minor' })]),
    ).toBeUndefined()
  })

  it('2. only a firing or acknowledged source mutes, never a pending one', () => {
    const inhibitor = createInhibitor([dbDownMutesApi])
    const api = incident('api-errors', { host: 'web1' })
    expect(inhibitor.mutedBy(api, [incident('db-down', { host: 'web1' }, 'pending')])).toBeUndefined()
    const acked = incident('db-down', { host: 'web1' }, 'acknowledged')
    expect(inhibitor.mutedBy(api, [acked])).toBe(acked)
  })

  it('3. an incident never mutes itself', () => {
    // Every error mutes every other error of its host: the incident itself is among the sources.
    const inhibitor = createInhibitor([{ source: [eq('rule', 'api-errors')], target: [], equal: ['host'] }])
    const api = incident('api-errors', { host: 'web1' })
    expect(inhibitor.mutedBy(api, [api])).toBeUndefined()
    // The same incident in a later snapshot (the sources are the table's, the target the notice's).
    expect(inhibitor.mutedBy(api, [{ ...api, count: 7 }])).toBeUndefined()
  })

  it('4. equal paths: a value on both last lines, and the same one', () => {
    const inhibitor = createInhibitor([dbDownMutesApi])
    const api = (fields: Record<string, unknown>): IncidentSnapshot => incident('api-errors', fields)
    const db = (fields: Record<string, unknown>): IncidentSnapshot => incident('db-down', fields)
    expect(inhibitor.mutedBy(api({ host: 'web1' }), [db({ host: 'web2' })])).toBeUndefined()
    // Missing, null or empty on both is no value: never equal, the target pages.
    expect(inhibitor.mutedBy(api({}), [db({})])).toBeUndefined()
    expect(inhibitor.mutedBy(api({ host: null }), [db({ host: null })])).toBeUndefined()
    expect(inhibitor.mutedBy(api({ host: '' }), [db({ host: '' })])).toBeUndefined()
    // Type and value; objects by their JSON text.
    expect(inhibitor.mutedBy(api({ host: 1 }), [db({ host: '1' })])).toBeUndefined()
    const fleet = db({ host: { dc: 'mum', n: 1 } })
    expect(inhibitor.mutedBy(api({ host: { dc: 'mum', n: 1 } }), [fleet])).toBe(fleet)
    // The last lines count: the database incident moved from web1 to web2.
    const moved = incident('db-down', { host: 'web2' }, 'firing', { host: 'web1' })
    expect(inhibitor.mutedBy(api({ host: 'web1' }), [moved])).toBeUndefined()
    expect(inhibitor.mutedBy(api({ host: 'web2' }), [moved])).toBe(moved)
    // Dot paths, all of them.
    const nested = createInhibitor([{ ...dbDownMutesApi, equal: ['req.host', 'region'] }])
    const source = db({ req: { host: 'web1' }, region: 'south' })
    expect(nested.mutedBy(api({ req: { host: 'web1' }, region: 'south' }), [source])).toBe(source)
    expect(nested.mutedBy(api({ req: { host: 'web1' }, region: 'north' }), [source])).toBeUndefined()
  })

  it('5. peers do not mute each other, within a rule or across two', () => {
    const fatalMutesHost = createInhibitor([{ source: [eq('sev', 'fatal')], target: [], equal: ['host'] }])
    const fatal1 = incident('oom', { host: 'web1', sev: 'fatal' })
    const fatal2 = incident('panic', { host: 'web1', sev: 'fatal' })
    expect(fatalMutesHost.mutedBy(fatal1, [fatal2])).toBeUndefined()
    expect(fatalMutesHost.mutedBy(fatal2, [fatal1])).toBeUndefined()
    // A consequence on that host is still muted, by the first fatal one.
    expect(fatalMutesHost.mutedBy(incident('api-errors', { host: 'web1' }), [fatal2, fatal1])).toBe(fatal2)
    // Two rules muting each other's incidents: both page.
    const crossed = createInhibitor([
      { source: [eq('rule', 'a')], target: [eq('rule', 'b')], equal: [] },
      { source: [eq('rule', 'b')], target: [eq('rule', 'a')], equal: [] },
    ])
    const a = incident('a', {})
    const b = incident('b', {})
    expect(crossed.mutedBy(a, [b])).toBeUndefined()
    expect(crossed.mutedBy(b, [a])).toBeUndefined()
    // Unless the target could not mute back: a pending `a` is no source (rule 2), so `b` mutes it.
    expect(crossed.mutedBy(incident('a', {}, 'pending'), [b])).toBe(b)
  })

  it('6. several rules: the first source in the order given that any rule links', () => {
    const inhibitor = createInhibitor([
      dbDownMutesApi,
      { source: [eq('rule', 'network-down')], target: [re('rule', /^api-/)], equal: ['dc'] },
    ])
    const api = incident('api-errors', { host: 'web1', dc: 'mum' })
    const db = incident('db-down', { host: 'web1' })
    const network = incident('network-down', { dc: 'mum' })
    const unrelated = incident('db-down', { host: 'web9' })
    expect(inhibitor.mutedBy(api, [unrelated, network, db])).toBe(network)
    expect(inhibitor.mutedBy(api, [unrelated, db, network])).toBe(db)
    // The second rule alone targets api-latency.
    expect(inhibitor.mutedBy(incident('api-latency', { host: 'web1', dc: 'mum' }), [db, network])).toBe(network)
    // Any iterable, read once.
    function* open(): Generator<IncidentSnapshot> {
      yield unrelated
      yield db
    }
    expect(inhibitor.mutedBy(api, open())).toBe(db)
    // No rules: nothing is ever muted.
    expect(createInhibitor([]).mutedBy(api, [db, network])).toBeUndefined()
  })
})

describe('incident labels', () => {
  it("are the last line's fields with rule, fingerprint and title, which win", () => {
    const snapshot = snapshotOf(jsonLine({ host: 'web1', rule: 'from-the-line', title: 'line title' }), {
      key: 'db:1',
      rule: 'db',
      title: 'db down',
    })
    expect(incidentLabels(snapshot)).toMatchObject({ host: 'web1', rule: 'db', fingerprint: 'db:1', title: 'db down' })
  })
})
