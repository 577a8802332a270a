// Two agents on one real Redis claim the same notices: one page per notice, fleet-wide.
import { expect, it } from 'vitest'
import { createCluster, type Claim, type Cluster } from '../../../agent/cluster'
import { noticeIdOf } from '../../../agent/delivery/fleet/fleet-gate'
import { describeWithRedis } from '../../helpers/redis-server'
import { adminClient, clusterConfig, keptLog, notice, redisSuite } from './fixtures'
import { pollUntil } from '../../helpers/poll-until'

describeWithRedis('cluster claims on a real Redis', () => {
  const suite = redisSuite({ flushAfterEach: true })

  async function agents(leaseMs = 30_000): Promise<[Cluster, Cluster]> {
    const [a, b] = ['a', 'b'].map((id) =>
      createCluster(clusterConfig(suite.server.url, id, { leaseMs }), { log: keptLog(), host: `host-${id}` }),
    ) as [Cluster, Cluster]
    suite.opened(a, b)
    await Promise.all([a.start(), b.start()])
    return [a, b]
  }

  it('the same notice claimed by both at once: one wins, the other is held, then done once it is sent', async () => {
    const [a, b] = await agents()
    const n = notice()
    const claims = await Promise.all([a.claim(n), b.claim(n)])
    const outcomes = claims.map((c) => c.outcome).sort()
    expect(outcomes).toEqual(['held', 'won'])
    const winner = claims[0].outcome === 'won' ? a : b
    const other = winner === a ? b : a
    const won = (claims[0].outcome === 'won' ? claims[0] : claims[1]) as Extract<Claim, { outcome: 'won' }>
    const held = (claims[0].outcome === 'held' ? claims[0] : claims[1]) as Extract<Claim, { outcome: 'held' }>
    expect(held.by).toBe(winner.agentId)
    expect(held.retryAfterMs).toBeGreaterThan(0)
    expect(won.failover).toBe(false)

    // The mark is announced to every agent listening (the one held wakes its item on it).
    await pollUntil('both listening', () => a.listening() && b.listening())
    const announced = new Promise<string>((resolve) => other.onSent(resolve))
    await winner.sent(n, won)
    expect(await announced).toBe(noticeIdOf(n))
    expect(await other.claim(n)).toEqual({ outcome: 'done', by: winner.agentId })
    expect(await winner.claim(n)).toEqual({ outcome: 'done', by: winner.agentId })
    expect(winner.stats()).toMatchObject({ claimsWon: 1 })
    expect(other.stats()).toMatchObject({ claimsHeld: 1, claimsLost: 1 })
  })

  it('the claims and marks of one turn are one script call each, every notice answered on its own', async () => {
    const [a, b] = await agents()
    const admin = await adminClient(suite.server.url)
    const scriptCalls = async (): Promise<number> => {
      const info = String(await admin.send(['INFO', 'commandstats']))
      return ['evalsha', 'eval'].reduce(
        (sum, name) => sum + Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0),
        0,
      )
    }
    await b.claim(notice({ incident: 'taken' }))
    const before = await scriptCalls()
    const notices = ['taken', 'free-1', 'free-2'].map((incident) => notice({ incident }))
    const claims = await Promise.all(notices.map((n) => a.claim(n)))
    expect(claims.map((c) => c.outcome)).toEqual(['held', 'won', 'won'])
    await Promise.all(notices.slice(1).map((n, i) => a.sent(n, claims[i + 1] as Claim)))
    expect((await scriptCalls()) - before).toBe(2)
    expect((await b.claim(notices[1] as (typeof notices)[number])).outcome).toBe('done')
    admin.close()
  })

  it('two fleets on one Redis under their own key_prefix share nothing: each sends the same notice once', async () => {
    const fleetOf = (prefix: string, id: string): Cluster => {
      const base = clusterConfig(suite.server.url, id)
      const cluster = createCluster({ ...base, redis: { ...base.redis, keyPrefix: prefix } }, { log: keptLog() })
      suite.opened(cluster)
      return cluster
    }
    const [blue, green, blue2] = [fleetOf('blue:', 'a'), fleetOf('green:', 'b'), fleetOf('blue:', 'c')]
    await Promise.all([blue.start(), green.start(), blue2.start()])
    const n = notice()
    const [inBlue, inGreen] = [await blue.claim(n), await green.claim(n)]
    expect([inBlue.outcome, inGreen.outcome]).toEqual(['won', 'won'])
    await blue.sent(n, inBlue)
    // The other agent of the blue fleet sees blue's claim; green's agent never did.
    expect(await blue2.claim(n)).toEqual({ outcome: 'done', by: 'a' })
  })

  it('a claim whose holder never sends is taken over after the lease, with the same idempotency key', async () => {
    const [a, b] = await agents(300)
    const n = notice({ kind: 'escalated', step: '1' })
    const first = await a.claim(n)
    expect(first.outcome).toBe('won')
    const taken = await pollUntil('the lease to run out', async () => {
      const claim = await b.claim(n)
      if (claim.outcome === 'held') expect(claim.retryAfterMs).toBeLessThanOrEqual(300)
      return claim.outcome === 'won' ? claim : undefined
    })
    expect(taken).toEqual({
      outcome: 'won',
      failover: true,
      idempotencyKey: (first as { idempotencyKey: string }).idempotencyKey,
    })
    expect(b.stats().failovers).toBe(1)
    await b.sent(n, taken)
    expect(await a.claim(n)).toEqual({ outcome: 'done', by: 'b' })
  })

  it('repeats go out at most once per repeat interval, fleet-wide', async () => {
    const [a, b] = await agents()
    const repeat = notice({ kind: 'repeat', step: '', windowMs: 400 })
    const first = await a.claim(repeat)
    expect(first.outcome).toBe('won')
    await a.sent(repeat, first)
    expect(await b.claim(repeat)).toEqual({ outcome: 'done', by: 'a' })
    expect(await a.claim(repeat)).toEqual({ outcome: 'done', by: 'a' })
    // Once the interval is over, the next repeat is claimed afresh, under a new key.
    const next = await pollUntil('the repeat interval to pass', async () => {
      const claim = await b.claim(repeat)
      return claim.outcome === 'won' ? claim : undefined
    })
    expect(next).toMatchObject({ outcome: 'won', failover: false })
    expect((next as { idempotencyKey: string }).idempotencyKey).not.toBe(
      (first as { idempotencyKey: string }).idempotencyKey,
    )
  })

  it('a won resolve closes the generation: the next firing is a new one, with a new key', async () => {
    const [a, b] = await agents()
    const firing = notice()
    const opened = await a.claim(firing)
    await a.sent(firing, opened)
    const resolved = notice({ kind: 'resolved', step: '' })
    const resolve = await b.claim(resolved)
    expect(resolve.outcome).toBe('won')
    await b.sent(resolved, resolve)
    // The other agent's resolve of the same opening is the one already sent.
    expect(await a.claim(resolved)).toEqual({ outcome: 'done', by: 'b' })
    const reopened = await pollUntil('a new generation (server ms)', async () => {
      const claim = await a.claim(firing)
      return claim.outcome === 'won' ? claim : undefined
    })
    expect((reopened as { idempotencyKey: string }).idempotencyKey).not.toBe(
      (opened as { idempotencyKey: string }).idempotencyKey,
    )
    expect(await b.claim(firing)).toMatchObject({ outcome: 'held', by: 'a' })
  })

  it('an incident acknowledged through one agent: repeats and escalations claimed by the other are acked, until an unack', async () => {
    const [a, b] = await agents()
    const firing = notice()
    a.observe('db-down', { rule: 'db', title: 'db down', count: 1, first: 1_700_000_000_000, last: 1_700_000_000_000 })
    await pollUntil('the incident in the fleet table', async () => (await b.incidents(10)).length === 1)
    await a.sent(firing, await a.claim(firing))
    await a.publish({ type: 'ack', key: 'db-down', actor: { by: 'asha', via: 'cli' }, at: 1_700_000_001_000 })
    const escalation = notice({ kind: 'escalated', step: '1' })
    expect(await b.claim(escalation)).toEqual({
      outcome: 'acked',
      by: 'asha',
      ack: { by: 'asha', via: 'cli', at: 1_700_000_001_000 },
    })
    expect(await b.claim(notice({ kind: 'repeat', step: '', windowMs: 60_000 }))).toMatchObject({
      outcome: 'acked',
      by: 'asha',
    })
    expect(b.stats().acked).toBe(2)
    expect(await b.incidents(10)).toMatchObject([
      { key: 'db-down', status: 'acknowledged', ack: { by: 'asha', via: 'cli' } },
    ])

    await a.publish({ type: 'unack', key: 'db-down', actor: { by: 'asha', via: 'cli' }, at: 1_700_000_002_000 })
    expect(await b.claim(escalation)).toMatchObject({ outcome: 'won' })
    expect(await b.incidents(10)).toMatchObject([{ key: 'db-down', status: 'firing', ack: undefined }])
    // A resolve by hand closes the opening: the next firing is a new generation.
    await a.publish({ type: 'resolve', key: 'db-down', actor: { by: 'asha', via: 'cli' }, at: 1_700_000_003_000 })
    expect(await b.incidents(10)).toMatchObject([{ key: 'db-down', status: undefined, ack: undefined }])
    const reopened = await pollUntil('a new generation', async () => {
      const claim = await b.claim(firing)
      return claim.outcome === 'won' ? claim : undefined
    })
    expect(reopened.outcome).toBe('won')
  })
})
