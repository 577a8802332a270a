// per-line-ids.ts's rules: a line keeps an index (1), resolved once at the end (2), and the held
// ids and lines are bounded on a flood of distinct lines (3).
import { describe, expect, it } from 'vitest'
import { createKindMiner, type KindMiner } from '../../../alerts/kinds'
import { createChunkedOutput } from '../../../agent/cli/kinds/chunked-output'
import { createPerLineIds } from '../../../agent/cli/kinds/per-line-ids'
import { parseLine } from '../../../alerts/line'

function setup(miner: KindMiner, maxIds = 1000, maxLines = 1000) {
  let written = ''
  const output = createChunkedOutput({ write: (text: string) => (written += text) })
  const ids = createPerLineIds(miner, output, { maxIds, maxLines })
  const mine = (raw: string, lines = 1): void => ids.add(undefined, miner.mine(parseLine(raw)).id, lines)
  const text = async (): Promise<string[]> => {
    await ids.write()
    await output.flush()
    return written.trimEnd().split('\n')
  }
  return { ids, mine, text }
}

describe('per-line ids', () => {
  it('rule 1: one table entry per distinct id, one index per line (a multi-line event repeats it)', () => {
    const { ids, mine } = setup(createKindMiner({ max: 100 }))
    mine('disk full on sda', 3)
    mine('disk full on sda')
    mine('fan stopped')
    expect(ids.held()).toEqual({ ids: 2, lines: 5 })
  })

  it('rule 2: at the end each line answers its kind as it stands (a merge after it included)', async () => {
    const miner = createKindMiner({ max: 100 })
    const { mine, text } = setup(miner)
    mine('session of alice opened')
    mine('session of bob opened')
    mine('session of carol opened')
    const out = await text()
    expect(out).toHaveLength(3)
    expect(new Set(out).size).toBe(1)
  })

  it('rule 3: a flood of distinct lines is written as the table fills, holding at most the bound', async () => {
    const miner = createKindMiner({ max: 50 })
    const { ids, mine, text } = setup(miner, 200, 100_000)
    let most = 0
    for (let i = 0; i < 5000; i++) {
      mine(`${Math.random().toString(36).slice(2)} ${Math.random().toString(36).slice(2)} q`)
      if (ids.full()) await ids.write()
      most = Math.max(most, ids.held().ids)
    }
    expect(most).toBeLessThanOrEqual(200)
    expect(await text()).toHaveLength(5000)
  })

  it('rule 3: lines past maxLines are written too, in order', async () => {
    const { ids, mine, text } = setup(createKindMiner({ max: 10 }), 1000, 10)
    for (let i = 0; i < 25; i++) {
      mine(i % 2 === 0 ? 'even line' : 'odd line')
      if (ids.full()) await ids.write()
      expect(ids.held().lines).toBeLessThanOrEqual(10)
    }
    const out = await text()
    expect(out).toHaveLength(25)
    expect(out[0]).toBe(out[24])
    expect(out[0]).not.toBe(out[1])
  })
})
