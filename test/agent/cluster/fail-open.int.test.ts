// Redis killed under two agents: they page on their own (fail open), say why, count it, and once it
// is back they merge what they did meanwhile without paging it again.
import { expect, it } from 'vitest'
import {
  createCluster,
  idempotencyKey,
  type Cluster,
  type ClusterStatus,
  type ReceivedAction,
} from '../../../agent/cluster'
import { describeWithRedis } from '../../helpers/redis-server'
import { clusterConfig, keptLog, notice, redisSuite } from './fixtures'
import { pollUntil } from '../../helpers/poll-until'

describeWithRedis('cluster failing open on a real Redis', () => {
  const suite = redisSuite()

  function agent(id: string, statuses: ClusterStatus[] = []): Cluster {
    const cluster = createCluster(clusterConfig(suite.server.url, id), {
      log: keptLog(),
      onStatus: (s) => statuses.push(s),
    })
    suite.opened(cluster)
    return cluster
  }

  it('an agent busy past the command timeout takes the answer that came meanwhile, not a false timeout', async () => {
    const a = agent('a')
    await a.start()
    const pending = a.claim(notice({ incident: 'busy-loop' }))
    // One turn so the command is written; then the event loop is held three timeouts long (a long
    // catch-up read), while Redis answers at once.
    await new Promise((resolve) => setImmediate(resolve))
    const busyUntil = Date.now() + 3 * 500
    while (Date.now() < busyUntil) {
      // Busy on purpose: no event can be awaited in a blocked loop.
    }
    expect((await pending).outcome).toBe('won')
    expect(a.stats()).toMatchObject({ status: 'up', degradedSends: 0 })
  })

  it('while Redis is down, claims are degraded with a local key; on its return the sends are merged and not paged again', async () => {
    const statuses: ClusterStatus[] = []
    const a = agent('a', statuses)
    const b = agent('b')
    const fromA: ReceivedAction[] = []
    b.onAction((action) => fromA.push(action))
    await Promise.all([a.start(), b.start()])
    expect(a.status().status).toBe('up')

    await suite.server.kill('SIGKILL')
    await pollUntil('a to see Redis gone', () => a.status().status === 'degraded')
    expect(a.status().reason).toMatch(/^Redis unreachable: /)

    const n = notice({ incident: 'while-down', firedAt: 1_700_000_000_555 })
    const claim = await a.claim(n)
    expect(claim).toEqual({
      outcome: 'degraded',
      idempotencyKey: idempotencyKey(n, '1700000000555'),
      reason: a.status().reason,
    })
    await a.sent(n, claim)
    a.observe('while-down', {
      rule: 'db',
      title: 'db down',
      count: 2,
      first: 1_700_000_000_000,
      last: 1_700_000_000_500,
    })
    a.observe('while-down', {
      rule: 'db',
      title: 'db down',
      count: 3,
      first: 1_700_000_000_600,
      last: 1_700_000_000_900,
    })
    await a.publish({ type: 'ack', key: 'while-down', actor: { by: 'asha', via: 'console' }, at: 1_700_000_001_000 })
    expect(a.stats()).toMatchObject({ status: 'degraded', degradedSends: 1, degradedEpisodes: 1, peers: 0 })

    // Restarted empty (no persistence): what a did meanwhile is written again from a's memory.
    await suite.server.restart()
    await pollUntil('both agents to reconnect', () => a.status().status === 'up' && b.status().status === 'up')
    await pollUntil('the sent mark to be merged', () => a.stats().merged === 1)
    expect(await b.claim(n)).toEqual({ outcome: 'done', by: 'a' })
    const [incident] = await pollUntil('the kept deltas, merged into one', async () => {
      const list = await b.incidents(10)
      return list.length > 0 ? list : undefined
    })
    expect(incident).toMatchObject({
      key: 'while-down',
      count: 5,
      first: 1_700_000_000_000,
      last: 1_700_000_000_900,
      status: 'acknowledged',
    })
    await pollUntil("b to read a's ack made while Redis was down", () => fromA.length === 1)
    expect(fromA[0]).toMatchObject({ type: 'ack', key: 'while-down', agent: 'a' })

    expect(statuses.map((s) => s.status)).toEqual(['up', 'degraded', 'up'])
    expect(a.stats()).toMatchObject({ status: 'up', reconnects: 1, degradedEpisodes: 1 })
  })

  it('a Redis that stops answering: claims time out into degraded, and the next answer brings the status back', async () => {
    const a = agent('a')
    await a.start()
    process.kill(suite.server.pid, 'SIGSTOP')
    try {
      const claim = await a.claim(notice({ incident: 'hung' }))
      expect(claim.outcome).toBe('degraded')
      expect(a.status()).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/^Redis unreachable: /) })
    } finally {
      process.kill(suite.server.pid, 'SIGCONT')
    }
    const next = await pollUntil('a claim answered again', async () => {
      const claim = await a.claim(notice({ incident: 'hung-2' }))
      return claim.outcome === 'won' ? claim : undefined
    })
    expect(next.outcome).toBe('won')
    expect(a.status().status).toBe('up')
  })

  it('an agent started while Redis is unreachable starts degraded and comes up with it', async () => {
    await suite.server.kill('SIGKILL')
    const c = agent('c')
    await c.start()
    expect(c.status()).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/ECONNREFUSED/) })
    expect((await c.claim(notice())).outcome).toBe('degraded')
    await suite.server.restart()
    await pollUntil('c to connect', () => c.status().status === 'up')
    expect((await c.claim(notice({ incident: 'after' }))).outcome).toBe('won')
  })
})
