// Which leftovers beside a replaced file are stale temps: one test per rule of temp-files.ts.
import { describe, expect, it } from 'vitest'
import { staleTemp, tempPathOf } from '../../../agent/storage/temp-files'

const SELF = 100
const running = (pid: number): boolean => pid === 200

describe('stale temps (agent/storage/temp-files.ts)', () => {
  it('names the temp beside the file, hidden, after the process', () => {
    expect(tempPathOf('/s/incidents.json', 42)).toBe('/s/.incidents.json.42.tmp')
  })

  it('1. the temp name of earlier versions is stale', () => {
    expect(staleTemp('incidents.json.tmp', 'incidents.json', SELF, running)).toBe(true)
  })

  it("2. this process's own temp is not", () => {
    expect(staleTemp('.incidents.json.100.tmp', 'incidents.json', SELF, running)).toBe(false)
  })

  it('3. the temp of another running process is not', () => {
    expect(staleTemp('.incidents.json.200.tmp', 'incidents.json', SELF, running)).toBe(false)
  })

  it('4. the temp of a process that is gone is', () => {
    expect(staleTemp('.incidents.json.4242.tmp', 'incidents.json', SELF, running)).toBe(true)
  })

  it("5. other names are not, another file's temps included", () => {
    for (const name of ['incidents.json', '.timeline.jsonl.4242.tmp', '.incidents.json.x.tmp', 'other.tmp'])
      expect(staleTemp(name, 'incidents.json', SELF, running)).toBe(false)
  })
})
