// What the cluster suites share: a config for an agent on a test Redis, a log that keeps what it is
// told, polling with a deadline, and a plain client for what a test does to Redis behind the agents.
import { createClient } from '@redis/client'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createSecret } from '../../../agent/config/values/secret'
import type { ClusterConfig } from '../../../agent/config/types'
import type { DeliveryLog } from '../../../agent/delivery/types'
import type { Cluster, FleetNotice } from '../../../agent/cluster'
import { startRedisServer, type RedisServer, type RedisServerOptions } from '../../helpers/redis-server'

export function clusterConfig(
  url: string,
  agentId: string,
  overrides: Partial<ClusterConfig> & { username?: string; password?: string } = {},
): ClusterConfig {
  const { username, password, ...rest } = overrides
  return {
    agentId,
    redis: {
      url,
      keyPrefix: 'logx:',
      username,
      password: password === undefined ? undefined : createSecret(password),
      tls: undefined,
    },
    leaseMs: 30_000,
    heartbeatMs: 200,
    flushMs: 50,
    commandTimeoutMs: 500,
    ...rest,
  }
}

export interface KeptLog extends DeliveryLog {
  lines: { level: string; fields: Record<string, unknown>; message: string }[]
  text(): string
}

export function keptLog(): KeptLog {
  const lines: KeptLog['lines'] = []
  const keep = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void lines.push({ level, fields, message })
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error'), text: () => JSON.stringify(lines) }
}

export function notice(overrides: Partial<FleetNotice> = {}): FleetNotice {
  return {
    incident: 'db-down',
    kind: 'firing',
    step: '0',
    channel: 'sms',
    part: 0,
    firedAt: 1_700_000_000_000,
    ...overrides,
  }
}

/** A connection for the test itself (CLIENT KILL, ACL SETUSER, reading keys). */
export async function adminClient(url: string, auth: { username?: string; password?: string } = {}) {
  const client = createClient({ url, ...auth, RESP: 2 })
  client.on('error', () => undefined)
  await client.connect()
  return {
    send: (args: string[]) => client.sendCommand(args) as Promise<unknown>,
    close: () => client.destroy(),
  }
}

/** A suite's own redis-server and the clusters its tests open (see redisSuite). */
export interface RedisSuite {
  /** Started before the suite's first test, stopped after its last. */
  readonly server: RedisServer
  /** Closes `cluster` after the test that opened it. */
  opened(...clusters: Cluster[]): void
}

/**
 * The set-up every cluster suite shares, registered on the calling describe(): a real redis-server
 * (with `options`), the clusters a test opened closed after it, and with `flushAfterEach` the keys
 * they wrote removed, so the next test starts on an empty Redis.
 */
export function redisSuite(options: RedisServerOptions & { flushAfterEach?: boolean } = {}): RedisSuite {
  const { flushAfterEach = false, ...serverOptions } = options
  let server: RedisServer | undefined
  let open: Cluster[] = []
  beforeAll(async () => {
    server = await startRedisServer(serverOptions)
  })
  afterAll(async () => {
    await server?.stop()
  })
  afterEach(async () => {
    await Promise.all(open.map((c) => c.close()))
    open = []
    if (!flushAfterEach || server === undefined) return
    const admin = await adminClient(server.url)
    await admin.send(['FLUSHALL'])
    admin.close()
  })
  return {
    get server() {
      if (server === undefined) throw new Error("the suite's redis-server is not started yet (use it inside a test)")
      return server
    },
    opened: (...clusters) => void open.push(...clusters),
  }
}
