// Kinds the miner merged, kept in a real kinds file (agent/kinds/kept-kinds.ts): after a restart the
// absorbed kind is not a kind of its own again (the file may still hold its last record), and its lines
// go to the kind that absorbed it, known, never new.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKindMiner, createKindTable } from '../../../alerts/kinds'
import { parseLine } from '../../../alerts/line'
import { openKindStore } from '../../../agent/kinds'
import { keepKinds } from '../../../agent/kinds/kept-kinds'
import { tempDir } from '../../helpers/temp-dir'

const T0 = 1_700_000_000_000
const su = (user: string) => `Jun 15 04:06:18 combo su(pam_unix)[21416]: session opened for user ${user} by (uid=0)`

function start(file: string, now: number) {
  const store = openKindStore({ file, now })
  const table = createKindTable({ max: 100, learnMs: 0 })
  const errors: unknown[] = []
  const kept = keepKinds({ store, table, miner: createKindMiner({ max: 100 }), onError: (e) => errors.push(e) })
  const see = (user: string, at: number) => {
    const line = parseLine(su(user), 'linux')
    return kept.table.observe(kept.miner.mine(line), line, at, 'web-1')
  }
  return { store, kept, see, errors }
}

const fileIn = (): string => join(tempDir('kept-kinds-fold'), 'kinds.jsonl')

describe('a merged kind kept in state_dir', () => {
  it('a restart reads one kind (the absorbed record left in the file folded once), and a news line counts on it', () => {
    const file = fileIn()
    const first = start(file, T0)
    const seen = ['cyrus', 'news', 'cyrus', 'news', 'root'].map((user, i) => first.see(user, T0 + i))
    const [cyrusId, newsId] = [seen[0]?.entry.id ?? '', seen[1]?.entry.id ?? '']
    // Both were new when met, so both are in the file whole; the fold writes the survivor whole.
    first.kept.flush()
    first.store.close()
    expect(readFileSync(file, 'utf8')).toContain(`"id":"${newsId}"`)

    const again = start(file, T0 + 60_000)
    expect(again.kept.entries()).toHaveLength(1)
    expect(again.kept.entries()[0]).toMatchObject({ id: cyrusId, count: 5 })
    expect(again.kept.stats()).toMatchObject({ kinds: 1, restored: 1 })
    const news = again.see('news', T0 + 60_000)
    expect(news.isNew).toBe(false)
    expect(news.entry).toMatchObject({ id: cyrusId, count: 6 })
    expect(again.kept.miner.resolve('linux', newsId)).toBe(cyrusId)
    expect(again.errors).toEqual([])
  })

  it("a rule's count and page on an absorbed id are written under the survivor's id", () => {
    const file = fileIn()
    const first = start(file, T0)
    const seen = ['cyrus', 'news', 'root'].map((user, i) => first.see(user, T0 + i))
    const newsId = seen[1]?.entry.id ?? ''
    const cyrusId = seen[0]?.entry.id ?? ''
    // Folded here at once: cyrus, news and root show the three values rule 3 of miner-tree.ts waits for.
    expect(first.kept.entries().map((e) => e.id)).toEqual([cyrusId])
    first.kept.table.waiting(newsId, 'new-errors', [T0])
    first.kept.table.paged(newsId)
    const text = readFileSync(file, 'utf8')
    expect(text).toContain(JSON.stringify(['w', cyrusId, 'new-errors', [T0]]))
    expect(text).toContain(JSON.stringify(['p', cyrusId]))
  })
})
