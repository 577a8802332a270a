// What the incident state (agent/incidents/incident-state.ts) keeps for acknowledgements, in a real
// `incidents.json` in a temp dir: each paged incident as the engine had it (to give a new engine
// back), refreshed only where lines came, and the missed calls already used. "A restart" is a new
// state on the same file. (The paged/pending basics: test/agent/daemon/state.test.ts.)
import { describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createIncidentState, MAX_CALLS, type StoredIncident } from '../../../agent/incidents/incident-state'
import { tempDir } from '../../helpers/temp-dir'

function fileIn(): string {
  const dir = tempDir('incident-state')
  return join(dir, 'state', 'incidents.json')
}

function incident(key: string, over: Partial<StoredIncident['snapshot']> = {}): StoredIncident {
  return {
    snapshot: {
      key,
      rule: 'errors',
      title: `${key} down`,
      parts: [`${key} down`],
      status: 'firing',
      ack: undefined,
      firstSeen: 1000,
      lastSeen: 1000,
      firedAt: 1000,
      notifiedAt: 1000,
      pagedTo: { asha: 1000 },
      count: 1,
      step: 0,
      ...over,
    },
    line: { raw: JSON.stringify({ level: 50, msg: `${key} down` }), format: 'json', source: 'app' },
  }
}

/** What the file holds, as a new state on it reads it (the journal replayed). */
function onDisk(file: string): { paged: Record<string, { incident?: StoredIncident } | undefined>; calls: string[] } {
  const ops = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as [string, string, unknown])
  const paged: Record<string, { incident?: StoredIncident } | undefined> = {}
  const calls: string[] = []
  for (const [kind, key, value] of ops) {
    if (kind === 'p') paged[key] = value as { incident?: StoredIncident }
    else if (kind === 'd') delete paged[key]
    else if (kind === 'c' && !calls.includes(key)) calls.push(key)
  }
  return { paged, calls }
}
const pendingLine = (since: number) => ({
  rule: 'errors',
  raw: '{"level":50,"msg":"db down"}',
  source: 'app',
  format: 'json' as const,
  since,
})

describe('the incidents a new engine is given back', () => {
  it('notified with the incident keeps it, in the file too; without one it is only paged', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    state.notified('errors:old', 'errors', 1000)
    expect(state.stored()).toEqual([incident('errors:db')])
    expect(state.paged('errors:old')).toEqual({ rule: 'errors', notifiedAt: 1000, lastSeen: 1000 })

    const after = createIncidentState(file)
    expect(after.stored()).toEqual([incident('errors:db')])
    expect(after.paged('errors:db')).toMatchObject({ rule: 'errors', notifiedAt: 1000, lastSeen: 1000 })
  })

  it('changed() replaces what is kept of a paged incident and saves it now', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    const acked = incident('errors:db', {
      status: 'acknowledged',
      ack: { by: 'asha', via: 'missed_call', at: 2000, detail: 'missed call from +919800000001' },
    })
    state.changed('errors:db', acked)
    expect(state.stored()).toEqual([acked])
    expect(createIncidentState(file).stored()).toEqual([acked])
    // A change is not a page: when it last paged stays.
    expect(state.paged('errors:db')?.notifiedAt).toBe(1000)
  })

  it('changed() of an incident the state did not have records it as paged, from its snapshot', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    state.changed('errors:db', incident('errors:db', { notifiedAt: 1500, lastSeen: 1800, status: 'acknowledged' }))
    expect(createIncidentState(file).paged('errors:db')).toMatchObject({
      rule: 'errors',
      notifiedAt: 1500,
      lastSeen: 1800,
    })
  })

  it('resolved() forgets it', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    state.resolved('errors:db')
    expect(state.stored()).toEqual([])
    expect(createIncidentState(file).stored()).toEqual([])
  })
})

