// Options every alert target shares: rules, silences, redaction, budget, outbox, timing, the
// messaging API and, optionally, the CRM (lead per incident). Written type in, normalized type out;
// every error names the option. `rules` and `silences` are the YAML config's, read by the same
// normalizer (agent/config), so they come out as the same RuleConfig and SilenceConfig.
import { AlertsError, type RedactPath } from '../../../alerts'
import type { RuleConfig, SilenceConfig } from '../../config/types'
import {
  channelOptionKeys,
  readAlertOptions,
  readChannelOptions,
  type OptionsRead,
} from '../../config/normalize/target-options'
import type { ChannelConfig, ChannelType } from '../../config/types'
import type { RuleInput, SilenceInput } from '../../config/shape/written-types'
import { checkRedactPath, checkUrl, redactPathOf } from '../../config/values/value-checks'
import { apiUrlProblem } from '../../config/values/api-url'
import {
  asObject,
  optionalPositive,
  optionalPositiveInteger,
  optionalString,
  rejectUnknown,
  stringList,
  type Written,
} from './check'
import { fromEnv } from './env'
import { optionError } from './errors'

/** A rule as a target takes it: the YAML's, key for key. */
export type TargetRuleInput = RuleInput

export interface CommonOptionsInput {
  /** Alert rules, as in the YAML config (docs/configuration.md); default: error and fatal lines. */
  rules?: TargetRuleInput[]
  /** Silences, as in the YAML config. */
  silences?: SilenceInput[]
  /** Dot paths censored before anything is rendered or recorded. */
  redact?: string[]
  /** Budget of this channel: most messages per sliding hour, the rest folds into a digest. */
  maxPerHour?: number
  /** Journal file of the outbox; default: in memory. */
  outbox?: string
  /** How long the worker may spend delivering at exit; default 5000 (thread-stream waits 10 s). */
  drainTimeoutMs?: number
  /** How often timers (group_wait, repeat, resolve, escalation, digests) are evaluated; default 1000. */
  tickMs?: number
  /** Source name matched by rules' `source`. */
  source?: string
  /** Service name recorded on leads; default: the line's `name` field, else the process title. */
  service?: string
  maxIncidents?: number
  /** Per-attempt HTTP timeout; default 10 000. */
  timeoutMs?: number
  /** Outbox attempts before a dead letter; default: no limit (retried until 6 hours old). */
  maxAttempts?: number
  retryDelayMs?: number
  maxRetryDelayMs?: number
  messagingUrl?: string
  apiKey?: string
  /** Also record each incident as a lead with activities (needs leadWebhook, activityWebhook, activityToken). */
  incident?: boolean
  leadWebhook?: string
  activityWebhook?: string
  activityToken?: string
  /** Where the fingerprint -> lead_id map is kept across restarts; default: memory. */
  stateDir?: string
}

export const COMMON_KEYS: ReadonlySet<string> = new Set([
  'rules',
  'silences',
  'redact',
  'maxPerHour',
  'outbox',
  'drainTimeoutMs',
  'tickMs',
  'source',
  'service',
  'maxIncidents',
  'timeoutMs',
  'maxAttempts',
  'retryDelayMs',
  'maxRetryDelayMs',
  'messagingUrl',
  'apiKey',
  'incident',
  'leadWebhook',
  'activityWebhook',
  'activityToken',
  'stateDir',
])

export interface ApiOptions {
  messagingUrl: string
  apiKey: string
}

export interface CrmOptions {
  leadWebhook: string
  activityWebhook: string
  activityToken: string
  stateDir: string | undefined
}

export interface CommonOptions {
  /** Normalized as the YAML's are; none written: the default rule (error and fatal lines). */
  rules: RuleConfig[]
  silences: SilenceConfig[]
  redact: RedactPath[]
  maxPerHour: number | undefined
  outboxPath: string | undefined
  drainTimeoutMs: number
  tickMs: number
  source: string | undefined
  service: string | undefined
  maxIncidents: number | undefined
  timeoutMs: number | undefined
  maxAttempts: number | undefined
  backoff: { minDelayMs?: number; maxDelayMs?: number }
}

/** Re-raises an engine error (alerts/' AlertsError) as an option error: `rules[1].name` is the option path. */
export function asOptionError(target: string, err: unknown): never {
  if (err instanceof AlertsError) throw optionError(target, err.path, err.message.slice(err.path.length + 2), err)
  throw err
}

/**
 * Nothing: the targets' options have no earlier forms left to warn about. Only for the one caller
 * that still passes it (tail-filter/options.ts), until that call drops it.
 */
export function warnings(_target: string): undefined {
  return undefined
}

/** The value read, or the first problem as the target's option error. */
export function readOrThrow<T>(target: string, read: OptionsRead<T>): T {
  if (read.ok) return read.value
  const [first] = read.problems
  const more = read.problems.length > 1 ? ` (and ${read.problems.length - 1} more problem(s))` : ''
  throw optionError(target, first?.path ?? '(root)', `${first?.message ?? 'invalid'}${more}`)
}

/** The logger's redact paths (the same list an app gives logx's `redact` works here), each checked. */
function redactPaths(target: string, paths: string[]): RedactPath[] {
  return paths.map((path, i) => {
    const problem = checkRedactPath(path)
    if (problem !== undefined) throw optionError(target, `redact[${i}]`, problem)
    return redactPathOf(path)
  })
}

