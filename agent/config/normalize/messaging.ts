// messaging: the embedded sandbox (no base_url) or a real API, whose webhooks come as a set.
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { createSecret, type Secret } from '../values/secret'
import type { MessagingConfig } from '../types'
import { isLoopbackHost, parseListen } from '../values/value-checks'
import type { MessagingInput } from '../shape/written-types'

export const DEFAULT_SANDBOX_LISTEN = '127.0.0.1:4010'

const CRM_KEYS = ['lead_webhook', 'activity_webhook', 'activity_token'] as const

const secret = (value: string | undefined): Secret | undefined =>
  value === undefined ? undefined : createSecret(value)

/**
 * Whether a key was written at all (itself or as `<key>_file`), valid or not: a key whose value
 * failed its own check must not be reported missing as well.
 */
export function createPresence(raw: unknown): (key: string) => boolean {
  const m = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {}
  return (key) => Object.hasOwn(m, key) || Object.hasOwn(m, `${key}_file`)
}

/** Whether the lead and activity webhooks are all written (a CRM is configured). */
export const crmWritten = (present: (key: string) => boolean): boolean => CRM_KEYS.every(present)

export function normalizeMessaging(
  written: MessagingInput | undefined,
  raw: unknown,
  ctx: CheckContext,
): MessagingConfig {
  const m = written ?? {}
  const present = createPresence(raw)
  const at = ['messaging']
  if (!present('base_url')) {
    for (const key of ['lead_webhook', 'activity_webhook'] as const) {
      if (present(key)) {
        ctx.report(
          ConfigErrorCodes.CONFLICT,
          [...at, key],
          'needs base_url (the embedded sandbox provides its own webhooks)',
          'key',
        )
      }
    }
    const listen = parseListen(m.sandbox?.listen ?? DEFAULT_SANDBOX_LISTEN) ?? { host: '127.0.0.1', port: 4010 }
    const allowRemote = m.sandbox?.allow_remote ?? false
    if (!allowRemote && !isLoopbackHost(listen.host)) {
      ctx.report(
        ConfigErrorCodes.CONFLICT,
        [...at, 'sandbox', 'listen'],
        'is not a loopback address, and the sandbox has no authentication (anyone who reaches it reads ' +
          'every page and can acknowledge incidents): listen on 127.0.0.1, or set ' +
          'messaging.sandbox.allow_remote: true',
      )
    }
    const apiKey = secret(m.api_key)
    return { mode: 'sandbox', listen, allowRemote, apiKey, activityToken: secret(m.activity_token) }
  }
  if (present('sandbox')) {
    ctx.report(ConfigErrorCodes.CONFLICT, [...at, 'sandbox'], 'is only used without base_url', 'key')
  }
  if (!present('api_key')) ctx.report(ConfigErrorCodes.MISSING_KEY, [...at, 'api_key'], 'is required with base_url')
  const given = CRM_KEYS.filter(present)
  if (given.length > 0 && given.length < CRM_KEYS.length) {
    const missing = CRM_KEYS.filter((key) => !present(key))
    for (const key of missing) {
      ctx.report(
        ConfigErrorCodes.CONFLICT,
        [...at, key],
        `is required with ${given.join(' and ')} (the CRM webhooks come as a set)`,
      )
    }
  }
  const crm =
    m.lead_webhook !== undefined && m.activity_webhook !== undefined && m.activity_token !== undefined
      ? {
          leadWebhook: m.lead_webhook,
          activityWebhook: m.activity_webhook,
          activityToken: createSecret(m.activity_token),
        }
      : undefined
  return { mode: 'remote', baseUrl: m.base_url ?? '', apiKey: createSecret(m.api_key ?? ''), crm }
}
