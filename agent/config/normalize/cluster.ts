// cluster: the Redis a fleet of agents shares its incident state on (agent/cluster/). Everything the
// connection needs is read at load (the checker reads password_file and the TLS files), so a config
// that loads connects without touching the disk again; the password and the TLS key are Secrets.
// Here: defaults, duration ranges, and the TLS choices that take more than one value to judge.
import { hostname } from 'node:os'
import type { CheckContext } from '../load/check-context'
import { CLUSTER_DURATIONS, DEFAULT_KEY_PREFIX, type ClusterDuration } from '../shape/cluster-shape'
import { parseDuration } from '../values/duration'
import { ConfigErrorCodes } from '../errors'
import { createPresence } from './messaging'
import { createSecret } from '../values/secret'
import type { ClusterConfig, ClusterTlsConfig } from '../types'
import type { ClusterInput, ClusterTlsInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

/** The host name as an agent id: other characters become "-", cut at 64 (a name Redis keys can carry). */
export function agentIdOf(host: string): string {
  const id = host.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64)
  return id === '' ? 'logx-agent' : id
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function durationMs(name: ClusterDuration, written: ClusterInput, ctx: CheckContext): number {
  const spec = CLUSTER_DURATIONS[name]
  const fallback = parseDuration(spec.default) as number
  const value = written[name]
  // A value the shape refused is reported already (and undefined here).
  const ms = value === undefined ? fallback : parseDuration(value)
  if (ms === undefined) return fallback
  if (ms < spec.min || ms > spec.max) {
    const at = ['cluster', name]
    ctx.report(ConfigErrorCodes.VALUE, at, `must be between ${spec.range}, got ${ctx.show(at, value)}`)
    return fallback
  }
  return ms
}

/** The TLS options: `tls: true` and rediss:// take the defaults; undefined: plain TCP. */
function tlsOf(
  written: boolean | ClusterTlsInput | undefined,
  raw: unknown,
  secureUrl: boolean,
  ctx: CheckContext,
): ClusterTlsConfig | undefined {
  const at: Segment[] = ['cluster', 'redis', 'tls']
  if (written === false && secureUrl) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      at,
      'is false, but the url is rediss:// (TLS): remove tls: false, or use redis://',
    )
    return undefined
  }
  if (written === undefined || written === false) {
    return secureUrl ? { ca: undefined, cert: undefined, key: undefined, rejectUnauthorized: true } : undefined
  }
  const options = written === true ? {} : written
  const present = createPresence(raw)
  // Named as written (`cert_file` or `cert`), so the problem points at the key the user wrote.
  const writtenKey = (key: string): string => (isMapping(raw) && Object.hasOwn(raw, key) ? key : `${key}_file`)
  for (const [has, needs] of [
    ['cert', 'key'],
    ['key', 'cert'],
  ] as const) {
    if (present(has) && !present(needs)) {
      ctx.report(
        ConfigErrorCodes.CONFLICT,
        [...at, writtenKey(has)],
        `needs ${needs}_file too (a client certificate goes with its private key)`,
        'key',
      )
    }
  }
  return {
    ca: options.ca,
    cert: options.cert,
    key: options.key === undefined ? undefined : createSecret(options.key),
    rejectUnauthorized: options.reject_unauthorized ?? true,
  }
}

/**
 * The section, normalized; undefined when it is not written, or when a value it cannot do without
 * (`redis`, `url`) failed (that problem is reported already). `raw` is the section as written.
 */
export function normalizeCluster(
  written: ClusterInput | undefined,
  raw: unknown,
  ctx: CheckContext,
  host: string = hostname(),
): ClusterConfig | undefined {
  if (written === undefined) return undefined
  const rawRedis = isMapping(raw) ? raw.redis : undefined
  const redis = written.redis
  const durations = {
    leaseMs: durationMs('lease', written, ctx),
    heartbeatMs: durationMs('heartbeat', written, ctx),
    flushMs: durationMs('flush', written, ctx),
    commandTimeoutMs: durationMs('command_timeout', written, ctx),
  }
  if (redis === undefined) return undefined
  // Checked before the URL: a TLS problem is worth reporting even beside a bad URL.
  const secureUrl = redis.url !== undefined && /^rediss:/i.test(redis.url)
  const tls = tlsOf(redis.tls, isMapping(rawRedis) ? rawRedis.tls : undefined, secureUrl, ctx)
  if (redis.url === undefined) return undefined
  return {
    agentId: written.agent_id ?? agentIdOf(host),
    redis: {
      url: redis.url,
      keyPrefix: redis.key_prefix ?? DEFAULT_KEY_PREFIX,
      username: redis.username,
      password: redis.password === undefined ? undefined : createSecret(redis.password),
      tls,
    },
    ...durations,
  }
}
