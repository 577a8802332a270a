// The state journal on real files: what is appended is replayed, a line cut by a kill is skipped
// without costing the next one, and the incident state stays small however many pages go by.
import { describe, expect, it } from 'vitest'
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import { openStateJournal } from '../../../agent/incidents/state-journal'
import { tempDir } from '../../helpers/temp-dir'

const fileIn = (): string => {
  const dir = tempDir('journal')
  return join(dir, 'state.jsonl')
}

describe('state journal', () => {
  it('replays what was appended, in order', () => {
    const file = fileIn()
    const { journal, ops } = openStateJournal(file, 'incidents')
    expect(ops).toEqual([])
    journal.append([
      ['p', 'a', { n: 1 }],
      ['d', 'a'],
    ])
    journal.append([['c', 'call-1']])
    expect(openStateJournal(file, 'incidents').ops).toEqual([
      ['p', 'a', { n: 1 }],
      ['d', 'a'],
      ['c', 'call-1'],
    ])
  })

  it('skips a line cut by a kill, and what is appended after it is read back', () => {
    const file = fileIn()
    openStateJournal(file, 'incidents').journal.append([['c', 'one']])
    appendFileSync(file, '["c","tw')
    const { journal, ops } = openStateJournal(file, 'incidents')
    expect(ops).toEqual([['c', 'one']])
    journal.append([['c', 'three']])
    expect(openStateJournal(file, 'incidents').ops).toEqual([
      ['c', 'one'],
      ['c', 'three'],
    ])
  })

  it('rewrites the file as the state given, and goes on appending after it', () => {
    const file = fileIn()
    const { journal } = openStateJournal(file, 'incidents')
    for (let i = 0; i < 50; i++) journal.append([['c', `call-${i}`]])
    journal.rewrite([['c', 'kept']])
    journal.append([['c', 'next']])
    expect(journal.lines).toBe(2)
    expect(openStateJournal(file, 'incidents').ops).toEqual([
      ['c', 'kept'],
      ['c', 'next'],
    ])
  })

  it('keeps only changes (arrays with a kind) and says a failure as a state error naming the file', () => {
    const file = fileIn()
    writeFileSync(file, '{"version":1}\n["c","one"]\n42\n[7]\n')
    expect(openStateJournal(file, 'incidents').ops).toEqual([['c', 'one']])
    const { journal } = openStateJournal(file, 'incidents')
    rmSync(dirname(file), { recursive: true })
    expect(() => journal.append([['c', 'two']])).toThrow(/cannot write .*state\.jsonl/)
  })
})

describe('the incident state on a journal', () => {
  it('reads the one-object format of a few unreleased days as nothing (its support is gone)', () => {
    const file = fileIn()
    writeFileSync(
      file,
      JSON.stringify({ version: 1, paged: { k: { rule: 'r', notifiedAt: 5, lastSeen: 6 } }, pending: {} }),
    )
    const state = createIncidentState(file)
    expect(state.size).toEqual({ paged: 0, pending: 0 })
    state.notified('k', 'r', 7)
    expect(createIncidentState(file).paged('k')?.notifiedAt).toBe(7)
  })

  it('stays small through many pages of few incidents (compacted as it goes)', () => {
    const file = fileIn()
    const state = createIncidentState(file)
    for (let i = 0; i < 20_000; i++) state.notified(`k${i % 10}`, 'r', i)
    expect(readFileSync(file, 'utf8').split('\n').length).toBeLessThan(1100)
    expect(statSync(file).size).toBeLessThan(100_000)
    const again = createIncidentState(file)
    expect(again.size).toEqual({ paged: 10, pending: 0 })
    expect(again.paged('k9')?.notifiedAt).toBe(19_999)
  })
})