/** `channels`: the target's own channel names, which a rule without `notify` notifies. */
export function normalizeCommon(
  target: string,
  raw: unknown,
  channels: readonly string[],
): { written: Written; common: CommonOptions } {
  const written = asObject(target, raw)
  const { rules, silences } = readOrThrow(target, readAlertOptions(written, channels))
  const common: CommonOptions = {
    rules,
    silences,
    redact: redactPaths(target, stringList(target, written, 'redact', false) ?? []),
    maxPerHour: optionalPositiveInteger(target, written, 'maxPerHour'),
    outboxPath: optionalString(target, written, 'outbox'),
    drainTimeoutMs: optionalPositive(target, written, 'drainTimeoutMs') ?? 5000,
    tickMs: optionalPositive(target, written, 'tickMs') ?? 1000,
    source: optionalString(target, written, 'source'),
    service: optionalString(target, written, 'service'),
    maxIncidents: optionalPositive(target, written, 'maxIncidents'),
    timeoutMs: optionalPositive(target, written, 'timeoutMs'),
    maxAttempts: optionalPositive(target, written, 'maxAttempts'),
    backoff: {
      ...(written.retryDelayMs !== undefined ? { minDelayMs: optionalPositive(target, written, 'retryDelayMs') } : {}),
      ...(written.maxRetryDelayMs !== undefined
        ? { maxDelayMs: optionalPositive(target, written, 'maxRetryDelayMs') }
        : {}),
    },
  }
  return { written, common }
}

function url(target: string, option: string, value: unknown, env: string): string {
  if (value === undefined) throw optionError(target, option, `is required (or set ${env})`)
  const problem = typeof value === 'string' ? checkUrl(value) : 'expected an http(s) URL'
  if (problem !== undefined) throw optionError(target, option, problem)
  return value as string
}

/** messagingUrl: as the config's messaging.base_url, no credentials in it (config/values/api-url.ts). */
function apiUrl(target: string, value: unknown): string {
  const checked = url(target, 'messagingUrl', value, 'LOGX_MESSAGING_URL')
  const problem = apiUrlProblem(checked, 'the apiKey option (or LOGX_API_KEY)')
  if (problem !== undefined) throw optionError(target, 'messagingUrl', problem)
  return checked
}

function secret(target: string, option: string, value: unknown, env: string): string {
  if (value === undefined) throw optionError(target, option, `is required (or set ${env})`)
  if (typeof value !== 'string' || value === '') throw optionError(target, option, 'expected a non-empty string')
  return value
}

export function normalizeApi(target: string, written: Written, env: NodeJS.ProcessEnv = process.env): ApiOptions {
  return {
    messagingUrl: apiUrl(target, fromEnv('messagingUrl', written.messagingUrl, env)),
    apiKey: secret(target, 'apiKey', fromEnv('apiKey', written.apiKey, env), 'LOGX_API_KEY'),
  }
}

export function normalizeCrm(target: string, written: Written, env: NodeJS.ProcessEnv = process.env): CrmOptions {
  return {
    leadWebhook: url(target, 'leadWebhook', fromEnv('leadWebhook', written.leadWebhook, env), 'LOGX_LEAD_WEBHOOK'),
    activityWebhook: url(
      target,
      'activityWebhook',
      fromEnv('activityWebhook', written.activityWebhook, env),
      'LOGX_ACTIVITY_WEBHOOK',
    ),
    activityToken: secret(
      target,
      'activityToken',
      fromEnv('activityToken', written.activityToken, env),
      'LOGX_ACTIVITY_TOKEN',
    ),
    stateDir: optionalString(target, written, 'stateDir'),
  }
}

/** The CRM when the channel target should also record incidents (`incident: true`). */
export function optionalCrm(
  target: string,
  written: Written,
  env: NodeJS.ProcessEnv = process.env,
): CrmOptions | undefined {
  if (written.incident === undefined || written.incident === false) return undefined
  if (written.incident !== true) throw optionError(target, 'incident', 'expected true or false')
  return normalizeCrm(target, written, env)
}

/** A channel target's options normalized: `channel` is the channel the YAML would give, named after its type. */
export interface ChannelTargetOptions<T extends ChannelType> {
  common: CommonOptions
  api: ApiOptions
  crm: CrmOptions | undefined
  channel: Extract<ChannelConfig, { type: T }>
}

/**
 * The options of the target sending on a channel of `type`: the common ones, the YAML channel's
 * keys spelt as options, the messaging API and, with `incident: true`, the CRM.
 */
export function normalizeChannelTarget<T extends ChannelType>(
  target: string,
  type: T,
  raw: unknown,
  env: NodeJS.ProcessEnv,
): ChannelTargetOptions<T> {
  const { written, common } = normalizeCommon(target, raw, [type])
  rejectUnknown(target, written, new Set([...COMMON_KEYS, ...channelOptionKeys(type)]))
  const channel = readOrThrow(target, readChannelOptions(type, written, common.maxPerHour))
  const api = normalizeApi(target, written, env)
  const crm = optionalCrm(target, written, env)
  // As in the YAML, recording a rule's incidents needs a CRM: here, the target's own.
  const recorded = common.rules.findIndex((rule) => rule.incident)
  if (crm === undefined && recorded !== -1) {
    throw optionError(
      target,
      `rules[${recorded}].incident`,
      'needs the incident option (with leadWebhook, activityWebhook and activityToken)',
    )
  }
  return { common, api, crm, channel: channel as Extract<ChannelConfig, { type: T }> }
}
