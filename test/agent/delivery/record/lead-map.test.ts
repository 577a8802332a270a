import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLeadMap } from '../../../../agent/delivery/record/lead-map'
import { suiteTempDir } from '../../../helpers/temp-dir'

const dir = suiteTempDir('shared')

describe('lead map', () => {
  it('persists fingerprint -> lead through a temp file and rename, resolved marks included', () => {
    const stateDir = join(dir, 'state')
    const map = createLeadMap(stateDir)
    map.set('r:1', '1001')
    map.set('r:2', '1002')
    map.markResolved('r:2')
    const again = createLeadMap(stateDir)
    expect(again.get('r:1')).toEqual({ leadId: '1001', resolved: false })
    expect(again.get('r:2')).toEqual({ leadId: '1002', resolved: true })
    expect(JSON.parse(readFileSync(join(stateDir, 'incident-leads.json'), 'utf8'))).toEqual({
      version: 2,
      leads: { 'r:1': { leadId: '1001', resolved: false }, 'r:2': { leadId: '1002', resolved: true } },
    })
  })

  it('is bounded and starts empty from a corrupt file', () => {
    const stateDir = join(dir, 'bounded')
    const map = createLeadMap(stateDir, 2)
    map.set('a', '1')
    map.set('b', '2')
    map.set('c', '3')
    expect([map.get('a'), map.get('b')?.leadId, map.get('c')?.leadId, map.size]).toEqual([undefined, '2', '3', 2])
    writeFileSync(join(stateDir, 'incident-leads.json'), '{not json')
    expect(createLeadMap(stateDir).size).toBe(0)
  })
})
