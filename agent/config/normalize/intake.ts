// A network source's keys (`type: alertmanager | grafana | syslog | otlp | http`): where it listens,
// who may send, how much, on which path; and what sources sharing one address must agree on.
//
// 1. An intake source needs `listen`; a file or journald source takes none of the intake keys, and an
//    intake source none of the file-reading keys (paths, exclude, follow_symlinks, multiline, start_at,
//    sync_reads) nor journald's.
// 2. A listen address that is not loopback needs `token` or `tls.client_ca`: anyone who reaches the
//    port could otherwise page the team (or flood the outbox).
// 3. `path` is for alertmanager, grafana and http sources. Their paths: alertmanager and grafana `path`
//    or `/`, http `path` or `/ingest/<name>`, otlp `/v1/logs`, syslog none (it is not HTTP).
// 4. Sources on one address (one HTTP server) must not share a path, and must have the same `tls`; a
//    syslog source has its address to itself.
// 5. `protocol` and `max_line_bytes` are a syslog source's only; a syslog source takes no token (syslog
//    carries none: off loopback it needs tls.client_ca), and with tls it listens on TCP only.
import { ConfigErrorCodes } from '../errors'
import { normalizeAlertmanagerKeys } from './alertmanager-intake'
import type { CheckContext } from '../load/check-context'
import type { Segment } from '../load/yaml-source'
import { INTAKE_DEFAULTS, INTAKE_TYPES, intakeFields, type IntakeTypeName } from '../shape/intake-shape'
import type { SourceInput } from '../shape/written-types'
import type { IntakeConfig, IntakeTlsConfig, SourceConfig, SyslogIntakeConfig } from '../types'
import { parseDuration } from '../values/duration'
import { createSecret } from '../values/secret'
import { isLoopbackHost, parseListen } from '../values/value-checks'

const FILE_KEYS = [
  'paths',
  'exclude',
  'follow_symlinks',
  'multiline',
  'start_at',
  'sync_reads',
  'units',
  'priority',
  'journal_files',
] as const
/** Keys of intakeFields that a file source takes too (with its own meaning). */
const SHARED_WITH_FILES: ReadonlySet<string> = new Set(['max_line_bytes'])
/** Rule 5: a syslog header alone may take most of a smaller bound. */
const MIN_SYSLOG_LINE_BYTES = 64
const PATH_TYPES: ReadonlySet<string> = new Set(['alertmanager', 'grafana', 'http'])

export function isIntakeType(type: string | undefined): type is IntakeTypeName {
  return (INTAKE_TYPES as readonly string[]).includes(type ?? '')
}

/** Rule 3: the HTTP paths of a source. */
export function intakePaths(type: IntakeTypeName, name: string, path: string | undefined): string[] {
  if (type === 'syslog') return []
  if (type === 'otlp') return ['/v1/logs']
  if (type === 'http') return [path ?? `/ingest/${name}`]
  return [path ?? '/']
}

/** Rule 1 for a file or journald source: the intake keys it was given are problems. */
export function reportIntakeKeys(source: SourceInput, path: readonly Segment[], ctx: CheckContext): void {
  for (const key of Object.keys(intakeFields)) {
    if (SHARED_WITH_FILES.has(key)) continue
    if ((source as unknown as Record<string, unknown>)[key] === undefined) continue
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...path, key],
      `"${key}" is for network sources (type: ${INTAKE_TYPES.join(', ')}): set the type, or remove it`,
      'key',
    )
  }
}

function tlsOf(written: SourceInput['tls']): IntakeTlsConfig | undefined {
  if (written === undefined || typeof written.cert !== 'string' || typeof written.key !== 'string') return undefined
  return { cert: written.cert, key: createSecret(written.key), clientCa: written.client_ca }
}

