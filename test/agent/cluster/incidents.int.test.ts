// The fleet's incident table on a real Redis: two agents' lines add up per incident, per host, and
// a threshold rule's window counts both; peers see each other.
import { expect, it } from 'vitest'
import { createCluster, type Cluster, type FleetSeen } from '../../../agent/cluster'
import { describeWithRedis } from '../../helpers/redis-server'
import { adminClient, clusterConfig, keptLog, redisSuite } from './fixtures'
import { pollUntil } from '../../helpers/poll-until'

describeWithRedis('cluster incident table on a real Redis', () => {
  const suite = redisSuite({ flushAfterEach: true })

  async function agents(): Promise<[Cluster, Cluster]> {
    const [a, b] = ['a', 'b'].map((id) =>
      createCluster(clusterConfig(suite.server.url, id), { log: keptLog(), host: `host-${id}` }),
    ) as [Cluster, Cluster]
    suite.opened(a, b)
    await Promise.all([a.start(), b.start()])
    return [a, b]
  }

  const T = 1_700_000_000_000

  it("both agents' lines of one incident add up, with each host's count and last line", async () => {
    const [a, b] = await agents()
    for (let i = 0; i < 5; i++)
      a.observe('db-down', { rule: 'db', title: 'db down', count: 1, first: T + i, last: T + i })
    b.observe('db-down', { rule: 'db', title: '', count: 3, first: T - 50, last: T + 100 })
    b.observe('disk-full', { rule: 'disk', title: 'disk full', count: 1, first: T + 10, last: T + 10 })
    const incidents = await pollUntil('both flushes', async () => {
      const list = await a.incidents(10)
      return list.find((i) => i.key === 'db-down')?.count === 8 && list.length === 2 ? list : undefined
    })
    // Most recently seen first.
    expect(incidents.map((i) => i.key)).toEqual(['db-down', 'disk-full'])
    expect(incidents[0]).toEqual({
      key: 'db-down',
      rule: 'db',
      title: 'db down',
      count: 8,
      // The earliest line of any host, whichever flushed first.
      first: T - 50,
      last: T + 100,
      status: 'firing',
      ack: undefined,
      hosts: [
        { agent: 'a', count: 5, last: T + 4 },
        { agent: 'b', count: 3, last: T + 100 },
      ],
    })
    expect(await a.incidents(1)).toHaveLength(1)
  })

  it("a threshold incident's window counts both agents' lines, and each flush says so", async () => {
    const [a, b] = await agents()
    const seenByA: FleetSeen[] = []
    a.onFleetSeen((seen) => seenByA.push(...seen))
    b.observe('slow', { rule: 'slow', title: 'slow queries', count: 4, first: T, last: T, windowMs: 60_000 })
    await pollUntil("b's flush", async () => (await b.incidents(10))[0]?.count === 4)
    a.observe('slow', {
      rule: 'slow',
      title: 'slow queries',
      count: 2,
      first: T + 1_000,
      last: T + 1_000,
      windowMs: 60_000,
    })
    const seen = await pollUntil("a's flush", () => seenByA.find((s) => s.key === 'slow'))
    expect(seen).toEqual({ key: 'slow', last: T + 1_000, windowCount: 6 })
    // Lines out of the window no longer count.
    a.observe('slow', {
      rule: 'slow',
      title: 'slow queries',
      count: 1,
      first: T + 120_000,
      last: T + 120_000,
      windowMs: 60_000,
    })
    expect(await pollUntil('the later flush', () => seenByA.find((s) => s.last === T + 120_000))).toEqual({
      key: 'slow',
      last: T + 120_000,
      windowCount: 1,
    })
    // The buckets out of the window are gone from Redis, not only left out of the count.
    const admin = await adminClient(suite.server.url)
    expect(await admin.send(['HKEYS', 'logx:hits:slow'])).toEqual([String((T + 120_000) / 1000)])
    admin.close()
  })

  it('peers see each other', async () => {
    const [a] = await agents()
    const peers = await pollUntil('two peers', async () => {
      const list = await a.peers()
      return list.length === 2 ? list : undefined
    })
    expect(peers.map((p) => [p.agent, p.host, p.pid]).sort()).toEqual([
      ['a', 'host-a', process.pid],
      ['b', 'host-b', process.pid],
    ])
    await pollUntil('the peer count in the stats', () => a.stats().peers === 2)
  })
})
