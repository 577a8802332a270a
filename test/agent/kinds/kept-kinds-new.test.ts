// A `kind: new` rule with min_count over a kept kind table (agent/kinds/kept-kinds.ts) and a real kinds
// file: what the rule counted toward min_count, and its page, are on disk as the rule decides, so a
// kill (no flush, no close) and a restart neither lose the count nor page the kind again.
import { expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createAlertEngine } from '../../../alerts/engine'
import { createKindMiner, createKindTable } from '../../../alerts/kinds'
import type { RuleConfig } from '../../../alerts/rule'
import { keepKinds } from '../../../agent/kinds/kept-kinds'
import { openKindStore } from '../../../agent/kinds'
import { tempDir } from '../../helpers/temp-dir'
import { channelOf, rulesOf } from '../../alerts/helpers'

const T0 = Date.parse('2026-12-02T10:00:00Z')
const SEC = 1000

/** An agent's kinds and engine on `file`, as a start makes them; nothing is flushed or closed after. */
function startOn(file: string, now: number) {
  const store = openKindStore({ file, now })
  const table = createKindTable({ max: 100, learnMs: 0, learnFrom: store.learningSince })
  const kept = keepKinds({
    store,
    table,
    miner: createKindMiner({ max: 100 }),
    onError: (err) => {
      throw err
    },
  })
  const rule = rulesOf([{ name: 'new-errors' }], ['sms'])[0] as RuleConfig
  const engine = createAlertEngine({
    rules: [{ ...rule, kinds: { type: 'new', minCount: 5, withinMs: 10 * 60 * SEC } }],
    channels: [channelOf({ type: 'sms', max_length: 400 })],
    kinds: { learnMs: 0, host: 'web-1', miner: kept.miner, table: kept.table },
  })
  const see = (n: number, at: number) =>
    engine.ingest(JSON.stringify({ level: 50, msg: `upstream 10.0.0.${n} timed out after ${n}0 ms` }), at, 'app')
  return { see, kept }
}

it('a kind seen 3 times, killed, seen 2 more times within the window pages; killed again, it pages no more', () => {
  const file = join(tempDir('kept-kinds-new'), 'kinds.jsonl')
  const first = startOn(file, T0)
  for (let i = 1; i <= 3; i++) expect(first.see(i, T0 + i * SEC)).toEqual([])
  const [waiting] = first.kept.entries()
  expect(waiting).toMatchObject({ paged: false, pending: [['new-errors', [T0 + SEC, T0 + 2 * SEC, T0 + 3 * SEC]]] })

  const second = startOn(file, T0 + 60 * SEC)
  expect(second.see(4, T0 + 61 * SEC)).toEqual([])
  const paged = second.see(5, T0 + 62 * SEC)
  expect(paged.map((d) => d.notice.incident.rule)).toEqual(['new-errors'])
  // The kind's count is written at flush (every 5 s), so a kill right after loses it; the rule's count is not.
  expect(paged[0]?.notice.incident.title).toMatch(/^NEW error kind on web-1 \(3x in 1 min\): upstream /)
  expect(readFileSync(file, 'utf8')).toContain(`["p","${waiting?.id ?? ''}"]`)

  // The page is out; the next start's lines of the kind are not new (its incident is not open there).
  const third = startOn(file, T0 + 120 * SEC)
  for (let i = 6; i <= 12; i++) expect(third.see(i, T0 + 120 * SEC + i)).toEqual([])
  expect(third.kept.entries()[0]).toMatchObject({ paged: true, pending: undefined })
})

it('the count keeps only the lines within the window: lines before a restart that fell out of it do not count', () => {
  const file = join(tempDir('kept-kinds-new'), 'kinds.jsonl')
  const first = startOn(file, T0)
  for (let i = 1; i <= 4; i++) first.see(i, T0 + i * SEC)
  const later = startOn(file, T0 + 20 * 60 * SEC)
  expect(later.see(5, T0 + 20 * 60 * SEC)).toEqual([])
  expect(later.kept.entries()[0]?.pending).toEqual([['new-errors', [T0 + 20 * 60 * SEC]]])
})
