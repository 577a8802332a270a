// The state journal on real files: what is appended is replayed, a line cut by a kill is skipped
// without costing the next one, a file of the earlier format is carried over, and the incident
// state stays small however many pages go by.
import { afterEach, describe, expect, it } from 'vitest'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import { openStateJournal, type JournalOp } from '../../../agent/incidents/state-journal'

const dirs: string[] = []
const fileIn = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'logx-journal-'))
  dirs.push(dir)
  return join(dir, 'state.jsonl')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const never = (): undefined => undefined

describe('state journal', () => {
  it('replays what was appended, in order', () => {
    const file = fileIn()
    const { journal, ops } = openStateJournal(file, never)
    expect(ops).toEqual([])
    journal.append([
      ['p', 'a', { n: 1 }],
      ['d', 'a'],
    ])
    journal.append([['c', 'call-1']])
    expect(openStateJournal(file, never).ops).toEqual([
      ['p', 'a', { n: 1 }],
      ['d', 'a'],
      ['c', 'call-1'],
    ])
  })

  it('skips a line cut by a kill, and what is appended after it is read back', () => {
    const file = fileIn()
    openStateJournal(file, never).journal.append([['c', 'one']])
    appendFileSync(file, '["c","tw')
    const { journal, ops } = openStateJournal(file, never)
    expect(ops).toEqual([['c', 'one']])
    journal.append([['c', 'three']])
    expect(openStateJournal(file, never).ops).toEqual([
      ['c', 'one'],
      ['c', 'three'],
    ])
  })

  it('rewrites the file as the state given, and goes on appending after it', () => {
    const file = fileIn()
    const { journal } = openStateJournal(file, never)
    for (let i = 0; i < 50; i++) journal.append([['c', `call-${i}`]])
    journal.rewrite([['c', 'kept']])
    journal.append([['c', 'next']])
    expect(journal.lines).toBe(2)
    expect(openStateJournal(file, never).ops).toEqual([
      ['c', 'kept'],
      ['c', 'next'],
    ])
  })

  it('carries over a file of the earlier format, then keeps it as a journal', () => {
    const file = fileIn()
    writeFileSync(file, '{"old":true}')
    const legacy = (content: string): JournalOp[] | undefined =>
      content.startsWith('{') ? [['c', 'from-old']] : undefined
    expect(openStateJournal(file, legacy).ops).toEqual([['c', 'from-old']])
    expect(readFileSync(file, 'utf8')).toBe('["c","from-old"]\n')
  })
})

describe('the incident state on a journal', () => {
  it('reads the earlier one-object format', () => {
    const file = fileIn()
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        paged: { k: { rule: 'r', notifiedAt: 5, lastSeen: 6 } },
        pending: {},
        calls: ['c1'],
      }),
    )
    const state = createIncidentState(file)
    expect(state.paged('k')).toEqual({ rule: 'r', notifiedAt: 5, lastSeen: 6 })
    expect(state.usedCall('c1')).toBe(true)
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
