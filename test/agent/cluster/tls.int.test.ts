// Redis over TLS (a rediss:// URL): with the server's certificate as the CA the fleet connects and
// claims; with Node's CAs only, the self-signed certificate is refused, and the agent says why while
// it pages on its own (degraded) instead of talking to a server it cannot verify.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createCluster, type Cluster } from '../../../agent/cluster'
import { describeWithRedis } from '../../helpers/redis-server'
import { clusterConfig, keptLog, notice, redisSuite } from './fixtures'

const fixtures = join(__dirname, '../../fixtures/tls')
const certFile = join(fixtures, 'redis-cert.pem')

describeWithRedis('cluster over TLS on a real Redis', () => {
  const suite = redisSuite({ tls: { certFile, keyFile: join(fixtures, 'redis-key.pem') } })

  it("with the server's certificate as the CA: connected, and claims work", async () => {
    expect(suite.server.url).toMatch(/^rediss:/)
    const tls = { ca: readFileSync(certFile, 'utf8'), cert: undefined, key: undefined, rejectUnauthorized: true }
    const cluster = createCluster(
      clusterConfig(suite.server.url, 'a', {
        redis: { url: suite.server.url, keyPrefix: 'logx:', username: undefined, password: undefined, tls },
      }),
      { log: keptLog() },
    )
    suite.opened(cluster)
    await cluster.start()
    expect(cluster.status().status).toBe('up')
    expect((await cluster.claim(notice())).outcome).toBe('won')
  })

  it('a certificate that does not verify: degraded, saying why, never up', async () => {
    const tls = { ca: undefined, cert: undefined, key: undefined, rejectUnauthorized: true }
    const cluster = createCluster(
      clusterConfig(suite.server.url, 'b', {
        redis: { url: suite.server.url, keyPrefix: 'logx:', username: undefined, password: undefined, tls },
      }),
      { log: keptLog() },
    )
    suite.opened(cluster)
    await cluster.start()
    expect(cluster.status().status).toBe('degraded')
    expect(cluster.status().reason).toMatch(/certificate/i)
    expect((await cluster.claim(notice())).outcome).toBe('degraded')
  })
})
