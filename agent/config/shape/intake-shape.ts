// The keys of a network source (`type: alertmanager | grafana | syslog | otlp | http`; agent/intake/),
// spread into source-shape.ts's source. The common keys first: where it listens, who may send
// (token, TLS client certificates), how much (max_body, rate_limit), on which path. Each intake type
// adds its own keys in its block below. Which keys belong to which type: normalize/intake.ts.
import type { Field, Shape } from './shape'
import { checkLevel, checkListen } from '../values/value-checks'
import { duration, field, object, secret, string } from './shape-parts'

export const INTAKE_TYPES = ['alertmanager', 'grafana', 'syslog', 'otlp', 'http'] as const
export type IntakeTypeName = (typeof INTAKE_TYPES)[number]

/** Defaults the normalizer applies (and the reference shows). */
export const INTAKE_DEFAULTS = {
  maxBody: 4 * 1024 * 1024,
  rateLimitRequests: 200,
  rateLimitPer: '1s',
  maxLineBytes: 64 * 1024,
} as const

export function checkIntakePath(value: string): string | undefined {
  if (!value.startsWith('/')) return 'expected a path starting with "/", e.g. /alerts'
  return /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(value)
    ? undefined
    : 'expected a URL path without "?", "#" or blanks'
}

const tlsShape: Shape = object({
  cert: field(secret, 'server certificate (PEM), usually as cert_file; with key', { required: true }),
  key: field(secret, "the server certificate's private key (PEM), usually as key_file", { required: true }),
  client_ca: field(
    secret,
    'CA certificates (PEM), usually as client_ca_file: a client must present a certificate that chains to them ' +
      '(then no token is needed off loopback)',
  ),
})

const rateLimitShape: Shape = object({
  requests: field({ kind: 'integer', min: 1 }, 'requests a client address may make per `per`', {
    default: INTAKE_DEFAULTS.rateLimitRequests,
  }),
  per: field(duration, 'the window of `requests`', { default: INTAKE_DEFAULTS.rateLimitPer }),
})

const levelShape: Shape = {
  kind: 'either',
  label: 'a level name or number',
  options: [{ kind: 'integer', min: 0 }, string({ check: checkLevel })],
}

/** Every intake type's keys: the common ones, then each type's block. */
export const intakeFields: Record<string, Field> = {
  listen: field(
    string({ check: checkListen }),
    'intake sources: host:port the source listens on (":port" is 127.0.0.1). Sources may share an address when ' +
      'their paths differ. Off loopback it needs token or tls.client_ca. Required for an intake source',
  ),
  token: field(
    secret,
    'intake sources: the bearer token a sender must give (`authorization: Bearer <token>`), usually as ' +
      'token_file; required when listen is not a loopback address (unless tls.client_ca is set)',
  ),
  tls: field(tlsShape, 'intake sources: serve HTTPS (syslog: TLS) with these files, and check client certificates'),
  max_body: field(
    { kind: 'integer', min: 1 },
    'intake sources: the largest request body in bytes (after gzip is inflated); a larger one gets 413',
    { default: INTAKE_DEFAULTS.maxBody },
  ),
  rate_limit: field(
    rateLimitShape,
    'intake sources: requests per client address; past it a request gets 429 with Retry-After',
  ),
  path: field(
    string({ check: checkIntakePath }),
    'alertmanager, grafana and http sources: the HTTP path POSTs come on; default / (alertmanager, grafana), ' +
      '/ingest/<name> (http)',
  ),
  // alertmanager and grafana (agent/intake/alertmanager/): their keys here.
  severity_label: field(string(), "alertmanager and grafana sources: the label whose value names an alert's level", {
    default: 'severity',
  }),
  severity_levels: field(
    { kind: 'map', values: levelShape },
    'alertmanager and grafana sources: label values (any case) -> levels, over the built-in table (critical: fatal; ' +
      'error, high: error; warning: warn; info, low, none: info; no label or another value: error)',
  ),
  send_resolved: field(
    { kind: 'boolean' },
    'alertmanager and grafana sources: a resolved alert resolves its incident and tells whoever was paged; ' +
      'false: only the incident record (CRM) hears of it',
    { default: true },
  ),
  // syslog (agent/intake/syslog/): its keys here.
  protocol: field(
    { kind: 'enum', values: ['tcp', 'udp', 'both'] },
    'syslog sources: listen on TCP (octet-counting or newline framing, detected per connection; TLS with tls), ' +
      'UDP (at-most-once: a datagram the agent cannot take is lost), or both on the same port. With tls: tcp',
    { default: 'both' },
  ),
  // max_line_bytes is the file sources' key (source-shape.ts); a syslog source reads it as its message bound.
  // otlp (agent/intake/otlp/): its keys here.
}

/** The intake keys as written (after the checker: `*_file` secrets read, failed values undefined). */
export interface IntakeInput {
  listen?: string
  token?: string
  tls?: { cert: string; key: string; client_ca?: string }
  max_body?: number
  rate_limit?: { requests?: number; per?: string | number }
  path?: string
  severity_label?: string
  severity_levels?: Record<string, string | number>
  send_resolved?: boolean
  protocol?: 'tcp' | 'udp' | 'both'
  max_line_bytes?: number
}
