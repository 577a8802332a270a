// The sandbox's options resolved, and the URLs it announces once listening. Pure: startSandbox
// (server.ts) listens; this decides.
// Options (resolveSandboxOptions):
// 1. what is not given takes its default: 127.0.0.1, a free port (0), the sandbox's API key, activity
//    token and lead account, 10 000 records per kind, no faults;
// 2. the port is an integer from 0 to 65535;
// 3. the API key and the activity token are not empty;
// 4. the lead account is URL-safe (it is a segment of the lead webhook's URL);
// 5. retention is a positive integer;
// 6. each fault rule is parsed as the control API parses it, named by its index (`faults[2].rate`);
// 7. a host that is not loopback is refused unless `allowRemote` (the sandbox's key and token are
//    public defaults and its control API has none: anyone who reaches it reads every page it stored
//    and can acknowledge incidents with a simulated missed call);
// 8. the record cap (64 KiB) and the store cap (32 MiB) are positive integers, the record cap at
//    most the store cap.
// URLs (sandboxInfo):
// 9. a wildcard host (0.0.0.0, ::, '') is announced as 127.0.0.1 (where this machine reaches it); an
//    IPv6 host is bracketed; the address it really listens on is announced beside them.
import { isLoopbackHost } from '../loopback-host'
import { CONTROL_PREFIX } from './control-routes'
import { SandboxError, SandboxErrorCodes } from './errors'
import { parseFault, type Fault } from './faults'
import type { SandboxInfo, SandboxOptions } from './types'
import { ACTIVITY_WEBHOOK_PATH, LEAD_WEBHOOK_PREFIX } from './webhook-routes'

export const DEFAULT_API_KEY = 'sandbox-api-key'
export const DEFAULT_ACTIVITY_TOKEN = 'sandbox-activity-token'
export const DEFAULT_LEAD_ACCOUNT = 'sandbox'
export const DEFAULT_RETENTION = 10_000
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024
export const DEFAULT_MAX_STORE_BYTES = 32 * 1024 * 1024

export interface ResolvedSandboxOptions {
  host: string
  port: number
  apiKey: string
  activityToken: string
  leadAccount: string
  retention: number
  maxRecordBytes: number
  maxStoreBytes: number
  /** Whether the host is loopback (then the Host header is checked on every request). */
  loopback: boolean
  faults: Fault[]
}

/** Rule 7: why a host that is not loopback is refused, naming the two ways to allow it. */
export function remoteRefusal(host: string): string {
  return (
    `host: ${host === '' ? "''" : host} is not a loopback address, and the sandbox has no authentication ` +
    '(anyone who reaches it reads every stored page and can acknowledge incidents); to listen there ' +
    'anyway, pass --allow-remote (logx-agent sandbox) or set messaging.sandbox.allow_remote: true'
  )
}

/** The warning printed when a host that is not loopback was allowed. */
export function remoteWarning(address: string): string {
  return (
    `WARNING: the logx sandbox listens on ${address}, reachable from other machines: it has no ` +
    'authentication, so anyone who reaches it reads every stored page (phone numbers, alert text) and ' +
    'can acknowledge incidents with a simulated missed call'
  )
}

function option(cond: boolean, path: string, message: string): void {
  if (!cond) throw new SandboxError(SandboxErrorCodes.INVALID_OPTION, `${path}: ${message}`, { path })
}

export function resolveSandboxOptions(options: SandboxOptions): ResolvedSandboxOptions {
  const resolved = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    activityToken: options.activityToken ?? DEFAULT_ACTIVITY_TOKEN,
    leadAccount: options.leadAccount ?? DEFAULT_LEAD_ACCOUNT,
    retention: options.retention ?? DEFAULT_RETENTION,
    maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    maxStoreBytes: options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
  }
  const { port, retention, maxRecordBytes, maxStoreBytes } = resolved
  option(Number.isInteger(port) && port >= 0 && port <= 65535, 'port', 'must be an integer from 0 to 65535')
  option(resolved.apiKey !== '', 'apiKey', 'must not be empty')
  option(resolved.activityToken !== '', 'activityToken', 'must not be empty')
  const urlSafe = /^[A-Za-z0-9._~-]+$/.test(resolved.leadAccount)
  option(urlSafe, 'leadAccount', 'must be URL-safe letters, digits, . _ ~ -')
  option(Number.isInteger(retention) && retention > 0, 'retention', 'must be a positive integer')
  const loopback = isLoopbackHost(resolved.host)
  if (!loopback && options.allowRemote !== true) {
    throw new SandboxError(SandboxErrorCodes.REMOTE_HOST, remoteRefusal(resolved.host), { path: 'host' })
  }
  option(Number.isInteger(maxRecordBytes) && maxRecordBytes > 0, 'maxRecordBytes', 'must be a positive integer')
  option(Number.isInteger(maxStoreBytes) && maxStoreBytes > 0, 'maxStoreBytes', 'must be a positive integer')
  option(maxRecordBytes <= maxStoreBytes, 'maxRecordBytes', `must be at most maxStoreBytes (${maxStoreBytes})`)
  const faults = (options.faults ?? []).map((f, i) => parseFault(f, `faults[${i}]`))
  return { ...resolved, loopback, faults }
}

export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

export function sandboxInfo(
  resolved: ResolvedSandboxOptions,
  port: number,
  dataDir: string | undefined,
  version: string,
): SandboxInfo {
  const baseUrl = `http://${urlHost(resolved.host)}:${port}`
  const bracketed = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host
  return {
    listening: `${bracketed === '' ? '0.0.0.0' : bracketed}:${port}`,
    remote: !resolved.loopback,
    baseUrl,
    apiUrl: `${baseUrl}/api/v1/`,
    leadWebhookUrl: `${baseUrl}${LEAD_WEBHOOK_PREFIX}${resolved.leadAccount}`,
    activityWebhookUrl: `${baseUrl}${ACTIVITY_WEBHOOK_PATH}`,
    inboxUrl: `${baseUrl}/`,
    controlUrl: `${baseUrl}${CONTROL_PREFIX}`,
    eventsUrl: `${baseUrl}${CONTROL_PREFIX}events`,
    dataDir: dataDir ?? null,
    retention: resolved.retention,
    maxRecordBytes: resolved.maxRecordBytes,
    maxStoreBytes: resolved.maxStoreBytes,
    version,
  }
}
