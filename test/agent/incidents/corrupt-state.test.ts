// Damaged incident files, as a restart meets them (a new state on the same files): incidents.json
// with garbage in the middle keeps every page and acknowledgement that was whole; silences.json cut
// mid-record keeps the silences before the cut and the next save leaves the kept-aside copy alone;
// and after a damaged outbox the recorded pages it may have lost are paged again (page-reconcile.ts,
// one test per rule).
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createIncidentState, type StoredIncident } from '../../../agent/incidents/incident-state'
import { pagesToResend } from '../../../agent/incidents/page-reconcile'
import { createRuntimeSilences } from '../../../agent/incidents/runtime-silences'
import type { PagedIncident } from '../../../agent/incidents/types'
import { onCorruptState, type CorruptStateReport } from '../../../agent/storage/corrupt-state'
import { tempDir } from '../../helpers/temp-dir'

let reports: CorruptStateReport[] = []
const stop = onCorruptState((report) => reports.push(report))
afterEach(() => {
  reports = []
})
afterAll(stop)

function incident(key: string, status: 'firing' | 'acknowledged' = 'firing'): StoredIncident {
  return {
    snapshot: {
      key,
      rule: 'errors',
      title: `${key} down`,
      parts: [`${key} down`],
      status,
      ack: status === 'acknowledged' ? { by: 'asha', at: 1500, via: 'cli' } : undefined,
      firstSeen: 1000,
      lastSeen: 1000,
      firedAt: 1000,
      notifiedAt: 1000,
      pagedTo: { asha: 1000 },
      count: 1,
      step: 0,
    } as StoredIncident['snapshot'],
    line: { raw: JSON.stringify({ level: 50, msg: `${key} down` }), format: 'json', source: 'app' },
  }
}

const aside = (dir: string, name: string): string[] => readdirSync(dir).filter((n) => n.startsWith(`${name}.corrupt-`))

describe('a damaged incidents.json at start', () => {
  it('keeps every page and acknowledgement that was whole around garbage in the middle', () => {
    const dir = tempDir('incidents-corrupt')
    const file = join(dir, 'incidents.json')
    const state = createIncidentState(file)
    state.notified('a', 'errors', 1000, incident('a'))
    state.changed('b', incident('b', 'acknowledged'))
    const text = readFileSync(file, 'utf8')
    writeFileSync(
      file,
      `${text}\u0000\u00ff not json at all\n${JSON.stringify(['p', 'c', { rule: 'errors', notifiedAt: 2, lastSeen: 2, incident: incident('c') }])}\n`,
    )
    const restarted = createIncidentState(file)
    expect(restarted.paged('a')?.incident?.snapshot.status).toBe('firing')
    expect(restarted.paged('b')?.incident?.snapshot.ack).toMatchObject({ by: 'asha' })
    expect(restarted.paged('c')).toBeDefined()
    expect(reports).toMatchObject([{ name: 'incidents', kept: 3, dropped: 1 }])
    expect(aside(dir, 'incidents.json')).toHaveLength(1)
  })

  it('zero-filled: nothing to read, kept aside and said', () => {
    const dir = tempDir('incidents-corrupt')
    const file = join(dir, 'incidents.json')
    writeFileSync(file, Buffer.alloc(2048))
    expect(createIncidentState(file).size).toEqual({ paged: 0, pending: 0 })
    expect(reports[0]?.problem).toContain('zero-filled')
    expect(aside(dir, 'incidents.json')).toHaveLength(1)
  })
})

describe('a damaged silences.json at start', () => {
  const silence = (id: string) => ({ id, matchers: { rule: 'errors' }, startsAt: 1, endsAt: 9e15, comment: undefined })

  it('keeps the silences before a cut mid-record; the next save leaves the copy kept aside alone', () => {
    const dir = tempDir('silences-corrupt')
    const file = join(dir, 'silences.json')
    const whole = JSON.stringify({ silences: [silence('rt-1'), silence('rt-2'), silence('rt-3')] })
    const cut = whole.slice(0, whole.indexOf('rt-3'))
    writeFileSync(file, cut)
    const silences = createRuntimeSilences(file)
    expect(silences.list(10).map((s) => s.id)).toEqual(['rt-1', 'rt-2'])
    expect(reports).toMatchObject([{ name: 'silences', kept: 2 }])
    silences.add({ matchers: { rule: 'x' }, endsAt: 9e15, comment: undefined, by: undefined }, 10)
    const [copy] = aside(dir, 'silences.json')
    expect(readFileSync(join(dir, copy as string), 'utf8')).toBe(cut)
    expect(createRuntimeSilences(file).list(10)).toHaveLength(3)
  })
})

describe('recorded pages after a damaged outbox (page-reconcile.ts)', () => {
  const paged = (key: string, status?: 'firing' | 'acknowledged'): [string, PagedIncident] => [
    key,
    {
      rule: 'errors',
      notifiedAt: 1000,
      lastSeen: 1000,
      ...(status === undefined ? {} : { incident: incident(key, status) }),
    },
  ]
  const all = new Map([
    paged('firing', 'firing'),
    paged('queued', 'firing'),
    paged('acked', 'acknowledged'),
    paged('old'),
  ])

  it('rule 1: an outbox that lost nothing: nothing is sent again', () => {
    expect(pagesToResend(all, new Set(), false)).toEqual([])
  })
  it('rule 2: a page still in the outbox goes out from there', () => {
    expect(pagesToResend(all, new Set(['queued']), true)).not.toContain('queued')
  })
  it('rule 3: an acknowledged incident is not paged again', () => {
    expect(pagesToResend(all, new Set(), true)).not.toContain('acked')
  })
  it('rule 4: one kept without its incident is left to its next line', () => {
    expect(pagesToResend(all, new Set(), true)).not.toContain('old')
  })
  it('rule 5: every other recorded page is sent again', () => {
    expect(pagesToResend(all, new Set(['queued']), true)).toEqual(['firing'])
  })

  it('the state makes them pending with their last line, on disk, so a restart fires them', () => {
    const dir = tempDir('incidents-corrupt')
    const file = join(dir, 'incidents.json')
    const state = createIncidentState(file)
    state.notified('a', 'errors', 1000, incident('a'))
    state.changed('b', incident('b', 'acknowledged'))
    expect(state.repageUnsent(new Set(), true, 5000)).toEqual(['a'])
    const restarted = createIncidentState(file)
    expect(restarted.paged('a')).toBeUndefined()
    expect(restarted.pending()).toEqual([
      { rule: 'errors', raw: incident('a').line.raw, source: 'app', format: 'json', since: 5000 },
    ])
    expect(restarted.paged('b')).toBeDefined()
  })
})
