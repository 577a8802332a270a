// A Redis with an ACL user: the right user and password connect; a wrong password stops the start
// with an error that names the config keys and never the password.
import { expect, it } from 'vitest'
import { createCluster, type Cluster } from '../../../agent/cluster'
import { ClusterError } from '../../../agent/cluster/errors'
import { describeWithRedis } from '../../helpers/redis-server'
import { adminClient, clusterConfig, keptLog, notice, redisSuite } from './fixtures'
import { pollUntil } from '../../helpers/poll-until'

describeWithRedis('cluster authentication on a real Redis', () => {
  const password = 'correct-horse-battery'

  const suite = redisSuite({ users: [{ name: 'logx', password }] })

  it('the right user and password work', async () => {
    const cluster = createCluster(clusterConfig(suite.server.url, 'a', { username: 'logx', password }), {
      log: keptLog(),
    })
    suite.opened(cluster)
    await cluster.start()
    expect(cluster.status().status).toBe('up')
    expect((await cluster.claim(notice())).outcome).toBe('won')
  })

  it('the least-privilege user agent/cluster/README.md gives does everything a fleet does', async () => {
    const admin = await adminClient(suite.server.url, { username: 'logx', password })
    const rights =
      '~logx:* &logx:sent +@read +@write +@scripting +@stream +@pubsub +@transaction +time +ping +client|setname'
    await admin.send(['ACL', 'SETUSER', 'least', 'on', '>least-secret-1', ...rights.split(' ')])
    admin.close()
    const [a, b] = ['a', 'b'].map((id) =>
      createCluster(clusterConfig(suite.server.url, id, { username: 'least', password: 'least-secret-1' }), {
        log: keptLog(),
      }),
    ) as [Cluster, Cluster]
    suite.opened(a, b)
    await Promise.all([a.start(), b.start()])
    await pollUntil('both listening for sent marks', () => a.listening() && b.listening())
    const n = notice({ incident: 'acl-check' })
    const claim = await a.claim(n)
    expect(claim.outcome).toBe('won')
    const announced = new Promise<string>((resolve) => b.onSent(resolve))
    await a.sent(n, claim)
    await announced
    const seen = new Promise((resolve) => a.onFleetSeen(resolve))
    a.observe('acl-check', { rule: 'r', title: 'acl check', count: 2, first: 1, last: 2, windowMs: 60_000 })
    await seen
    await a.publish({ type: 'ack', key: 'acl-check', actor: { by: 'asha', via: 'cli' }, at: 5 })
    expect(await b.claim({ ...n, kind: 'repeat', step: '' })).toMatchObject({ outcome: 'acked', by: 'asha' })
    expect((await a.incidents(5)).map((i) => i.key)).toEqual(['acl-check'])
    expect((await a.peers()).length).toBe(2)
    expect(await a.leads.claim('acl-check', 'lx-lead', true)).toMatchObject({ kind: 'create' })
    await a.leads.created('acl-check', 'lead-1')
    expect(await b.leads.claim('acl-check', 'lx-lead', false)).toMatchObject({ kind: 'lead', leadId: 'lead-1' })
    expect(a.status().status).toBe('up')
  })

  it.each([
    ['a wrong password', { username: 'logx', password: 'wrong-password-123' }],
    ['no credentials', {}],
  ])('%s: start() rejects with LOGX_CLUSTER_ERR_AUTH naming the keys, not the password', async (_name, credentials) => {
    const log = keptLog()
    const cluster = createCluster(clusterConfig(suite.server.url, 'a', credentials), { log })
    suite.opened(cluster)
    const err = await cluster.start().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(ClusterError)
    expect(err).toMatchObject({ code: 'LOGX_CLUSTER_ERR_AUTH' })
    const message = (err as Error).message
    expect(message).toContain('cluster.redis.password_file')
    expect(message).toContain('cluster.redis.username')
    for (const secret of [password, 'wrong-password-123']) {
      expect(message).not.toContain(secret)
      expect(log.text()).not.toContain(secret)
    }
  })
})
