// The agent's kind table kept (agent/kinds/kept-kinds.ts), with the real miner, the real table and a
// real kinds file: a new kind is on disk when the table answers (before the engine can page it); a
// restart knows its kinds by the same ids; learning goes on across a restart and starts over after a
// damaged file, so the kinds the damage lost are learned again, not paged as new.
import { describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createKindMiner, createKindTable } from '../../../alerts/kinds'
import { parseLine } from '../../../alerts/line'
import { keepKinds } from '../../../agent/kinds/kept-kinds'
import { openKindStore } from '../../../agent/kinds'
import { onCorruptState } from '../../../agent/storage/corrupt-state'
import { tempDir } from '../../helpers/temp-dir'

const T0 = 1_700_000_000_000
const MIN = 60_000
const LINES = [
  'ERROR 2026-12-01 10:00:01 db: connection refused to 10.0.0.1:5432',
  'ERROR 2026-12-01 10:00:02 cache: key user-12 evicted after 340 ms',
  'ERROR 2026-12-01 10:00:03 payments: card declined for order 8812',
]

function start(file: string, now: number, learnMs = 0) {
  const store = openKindStore({ file, now })
  const table = createKindTable({ max: 100, learnMs, learnFrom: learnMs > 0 ? store.learningSince : undefined })
  const errors: unknown[] = []
  const kept = keepKinds({ store, table, miner: createKindMiner({ max: 100 }), onError: (e) => errors.push(e) })
  const see = (raw: string, at: number) => {
    const line = parseLine(raw, 'app')
    return kept.table.observe(kept.miner.mine(line), line, at, 'web-1')
  }
  return { store, kept, see, errors }
}

const fileIn = (): string => join(tempDir('kept-kinds'), 'kinds.jsonl')

describe('the kind table kept in state_dir', () => {
  it('a kind met for the first time is in the file when the table answers', () => {
    const file = fileIn()
    const { see } = start(file, T0)
    const seen = see(LINES[0] ?? '', T0)
    expect(seen.isNew).toBe(true)
    expect(readFileSync(file, 'utf8')).toContain(`"id":"${seen.entry.id}"`)
  })

  it('after a kill (no flush, no close) the same lines find their kinds known, by the same ids', () => {
    const file = fileIn()
    const first = start(file, T0)
    const ids = LINES.map((raw, i) => first.see(raw, T0 + i).entry.id)
    const again = start(file, T0 + MIN)
    const seen = LINES.map((raw, i) => again.see(raw, T0 + MIN + i))
    expect(seen.map((s) => s.isNew)).toEqual([false, false, false])
    expect(seen.map((s) => s.entry.id)).toEqual(ids)
    expect(again.kept.stats().restored).toBe(3)
  })

  it('counts go in at flush and come back after a restart', () => {
    const file = fileIn()
    const first = start(file, T0)
    for (let i = 0; i < 5; i++) first.see(LINES[1] ?? '', T0 + i)
    first.kept.flush()
    const again = start(file, T0 + MIN)
    expect(again.kept.entries()[0]?.count).toBe(5)
    expect(again.kept.stats().bySource.get('app')).toBe(1)
  })

  it('a restart while learning goes on learning; the learned kinds are kept at flush', () => {
    const file = fileIn()
    const first = start(file, T0, 60 * MIN)
    expect(first.see(LINES[0] ?? '', T0).entry.learned).toBe(true)
    first.kept.flush()
    const again = start(file, T0 + 30 * MIN, 60 * MIN)
    expect(again.see(LINES[1] ?? '', T0 + 30 * MIN).entry.learned).toBe(true)
    expect(again.see(LINES[0] ?? '', T0 + 30 * MIN).isNew).toBe(false)
    const late = start(file, T0 + 90 * MIN, 60 * MIN)
    expect(late.see(LINES[2] ?? '', T0 + 90 * MIN).entry.learned).toBe(false)
  })

  it('a damaged kinds file: said, and the kinds it lost are learned again, not new', () => {
    const file = fileIn()
    const first = start(file, T0, 60 * MIN)
    LINES.forEach((raw) => first.see(raw, T0))
    first.kept.flush()
    // The first kind's record stays whole; the others' are spoilt.
    const [version, kept] = readFileSync(file, 'utf8').split('\n')
    writeFileSync(file, `${version}\n${kept}\ngarbage\n{"cut\n`)
    const said: string[] = []
    const stop = onCorruptState((report) => said.push(report.problem))
    try {
      const later = T0 + 24 * 60 * MIN
      const again = start(file, later, 60 * MIN)
      expect(said).toHaveLength(1)
      const seen = LINES.map((raw) => again.see(raw, later))
      expect(seen.map((s) => s.isNew)).toEqual([false, true, true])
      expect(seen.slice(1).every((s) => s.entry.learned)).toBe(true)
    } finally {
      stop()
    }
  })

  it('a store that cannot write is said; the table still answers (no alert is lost to it)', () => {
    const store = openKindStore({ file: undefined, now: T0 })
    store.added = () => {
      throw new Error('ENOSPC: no space left on device')
    }
    const errors: unknown[] = []
    const table = createKindTable({ max: 10, learnMs: 0 })
    const kept = keepKinds({ store, table, miner: createKindMiner({ max: 10 }), onError: (e) => errors.push(e) })
    const line = parseLine(LINES[0] ?? '', 'app')
    expect(kept.table.observe(kept.miner.mine(line), line, T0, 'web-1').isNew).toBe(true)
    expect(errors).toHaveLength(1)
  })
})
