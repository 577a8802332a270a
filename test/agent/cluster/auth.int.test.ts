// A Redis with an ACL user: the right user and password connect; a wrong password stops the start
// with an error that names the config keys and never the password.
import { expect, it } from 'vitest'
import { createCluster, type Cluster } from '../../../agent/cluster'
import { ClusterError } from '../../../agent/cluster/errors'
import { describeWithRedis } from '../../helpers/redis-server'
import { clusterConfig, keptLog, notice, redisSuite } from './fixtures'

describeWithRedis('cluster authentication on a real Redis', () => {
  const password = 'correct-horse-battery'

  const suite = redisSuite({ users: [{ name: 'logx', password }] })

  it('the right user and password work', async () => {
    const cluster = createCluster(clusterConfig(suite.server.url, 'a', { username: 'logx', password }), { log: keptLog() })
    suite.opened(cluster)
    await cluster.start()
    expect(cluster.status().status).toBe('up')
    expect((await cluster.claim(notice())).outcome).toBe('won')
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
