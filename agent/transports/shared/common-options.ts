// Options every alert target shares: rules, silences, redaction, budget, outbox, timing, the
// messaging API and, optionally, the CRM (lead per incident). Written type in, normalized type out;
// every error names the option.
import { AlertsError, normalizeRules, normalizeSilence, type RuleInput, type SilenceInput } from '../../../alerts'
import type { RetryPolicy } from '../../messaging'
import { asObject, optionalPositive, optionalString, stringList, type Written } from './check'
import { fromEnv } from './env'
import { optionError } from './errors'

export interface CommonOptionsInput {
  /** Alert rules (see alerts/README.md); default: error and fatal lines. */
  rules?: RuleInput[]
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
  /** HTTP-level retries of the messaging client (see agent/messaging/README.md). */
  retry?: Partial<RetryPolicy>
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
  'rules', 'silences', 'redact', 'maxPerHour', 'outbox', 'drainTimeoutMs', 'tickMs', 'source', 'service',
  'maxIncidents', 'timeoutMs', 'retry', 'maxAttempts', 'retryDelayMs', 'maxRetryDelayMs', 'messagingUrl', 'apiKey',
  'incident', 'leadWebhook', 'activityWebhook', 'activityToken', 'stateDir',
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
  rules: RuleInput[] | undefined
  silences: SilenceInput[] | undefined
  redact: string[]
  maxPerHour: number | undefined
  outboxPath: string | undefined
  drainTimeoutMs: number
  tickMs: number
  source: string | undefined
  service: string | undefined
  maxIncidents: number | undefined
  timeoutMs: number | undefined
  retry: Partial<RetryPolicy> | undefined
  maxAttempts: number | undefined
  backoff: { minDelayMs?: number; maxDelayMs?: number }
}

/** Re-raises a domain error as an option error: `rules[0].level` is the option path. */
export function asOptionError(target: string, err: unknown): never {
  if (err instanceof AlertsError) throw optionError(target, err.path, err.message.slice(err.path.length + 2), err)
  throw err
}

export function normalizeCommon(target: string, raw: unknown): { written: Written; common: CommonOptions } {
  const written = asObject(target, raw)
  let rules: RuleInput[] | undefined
  if (written.rules !== undefined) {
    try {
      normalizeRules(written.rules)
    } catch (err) {
      asOptionError(target, err)
    }
    rules = written.rules as RuleInput[]
  }
  let silences: SilenceInput[] | undefined
  if (written.silences !== undefined) {
    if (!Array.isArray(written.silences)) throw optionError(target, 'silences', 'expected a list')
    written.silences.forEach((s: unknown, i: number) => {
      try {
        normalizeSilence(s, 0, 'check', `silences[${i}]`)
      } catch (err) {
        asOptionError(target, err)
      }
    })
    silences = written.silences as SilenceInput[]
  }
  const retry = written.retry
  if (retry !== undefined && (typeof retry !== 'object' || retry === null)) throw optionError(target, 'retry', 'expected an object')
  const common: CommonOptions = {
    rules,
    silences,
    redact: stringList(target, written, 'redact', false) ?? [],
    maxPerHour: optionalPositive(target, written, 'maxPerHour'),
    outboxPath: optionalString(target, written, 'outbox'),
    drainTimeoutMs: optionalPositive(target, written, 'drainTimeoutMs') ?? 5000,
    tickMs: optionalPositive(target, written, 'tickMs') ?? 1000,
    source: optionalString(target, written, 'source'),
    service: optionalString(target, written, 'service'),
    maxIncidents: optionalPositive(target, written, 'maxIncidents'),
    timeoutMs: optionalPositive(target, written, 'timeoutMs'),
    retry: retry as Partial<RetryPolicy> | undefined,
    maxAttempts: optionalPositive(target, written, 'maxAttempts'),
    backoff: {
      ...(written.retryDelayMs !== undefined ? { minDelayMs: optionalPositive(target, written, 'retryDelayMs') } : {}),
      ...(written.maxRetryDelayMs !== undefined ? { maxDelayMs: optionalPositive(target, written, 'maxRetryDelayMs') } : {}),
    },
  }
  return { written, common }
}

function url(target: string, option: string, value: unknown, env: string): string {
  if (value === undefined) throw optionError(target, option, `is required (or set ${env})`)
  if (typeof value !== 'string' || !URL.canParse(value)) throw optionError(target, option, 'expected an absolute URL')
  return value
}

function secret(target: string, option: string, value: unknown, env: string): string {
  if (value === undefined) throw optionError(target, option, `is required (or set ${env})`)
  if (typeof value !== 'string' || value === '') throw optionError(target, option, 'expected a non-empty string')
  return value
}

export function normalizeApi(target: string, written: Written, env: NodeJS.ProcessEnv = process.env): ApiOptions {
  return {
    messagingUrl: url(target, 'messagingUrl', fromEnv('messagingUrl', written.messagingUrl, env), 'LOGX_MESSAGING_URL'),
    apiKey: secret(target, 'apiKey', fromEnv('apiKey', written.apiKey, env), 'LOGX_API_KEY'),
  }
}

export function normalizeCrm(target: string, written: Written, env: NodeJS.ProcessEnv = process.env): CrmOptions {
  return {
    leadWebhook: url(target, 'leadWebhook', fromEnv('leadWebhook', written.leadWebhook, env), 'LOGX_LEAD_WEBHOOK'),
    activityWebhook: url(target, 'activityWebhook', fromEnv('activityWebhook', written.activityWebhook, env), 'LOGX_ACTIVITY_WEBHOOK'),
    activityToken: secret(target, 'activityToken', fromEnv('activityToken', written.activityToken, env), 'LOGX_ACTIVITY_TOKEN'),
    stateDir: optionalString(target, written, 'stateDir'),
  }
}

/** The CRM when the channel target should also record incidents (`incident: true`). */
export function optionalCrm(target: string, written: Written, env: NodeJS.ProcessEnv = process.env): CrmOptions | undefined {
  if (written.incident === undefined || written.incident === false) return undefined
  if (written.incident !== true) throw optionError(target, 'incident', 'expected true or false')
  return normalizeCrm(target, written, env)
}
