// Shared actions between two agents on a real Redis: each reads the other's, in order, and what it
// missed while its connection was down.
import { expect, it } from 'vitest'
import { createCluster, type Cluster, type ReceivedAction } from '../../../agent/cluster'
import { describeWithRedis } from '../../helpers/redis-server'
import { adminClient, clusterConfig, keptLog, redisSuite, type KeptLog } from './fixtures'
import { pollUntil } from '../../helpers/poll-until'

const users = [
  { name: 'ay', password: 'pa-ay' },
  { name: 'bee', password: 'pa-bee' },
]

describeWithRedis('cluster shared actions on a real Redis', () => {
  const suite = redisSuite({ users })

  async function agent(id: 'a' | 'b'): Promise<{ cluster: Cluster; received: ReceivedAction[]; log: KeptLog }> {
    const user = id === 'a' ? users[0] : users[1]
    const log = keptLog()
    const cluster = createCluster(
      clusterConfig(suite.server.url, id, { username: user?.name, password: user?.password }),
      { log },
    )
    suite.opened(cluster)
    const received: ReceivedAction[] = []
    cluster.onAction((action) => received.push(action))
    await cluster.start()
    return { cluster, received, log }
  }

  const ack = (key: string, at: number) => ({
    type: 'ack' as const,
    key,
    actor: { by: 'asha', via: 'console' as const },
    at,
  })

  it("each agent receives the other's actions, in order, and not its own", async () => {
    const a = await agent('a')
    const b = await agent('b')
    await b.cluster.publish(ack('from-b', 1))
    await pollUntil('a to read b', () => a.received.length === 1)
    await a.cluster.publish(ack('k1', 10))
    await a.cluster.publish({
      type: 'silence',
      silence: {
        id: 's1',
        matchers: { rule: 'db' },
        startsAt: 1,
        endsAt: Date.now() + 60_000,
        comment: 'deploy',
        createdBy: 'asha',
      },
      at: 11,
    })
    await a.cluster.publish({ type: 'resolve', key: 'k1', actor: { by: 'asha', via: 'cli' }, at: 12, id: 'chosen-id' })
    await pollUntil('b to read three actions', () => b.received.length === 3)
    expect(b.received.map((r) => [r.type, r.agent, r.at])).toEqual([
      ['ack', 'a', 10],
      ['silence', 'a', 11],
      ['resolve', 'a', 12],
    ])
    expect(b.received[2]?.id).toBe('chosen-id')
    expect(a.received.map((r) => r.agent)).toEqual(['b'])
    expect((await b.cluster.silences()).map((s) => s.id)).toEqual(['s1'])
    await b.cluster.publish({ type: 'expire-silence', silenceId: 's1', at: 13 })
    expect(await a.cluster.silences()).toEqual([])
    // Every action and the state it changes went through (a refused one would be logged).
    expect(a.log.lines.filter((l) => l.level === 'error')).toEqual([])
  })

  it('after its connections were dropped, an agent reads the actions it missed, once each', async () => {
    const a = await agent('a')
    const b = await agent('b')
    await a.cluster.publish(ack('before', 1))
    await pollUntil('b to read the first', () => b.received.length === 1)

    // b is cut off and cannot come back (its user is off) while a acts.
    const admin = await adminClient(suite.server.url, { username: 'ay', password: 'pa-ay' })
    await admin.send(['ACL', 'SETUSER', 'bee', 'off'])
    await admin.send(['CLIENT', 'KILL', 'USER', 'bee'])
    await pollUntil('b to see Redis gone', () => b.cluster.status().status === 'degraded')
    await a.cluster.publish(ack('missed-1', 2))
    await a.cluster.publish(ack('missed-2', 3))
    expect(b.received).toHaveLength(1)

    await admin.send(['ACL', 'SETUSER', 'bee', 'on'])
    admin.close()
    await pollUntil('b to read what it missed', () => b.received.length === 3)
    expect(b.received.map((r) => r.type === 'ack' && r.key)).toEqual(['before', 'missed-1', 'missed-2'])
    expect(b.cluster.status().status).toBe('up')
    expect(b.cluster.stats().reconnects).toBeGreaterThanOrEqual(1)
  })
})