describe('refresh', () => {
  it('redoes only the paged incidents that saw lines since the last refresh', () => {
    const state = createIncidentState(fileIn())
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    state.notified('errors:cache', 'errors', 1000, incident('errors:cache'))
    state.observe('errors:db', pendingLine(2000), 2000)
    // A line of an incident that never paged is pending, not paged: nothing to refresh.
    state.observe('errors:new', pendingLine(2000), 2000)

    const asked: string[] = []
    state.refresh((key) => {
      asked.push(key)
      return incident(key, { count: 2, lastSeen: 2000 })
    })
    expect(asked).toEqual(['errors:db'])
    expect(state.stored().find((s) => s.snapshot.key === 'errors:db')?.snapshot.count).toBe(2)
    expect(state.stored().find((s) => s.snapshot.key === 'errors:cache')?.snapshot.count).toBe(1)

    // Nothing came since: nothing is redone.
    state.refresh((key) => {
      asked.push(key)
      return undefined
    })
    expect(asked).toEqual(['errors:db'])
  })

  it('writes nothing by itself; the next save() does', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    state.observe('errors:db', pendingLine(2000), 2000)
    state.refresh((key) => incident(key, { count: 5 }))
    expect(onDisk(file).paged['errors:db']?.incident?.snapshot.count).toBe(1)
    state.save()
    expect(onDisk(file).paged['errors:db']?.incident?.snapshot.count).toBe(5)
  })

  it('between refreshes, lines of many paged incidents cost a last-seen time each, not the whole incident at every page', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    for (let i = 0; i < 200; i++) state.notified(`errors:${i}`, 'errors', 1000, incident(`errors:${i}`))
    const before = readFileSync(file, 'utf8').length
    // Each new incident pages while the 200 earlier ones still see lines (a storm, within one tick).
    for (let i = 200; i < 400; i++) {
      state.observe(`errors:${i - 200}`, pendingLine(2000 + i), 2000 + i)
      state.notified(`errors:${i}`, 'errors', 2000 + i, incident(`errors:${i}`))
    }
    const pages = readFileSync(file, 'utf8').length - before
    // 200 pages and 200 last-seen times: about as much as the first 200 pages alone took.
    expect(pages).toBeLessThan(before * 1.5)
    // The last-seen times are in the file: a restart keeps the incidents open from then.
    const after = createIncidentState(file)
    expect(after.paged('errors:7')?.lastSeen).toBe(2207)
    expect(after.paged('errors:7')?.incident).toEqual(incident('errors:7'))
  })

  it('keeps what it had of an incident the engine no longer has', () => {
    const state = createIncidentState(undefined)
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    state.observe('errors:db', pendingLine(2000), 2000)
    state.refresh(() => undefined)
    expect(state.stored()).toEqual([incident('errors:db')])
  })
})

describe('missed calls used', () => {
  it('are known at once and kept with the next write, across a restart', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    expect(state.usedCall('call-1')).toBe(false)
    state.useCall('call-1')
    expect(state.usedCall('call-1')).toBe(true)
    expect(createIncidentState(file).usedCall('call-1')).toBe(false)
    state.save()
    const after = createIncidentState(file)
    expect(after.usedCall('call-1')).toBe(true)
    expect(after.usedCall('call-2')).toBe(false)
  })

  it('go with the write an acknowledgement makes', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    state.notified('errors:db', 'errors', 1000, incident('errors:db'))
    state.useCall('call-1')
    state.changed('errors:db', incident('errors:db', { status: 'acknowledged' }))
    expect(onDisk(file).calls).toEqual(['call-1'])
  })

  it(`are bounded: past ${MAX_CALLS} the oldest are forgotten`, () => {
    const file = fileIn()
    const state = createIncidentState(file)
    for (let i = 0; i <= MAX_CALLS; i++) state.useCall(`call-${i}`)
    expect(state.usedCall('call-0')).toBe(false)
    expect(state.usedCall('call-1')).toBe(true)
    expect(state.usedCall(`call-${MAX_CALLS}`)).toBe(true)
    state.save()
    const reopened = createIncidentState(file)
    expect(reopened.usedCall('call-0')).toBe(false)
    expect(reopened.usedCall('call-1')).toBe(true)
    expect(reopened.usedCall(`call-${MAX_CALLS}`)).toBe(true)
  })

  it('a file of an earlier version (no calls, no incidents) loads', () => {
    const file = fileIn()
    createIncidentState(file)
    // Earlier versions kept only the rule and times of a paged incident, and no calls.
    const entry = { rule: 'errors', notifiedAt: 1000, lastSeen: 1000 }
    writeFileSync(file, `${JSON.stringify(['p', 'errors:db', entry])}\n`)
    const state = createIncidentState(file)
    expect(state.usedCall('call-1')).toBe(false)
    expect(state.stored()).toEqual([])
    expect(state.paged('errors:db')).toBeDefined()
  })
})
