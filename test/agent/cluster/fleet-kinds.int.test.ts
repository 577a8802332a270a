// The fleet's kinds on a real Redis (agent/cluster/fleet-kinds.ts): two agents, each with its own kind
// table kept in its own kinds.jsonl. A kind one agent met is known to the other after an exchange,
// so the other's table does not find it new; counts add up; a restart merges nothing twice; the
// first to claim a kind holds it.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createKindMiner, createKindTable } from '../../../alerts/kinds'
import { parseLine } from '../../../alerts/line'
import { createCluster, type Cluster } from '../../../agent/cluster'
import { keepKinds } from '../../../agent/kinds/kept-kinds'
import { openKindStore } from '../../../agent/kinds'
import { describeWithRedis } from '../../helpers/redis-server'
import { tempDir } from '../../helpers/temp-dir'
import { pollUntil } from '../../helpers/poll-until'
import { adminClient, clusterConfig, keptLog, redisSuite } from './fixtures'

const T0 = 1_700_000_000_000
const LINE = 'ERROR db: connection refused to 10.0.0.1:5432'

describeWithRedis('fleet kinds on a real Redis', () => {
  const suite = redisSuite({ flushAfterEach: true })

  async function agent(id: string, dir: string) {
    const cluster: Cluster = createCluster(clusterConfig(suite.server.url, id), { log: keptLog(), host: id })
    suite.opened(cluster)
    await cluster.start()
    const store = openKindStore({ file: join(dir, `${id}.jsonl`), now: T0 })
    const table = createKindTable({ max: 100, learnMs: 0 })
    const kept = keepKinds({
      store,
      table,
      miner: createKindMiner({ max: 100 }),
      onError: (err) => {
        throw err
      },
      onNew: (entry) => cluster.kinds.claim(entry),
    })
    kept.shareCounts()
    const see = (raw: string, at: number) => {
      const line = parseLine(raw, 'app')
      return kept.table.observe(kept.miner.mine(line), line, at, id)
    }
    const exchange = async (at: number) => {
      await cluster.kinds.exchange(kept, store, at)
      kept.flush()
    }
    return { cluster, store, kept, see, exchange }
  }

  it('a kind met on one host is not new on the other once exchanged; counts add up', async () => {
    const dir = tempDir('fleet-kinds')
    const [a, b] = [await agent('a', dir), await agent('b', dir)]
    const first = a.see(LINE, T0)
    expect(first.isNew).toBe(true)
    a.see(LINE.replace('10.0.0.1', '10.0.0.2'), T0 + 1)
    await pollUntil('the claim won', () => a.cluster.kinds.stats().claims.won === 1)
    await a.exchange(T0 + 2)
    await b.exchange(T0 + 3)
    expect(b.cluster.kinds.stats().merged).toBe(1)
    const onB = b.see(LINE.replace('10.0.0.1', '10.9.9.9'), T0 + 4)
    expect(onB.isNew).toBe(false)
    expect(onB.entry.id).toBe(first.entry.id)
    expect(onB.entry.count).toBe(3)
    expect(onB.entry.hosts).toEqual(['b', 'a'])
    const admin = await adminClient(suite.server.url)
    try {
      expect(await admin.send(['GET', `logx:kind:${first.entry.id}`])).toBe('a')
    } finally {
      admin.close()
    }
  })

  it('a restart reads on from its cursor: what it merged is not merged twice', async () => {
    const dir = tempDir('fleet-kinds')
    const [a, b] = [await agent('a', dir), await agent('b', dir)]
    a.see(LINE, T0)
    await a.exchange(T0 + 1)
    await b.exchange(T0 + 2)
    b.store.close()
    await b.cluster.close()
    const again = await agent('b', dir)
    expect(again.store.fleetCursor).toBeDefined()
    await again.exchange(T0 + 3)
    expect(again.cluster.kinds.stats().merged).toBe(0)
    expect(again.kept.entries()[0]?.count).toBe(1)
  })

  it('the same kind met on both hosts: one claim wins, the other finds it known', async () => {
    const dir = tempDir('fleet-kinds')
    const [a, b] = [await agent('a', dir), await agent('b', dir)]
    a.see(LINE, T0)
    b.see(LINE, T0)
    await pollUntil('both claims answered', () => {
      const claims = [a, b].map((x) => x.cluster.kinds.stats().claims)
      return claims.reduce((sum, c) => sum + c.won + c.known, 0) === 2
    })
    const won = [a, b].map((x) => x.cluster.kinds.stats().claims.won)
    expect(won.sort()).toEqual([0, 1])
  })
})
