// Each incident's history (agent/incidents/incident-timeline.ts): what the console and
// `logx-agent incidents` show. Notices come from a real engine built from a YAML config (its
// recording channel included, as the alert path builds it); the file is a real one in a temp dir.
import { describe, expect, it } from 'vitest'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createAlertEngine, type AlertEngine } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import { engineOptionsOfSetup, setupOfConfig } from '../../../agent/delivery/alert-setup'
import {
  createIncidentTimeline,
  MAX_ENTRIES_PER_INCIDENT,
  MAX_INCIDENTS,
  type TimelineEntry,
} from '../../../agent/incidents/incident-timeline'
import { tempDir } from '../../helpers/temp-dir'

function engineIn(dir: string): AlertEngine {
  const result = parseAgentConfig(
    `state_dir: ${dir}
sources: [{ name: app, paths: [${dir}/*.log] }]
people:
  asha: { phone: "+919800000001" }
channels:
  oncall-sms: { type: sms, people: [asha] }
  team-chat: { type: chat, template_id: 101, people: [asha] }
rules:
  - { name: errors, repeat_interval: 1m, send_resolved: true }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return createAlertEngine(engineOptionsOfSetup(setupOfConfig(result.config, []), 0))
}

const line = (msg: string) => JSON.stringify({ level: 50, msg })
const shown = (entries: TimelineEntry[]) =>
  entries.map((e) => `${e.at} ${e.kind}: ${e.text}${e.by === undefined ? '' : ` [${e.by}]`}`)

describe('what the timeline shows of an incident', () => {
  it('one entry per notice kind and step, in order, naming the channels told and who acted', () => {
    const engine = engineIn(tempDir('timeline'))
    const timeline = createIncidentTimeline(undefined)
    timeline.notices(engine.ingest(line('db down'), 1000))
    timeline.notices(engine.ingest(line('cache down'), 1500))
    const [cache, db] = engine.incidents().map((i) => i.key)
    if (db === undefined || cache === undefined) throw new Error('two incidents expected')
    timeline.notices(engine.ingest(line('db down'), 2000))
    timeline.notices(engine.tick(62_000))
    const acked = engine.acknowledge(
      db,
      { by: 'asha', via: 'missed_call', detail: 'missed call from +919800000001' },
      63_000,
    )
    if (!acked.ok) throw new Error(acked.reason)
    timeline.notices(acked.deliveries)
    const unacked = engine.unacknowledge(db, { by: 'ravi', via: 'console' }, 64_000)
    if (!unacked.ok) throw new Error(unacked.reason)
    timeline.notices(unacked.deliveries)
    const resolved = engine.resolve(db, { by: 'ravi', via: 'cli' }, 65_000)
    if (!resolved.ok) throw new Error(resolved.reason)
    timeline.notices(resolved.deliveries)

    expect(shown(timeline.of(db))).toEqual([
      '1000 firing: firing: oncall-sms, team-chat',
      '62000 repeat: still firing (1 new, 2 in all): oncall-sms, team-chat',
      '63000 acknowledged: acknowledged by asha (missed call from +919800000001) [asha]',
      '64000 unacknowledged: no longer acknowledged by ravi: oncall-sms, team-chat [ravi]',
      '65000 resolved: resolved by ravi: oncall-sms, team-chat [ravi]',
    ])
    // The recording channel is the trail itself: never listed as a channel told.
    expect(timeline.of(db).flatMap((e) => e.channels ?? [])).not.toContain('logx.incident')
    expect(timeline.of(db)[2]?.channels).toEqual([])
    expect(shown(timeline.of(cache))).toEqual(['1500 firing: firing: oncall-sms, team-chat'])
    expect(timeline.of('errors:unknown')).toEqual([])
    expect(timeline.size).toBe(2)
  })

  it('entries added by hand (a missed call used) sit among the notices', () => {
    const engine = engineIn(tempDir('timeline'))
    const timeline = createIncidentTimeline(undefined)
    timeline.notices(engine.ingest(line('db down'), 1000))
    const key = engine.incidents()[0]?.key ?? ''
    timeline.add(key, { at: 2000, kind: 'missed_call', text: 'missed call from +919800000001', by: 'asha' })
    expect(shown(timeline.of(key))).toEqual([
      '1000 firing: firing: oncall-sms, team-chat',
      '2000 missed_call: missed call from +919800000001 [asha]',
    ])
    // A copy: changing what a caller got back changes nothing kept.
    timeline.of(key).pop()
    expect(timeline.of(key)).toHaveLength(2)
  })
})

describe('bounds', () => {
  it(`keeps the newest ${MAX_ENTRIES_PER_INCIDENT} entries of an incident`, () => {
    const timeline = createIncidentTimeline(undefined)
    for (let at = 1; at <= MAX_ENTRIES_PER_INCIDENT + 50; at++)
      timeline.add('errors:a', { at, kind: 'repeat', text: 'still firing' })
    const kept = timeline.of('errors:a')
    expect(kept).toHaveLength(MAX_ENTRIES_PER_INCIDENT)
    expect(kept[0]?.at).toBe(51)
    expect(kept.at(-1)?.at).toBe(MAX_ENTRIES_PER_INCIDENT + 50)
  })

  it(`keeps at most ${MAX_INCIDENTS} incidents, dropping the least recently changed`, () => {
    const timeline = createIncidentTimeline(undefined)
    for (let i = 0; i < MAX_INCIDENTS; i++) timeline.add(`k${i}`, { at: i, kind: 'firing', text: 'firing' })
    // k0 changed again: now k1 is the least recently changed.
    timeline.add('k0', { at: MAX_INCIDENTS, kind: 'resolved', text: 'resolved' })
    timeline.add('new', { at: MAX_INCIDENTS + 1, kind: 'firing', text: 'firing' })
    expect(timeline.size).toBe(MAX_INCIDENTS)
    expect(timeline.of('k1')).toEqual([])
    expect(timeline.of('k0').map((e) => e.kind)).toEqual(['firing', 'resolved'])
    expect(timeline.of('new')).toHaveLength(1)
  })
})

describe('timeline.jsonl', () => {
  it('a new timeline on the same file shows the same history', () => {
    const dir = tempDir('timeline')
    const file = join(dir, 'state', 'timeline.jsonl')
    const engine = engineIn(dir)
    const first = createIncidentTimeline(file)
    first.notices(engine.ingest(line('db down'), 1000))
    const key = engine.incidents()[0]?.key ?? ''
    first.add(key, { at: 2000, kind: 'missed_call', text: 'missed call from +919800000001', by: 'asha' })

    const second = createIncidentTimeline(file)
    expect(second.of(key)).toEqual(first.of(key))
    expect(second.size).toBe(1)
  })

  it('a torn last line (killed mid-append) is skipped; the entries before it stand', () => {
    const file = join(tempDir('timeline'), 'timeline.jsonl')
    createIncidentTimeline(file).add('errors:a', { at: 1, kind: 'firing', text: 'firing' })
    appendFileSync(file, '["errors:a",{"at":2,"kind":"rep')
    const reloaded = createIncidentTimeline(file)
    expect(reloaded.of('errors:a').map((e) => e.at)).toEqual([1])
  })

  it('what is written after a torn last line is read back by the next start', () => {
    const file = join(tempDir('timeline'), 'timeline.jsonl')
    createIncidentTimeline(file).add('errors:a', { at: 1, kind: 'firing', text: 'firing' })
    appendFileSync(file, '["errors:a",{"at":2,"kind":"rep')
    createIncidentTimeline(file).add('errors:a', { at: 3, kind: 'resolved', text: 'resolved' })
    expect(
      createIncidentTimeline(file)
        .of('errors:a')
        .map((e) => e.at),
    ).toEqual([1, 3])
  })

  it('lines that are not entries are skipped', () => {
    const file = join(tempDir('timeline'), 'timeline.jsonl')
    writeFileSync(file, '{"not":"a line"}\n["k"]\n42\n["k",{"at":1,"kind":"firing","text":"firing"}]\n')
    expect(
      createIncidentTimeline(file)
        .of('k')
        .map((e) => e.at),
    ).toEqual([1])
  })

  it('is compacted at start when it holds far more than is kept, keeping what is shown', () => {
    const file = join(tempDir('timeline'), 'timeline.jsonl')
    const rows: string[] = []
    for (let at = 1; at <= 1500; at++)
      rows.push(JSON.stringify(['errors:a', { at, kind: 'repeat', text: 'still firing' }]))
    rows.push(JSON.stringify(['errors:b', { at: 1501, kind: 'firing', text: 'firing' }]))
    writeFileSync(file, `${rows.join('\n')}\n`)

    const loaded = createIncidentTimeline(file)
    const shownA = loaded.of('errors:a')
    expect(shownA.map((e) => e.at)).toEqual(
      Array.from({ length: MAX_ENTRIES_PER_INCIDENT }, (_, i) => 1501 - MAX_ENTRIES_PER_INCIDENT + i),
    )
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
    expect(lines).toHaveLength(MAX_ENTRIES_PER_INCIDENT + 1)
    const again = createIncidentTimeline(file)
    expect(again.of('errors:a')).toEqual(shownA)
    expect(again.of('errors:b').map((e) => e.at)).toEqual([1501])
  })

  it('is left as it is when it holds about what is kept', () => {
    const file = join(tempDir('timeline'), 'timeline.jsonl')
    const rows: string[] = []
    for (let at = 1; at <= 300; at++)
      rows.push(JSON.stringify(['errors:a', { at, kind: 'repeat', text: 'still firing' }]))
    const text = `${rows.join('\n')}\n`
    writeFileSync(file, text)
    expect(createIncidentTimeline(file).of('errors:a')).toHaveLength(MAX_ENTRIES_PER_INCIDENT)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })
})
