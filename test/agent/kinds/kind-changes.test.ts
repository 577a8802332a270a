// What of a kind a flush writes (agent/kinds/kind-changes.ts): one test per numbered rule.
import { describe, expect, it } from 'vitest'
import type { KindEntry } from '../../../alerts/kinds/types'
import { changeOf, markOf } from '../../../agent/kinds/kind-changes'

const HOUR = 3_600_000

function kind(over: Partial<KindEntry> = {}): KindEntry {
  return {
    id: 'a1',
    source: 'app',
    template: 'Connection refused to <*>',
    aliases: [],
    level: 50,
    firstSeen: 0,
    lastSeen: 10,
    lastResolved: undefined,
    count: 3,
    hourly: [
      [0, 2],
      [HOUR, 1],
    ],
    hosts: ['web-1'],
    sample: 'Connection refused to 10.0.0.1',
    incident: undefined,
    learned: false,
    ...over,
  }
}

describe('what a flush writes of a kind', () => {
  it('rule 1: a kind never written is written whole', () => {
    expect(changeOf(kind(), undefined)).toEqual({ write: 'whole' })
  })

  it('rule 2: a changed template, alias, host, incident, resolve, learned or paged mark is written whole', () => {
    const mark = markOf(kind())
    expect(changeOf(kind({ paged: !(kind().paged ?? true) }), mark).write).toBe('whole')
    // What a kind: new rule counts is written as it decides (a `w` record), not at flush.
    expect(changeOf(kind({ pending: [['new-errors', [1, 2]]] }), mark).write).toBe('nothing')
    expect(changeOf(kind({ template: '<*> refused to <*>' }), mark).write).toBe('whole')
    expect(changeOf(kind({ aliases: ['b2'] }), mark).write).toBe('whole')
    expect(changeOf(kind({ incident: 'r:1' }), mark).write).toBe('whole')
    expect(changeOf(kind({ lastResolved: 99 }), mark).write).toBe('whole')
    expect(changeOf(kind({ learned: true }), mark).write).toBe('whole')
    expect(changeOf(kind({ hosts: ['web-2', 'web-1'], count: 4 }), mark).write).toBe('whole')
  })

  it('rule 3: moved counts are written as counts, with the hourly buckets from the last written on', () => {
    const mark = markOf(kind())
    const moved = kind({
      count: 9,
      lastSeen: 2 * HOUR,
      hourly: [
        [0, 2],
        [HOUR, 4],
        [2 * HOUR, 3],
      ],
    })
    expect(changeOf(moved, mark)).toEqual({
      write: 'counts',
      tail: [
        [HOUR, 4],
        [2 * HOUR, 3],
      ],
    })
  })

  it('rule 4: nothing moved, nothing written', () => {
    expect(changeOf(kind(), markOf(kind()))).toEqual({ write: 'nothing' })
  })
})
