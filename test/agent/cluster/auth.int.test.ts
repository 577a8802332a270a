// A Redis with an ACL user: the right user and password connect; a wrong password stops the start
// with an error that names the config keys and never the password.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createCluster, type Cluster } from '../../../agent/cluster'
import { ClusterError } from '../../../agent/cluster/errors'
import { describeWithRedis, startRedisServer, type RedisServer } from '../../helpers/redis-server'
import { clusterConfig, keptLog, notice } from './fixtures'

describeWithRedis('cluster authentication on a real Redis', () => {
  let server: RedisServer
  let open: Cluster[] = []
  const password = 'correct-horse-battery'

  beforeAll(async () => {
    server = await startRedisServer({ users: [{ name: 'logx', password }] })
  })
  afterAll(async () => {
    await server?.stop()
  })
  afterEach(async () => {
    await Promise.all(open.map((c) => c.close()))
    open = []
  })

  it('the right user and password work', async () => {
    const cluster = createCluster(clusterConfig(server.url, 'a', { username: 'logx', password }), { log: keptLog() })
    open.push(cluster)
    await cluster.start()
    expect(cluster.status().status).toBe('up')
    expect((await cluster.claim(notice())).outcome).toBe('won')
  })

  it.each([
    ['a wrong password', { username: 'logx', password: 'wrong-password-123' }],
    ['no credentials', {}],
  ])('%s: start() rejects with LOGX_CLUSTER_ERR_AUTH naming the keys, not the password', async (_name, credentials) => {
    const log = keptLog()
    const cluster = createCluster(clusterConfig(server.url, 'a', credentials), { log })
    open.push(cluster)
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