/** Rules 1 to 3: an intake source's config, or undefined for a file or journald source. */
export function normalizeIntake(
  source: SourceInput,
  path: readonly Segment[],
  ctx: CheckContext,
): IntakeConfig | undefined {
  const type = source.type
  if (!isIntakeType(type)) return undefined
  for (const key of FILE_KEYS) {
    if (source[key] !== undefined)
      ctx.report(ConfigErrorCodes.CONFLICT, [...path, key], `"${key}" is not for a ${type} source`, 'key')
  }
  if (source.path !== undefined && !PATH_TYPES.has(type))
    ctx.report(ConfigErrorCodes.CONFLICT, [...path, 'path'], `a ${type} source takes no path`, 'key')
  const listen = source.listen === undefined ? undefined : parseListen(source.listen)
  if (source.listen === undefined)
    ctx.report(ConfigErrorCodes.MISSING_KEY, [...path, 'listen'], `is required for a ${type} source`)
  const tls = tlsOf(source.tls)
  const token = source.token === undefined ? undefined : createSecret(source.token)
  if (listen !== undefined && !isLoopbackHost(listen.host) && token === undefined && tls?.clientCa === undefined)
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...path, 'listen'],
      `is not a loopback address: anyone who reaches it could send alerts. Set token_file (a bearer token) or ` +
        `tls.client_ca_file (client certificates), or listen on 127.0.0.1`,
    )
  const per = source.rate_limit?.per
  return {
    listen: listen ?? { host: '127.0.0.1', port: 0 },
    token,
    tls,
    maxBodyBytes: source.max_body ?? INTAKE_DEFAULTS.maxBody,
    rateLimit: {
      requests: source.rate_limit?.requests ?? INTAKE_DEFAULTS.rateLimitRequests,
      perMs: (per === undefined ? undefined : parseDuration(per)) ?? 1000,
    },
    paths: intakePaths(type, source.name, PATH_TYPES.has(type) ? source.path : undefined),
    syslog: syslogOf(source, path, ctx),
    alertmanager: normalizeAlertmanagerKeys(source, path, ctx),
  }
}

/** Rule 5: a syslog source's own keys, or their problems on another type. */
function syslogOf(source: SourceInput, path: readonly Segment[], ctx: CheckContext): SyslogIntakeConfig | undefined {
  if (source.type !== 'syslog') {
    for (const key of ['protocol', 'max_line_bytes'] as const) {
      if (source[key] !== undefined)
        ctx.report(ConfigErrorCodes.CONFLICT, [...path, key], `"${key}" is for syslog sources`, 'key')
    }
    return undefined
  }
  if (source.token !== undefined)
    ctx.report(ConfigErrorCodes.CONFLICT, [...path, 'token'], 'syslog carries no token: use tls.client_ca_file', 'key')
  const protocol = source.protocol ?? (source.tls === undefined ? 'both' : 'tcp')
  if (source.tls !== undefined && protocol !== 'tcp')
    ctx.report(ConfigErrorCodes.CONFLICT, [...path, 'protocol'], 'with tls a syslog source listens on tcp only')
  const maxLineBytes = source.max_line_bytes ?? INTAKE_DEFAULTS.maxLineBytes
  if (maxLineBytes < MIN_SYSLOG_LINE_BYTES)
    ctx.report(
      ConfigErrorCodes.VALUE,
      [...path, 'max_line_bytes'],
      `a syslog source's max_line_bytes must be at least ${MIN_SYSLOG_LINE_BYTES}, got ${maxLineBytes}`,
    )
  return { tcp: protocol !== 'udp', udp: protocol !== 'tcp', maxLineBytes }
}

/** One intake source with where it is written, for rule 4's problems. */
export interface WrittenIntake {
  source: SourceConfig
  at: readonly Segment[]
}

const addressOf = ({ host, port }: { host: string; port: number }): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`

/** Rule 4, across the intake sources: each problem at the later source's `listen`. Port 0 is never shared. */
export function checkIntakeAddresses(intakes: readonly WrittenIntake[], ctx: CheckContext): void {
  const earlier = new Map<string, SourceConfig[]>()
  for (const { source, at } of intakes) {
    const config = source.intake
    if (config === undefined || config.listen.port === 0) continue
    const address = addressOf(config.listen)
    const before = earlier.get(address) ?? []
    earlier.set(address, [...before, source])
    const other = before[0]
    if (other === undefined) continue
    const where = [...at, 'listen']
    if (source.type === 'syslog' || before.some((s) => s.type === 'syslog')) {
      ctx.report(
        ConfigErrorCodes.CONFLICT,
        where,
        `${address} is source ${other.name}'s: a syslog source needs its own`,
      )
      continue
    }
    for (const path of config.paths) {
      const owner = before.find((s) => s.intake?.paths.includes(path) === true)
      if (owner !== undefined)
        ctx.report(ConfigErrorCodes.CONFLICT, where, `${address}${path} is source ${owner.name}'s too: give a path`)
    }
    if (!sameTls(config.tls, other.intake?.tls))
      ctx.report(ConfigErrorCodes.CONFLICT, where, `${address} is source ${other.name}'s too, with another tls`)
  }
}

function sameTls(a: IntakeTlsConfig | undefined, b: IntakeTlsConfig | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.cert === b.cert && a.key.reveal() === b.key.reveal() && a.clientCa === b.clientCa
}
