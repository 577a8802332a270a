// The `cluster:` section's keys (part of agent-shape.ts's structure) and the checks on its single
// values. `password` and the TLS `ca`, `cert` and `key` are secrets, so their `*_file` keys are read
// at load by the checker, as every secret file is. The URL's check is given a code so the checker
// appends nothing to its messages, and they never quote the URL: it may hold a password.
import { ConfigErrorCodes } from '../errors'
import type { Field, ObjectShape, Shape, StringShape } from './shape'
import { urlCredential } from '../../url-credentials'

export const DEFAULT_KEY_PREFIX = 'logx:'
const AGENT_ID = /^[A-Za-z0-9._-]{1,64}$/
const KEY_PREFIX = /^\S{1,64}$/
const URL_EXAMPLE = 'redis://127.0.0.1:6379/0'

/** Each duration's default and the range it must stay in (ms), the range as messages write it. */
export const CLUSTER_DURATIONS = {
  lease: { default: '30s', min: 1_000, max: 600_000, range: '1s and 10m' },
  heartbeat: { default: '2s', min: 100, max: 60_000, range: '100ms and 1m' },
  flush: { default: '200ms', min: 10, max: 10_000, range: '10ms and 10s' },
  command_timeout: { default: '1s', min: 50, max: 60_000, range: '50ms and 60s' },
} as const

export type ClusterDuration = keyof typeof CLUSTER_DURATIONS

export function checkAgentId(value: string): string | undefined {
  return AGENT_ID.test(value) ? undefined : 'expected 1 to 64 letters, digits, ".", "_" and "-"'
}

export function checkKeyPrefix(value: string): string | undefined {
  return KEY_PREFIX.test(value) ? undefined : 'expected 1 to 64 characters without blanks'
}

/** A redis:// or rediss:// URL without credentials; no message contains the value. */
export function checkRedisUrl(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `expected a redis:// or rediss:// URL like ${URL_EXAMPLE}`
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    return `expected a redis:// or rediss:// URL, not ${url.protocol}//`
  // Checked first: whatever else is wrong, a password must be moved out of the file.
  const credential = urlCredential(url)
  if (credential?.kind === 'password' || credential?.kind === 'query')
    return (
      `must not hold ${credential.kind === 'password' ? 'a password' : `a ${credential.name}= parameter`} ` +
      '(whoever reads the config would have it): put the password in a file and name it in cluster.redis.password_file'
    )
  if (credential?.kind === 'username') return 'must not hold a user name: write it as cluster.redis.username'
  if (url.hostname === '') return `needs a host, like ${URL_EXAMPLE}`
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname))
    return `expected nothing or a database number after the host, like ${URL_EXAMPLE}`
  return undefined
}

const field = (shape: Shape, description: string, extra: Omit<Field, 'shape' | 'description'> = {}): Field => ({
  shape,
  description,
  ...extra,
})
const string = (extra: Omit<StringShape, 'kind'> = {}): StringShape => ({ kind: 'string', ...extra })
const secret = string({ secret: true })
const duration = (name: ClusterDuration, what: string): Field =>
  field({ kind: 'duration' }, `${what}; between ${CLUSTER_DURATIONS[name].range}`, {
    default: CLUSTER_DURATIONS[name].default,
  })

const tlsShape: ObjectShape = {
  kind: 'object',
  fields: {
    ca: field(
      secret,
      "CA certificates (PEM) the server's certificate must chain to, usually as ca_file; default: Node's",
    ),
    cert: field(secret, 'client certificate (PEM), with key; usually as cert_file'),
    key: field(secret, "the client certificate's private key (PEM); usually as key_file"),
    reject_unauthorized: field({ kind: 'boolean' }, 'refuse a server whose certificate does not verify', {
      default: true,
    }),
  },
}

const redisShape: ObjectShape = {
  kind: 'object',
  fields: {
    url: field(
      string({ check: checkRedisUrl, code: ConfigErrorCodes.VALUE, json: { pattern: '^rediss?://' } }),
      'redis://host:port/db, or rediss:// for TLS; no user or password in it (username, password_file)',
      { required: true },
    ),
    key_prefix: field(
      string({ check: checkKeyPrefix, json: { pattern: KEY_PREFIX.source } }),
      'prefix of every key the fleet writes (1 to 64 characters without blanks)',
      {
        default: DEFAULT_KEY_PREFIX,
      },
    ),
    username: field(string(), "ACL user; default: Redis's default user"),
    password: field(secret, 'password (of username); usually as password_file, read at load'),
    tls: field(
      {
        kind: 'either',
        label: 'true, false or a mapping (ca_file, cert_file, key_file, reject_unauthorized)',
        options: [{ kind: 'boolean' }, tlsShape],
      },
      "connect over TLS: true (Node's CAs) or the files; a rediss:// url implies true",
    ),
  },
}

export const clusterShape: ObjectShape = {
  kind: 'object',
  fields: {
    agent_id: field(
      string({ check: checkAgentId, json: { pattern: AGENT_ID.source } }),
      'this agent\'s name in the fleet (1 to 64 letters, digits, ".", "_" and "-"); default: the host name, ' +
        'other characters as "-"',
    ),
    redis: field(redisShape, 'the Redis server the fleet shares', { required: true }),
    lease: duration(
      'lease',
      "how long a claimed notice stays with the agent sending it: a dead agent's claims pass to another after this",
    ),
    heartbeat: duration(
      'heartbeat',
      'how often the agent tells the fleet it is alive; a peer unheard for 3 heartbeats is gone',
    ),
    flush: duration('flush', 'how often incident counts buffered since the last flush are written'),
    command_timeout: duration(
      'command_timeout',
      'a Redis command unanswered by then fails: the agent goes degraded and pages on its own',
    ),
  },
}
