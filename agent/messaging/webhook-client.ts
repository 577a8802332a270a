// The lead and activity webhooks: inbound calls made to the service outside `/api/v1/`. The lead
// URL is unique to the account (a credential in itself); the activity call carries `X-O-TOKEN`.

import { createConnection, parseUrlOption } from './connection'
import { MessagingErrorCodes, MessagingMalformedResponseError, MessagingValidationError } from './errors'
import type { CallOptions, ConnectionOptions } from './types'
import { buildActivities, buildLead, type AddActivitiesInput, type CreateLeadInput } from './request-builders'
import { validateActivities, validateLead } from './validate'

export interface LeadWebhookClientOptions extends ConnectionOptions {
  /** The per-account lead webhook URL. Treated as a secret: never reported beyond its origin. */
  leadWebhookUrl?: string | URL
  /** The activity webhook URL (method POST, assumed: the spec shows neither). */
  activityWebhookUrl?: string | URL
  /** Sent as `X-O-TOKEN` on activity calls; never reported. */
  activityToken?: string
}

export interface LeadCreated {
  leadId: string
}

export interface LeadWebhookClient {
  createLead(input: CreateLeadInput, options?: CallOptions): Promise<LeadCreated>
  addActivities(input: AddActivitiesInput, options?: CallOptions): Promise<void>
  close(): Promise<void>
}

/** The send's own headers, plus `Idempotency-Key` when the caller gave one (see CallOptions). */
function withKey(headers: Record<string, string>, callOptions: CallOptions | undefined): Record<string, string> {
  return callOptions?.idempotencyKey === undefined
    ? headers
    : { ...headers, 'idempotency-key': callOptions.idempotencyKey }
}

function missing(field: string): MessagingValidationError {
  return new MessagingValidationError(undefined, [{ field, message: 'is required for this call' }])
}

export function createLeadWebhookClient(options: LeadWebhookClientOptions): LeadWebhookClient {
  const leadUrl =
    options.leadWebhookUrl === undefined ? undefined : parseUrlOption('leadWebhookUrl', options.leadWebhookUrl)
  const activityUrl =
    options.activityWebhookUrl === undefined
      ? undefined
      : parseUrlOption('activityWebhookUrl', options.activityWebhookUrl)
  // The lead URL's path and query are the account's secret: mask them wherever they could surface.
  const leadSecrets =
    leadUrl === undefined
      ? []
      : [leadUrl.pathname.length > 1 ? leadUrl.pathname : undefined, leadUrl.search || undefined]
  const conn = createConnection(options, [options.activityToken, ...leadSecrets], ['x-o-token'])

  return {
    async createLead(input, callOptions) {
      if (leadUrl === undefined) throw missing('leadWebhookUrl')
      const body = buildLead(input)
      const problems = validateLead(body)
      if (problems.length > 0) throw new MessagingValidationError('create_lead', problems)
      const result = await conn.call(
        {
          operation: 'create_lead',
          method: 'POST',
          url: leadUrl,
          headers: withKey({ 'content-type': 'application/json' }, callOptions),
          body: JSON.stringify(body),
          secretUrl: true,
          sends: true,
        },
        callOptions,
      )
      const value = result.body.type === 'json' ? (result.body.value as Record<string, unknown> | null) : null
      const leadId = value === null || typeof value !== 'object' ? undefined : value['lead_id']
      if (typeof leadId !== 'string' && typeof leadId !== 'number') {
        throw new MessagingMalformedResponseError(
          MessagingErrorCodes.MALFORMED_RESPONSE,
          'create_lead: the response has no lead_id',
          {
            operation: 'create_lead',
            status: result.status,
            rawBody: conn.redact(JSON.stringify(value)),
            recoverable: true,
            ambiguous: true,
            attempts: 1,
          },
        )
      }
      return { leadId: String(leadId) }
    },

    async addActivities(input, callOptions) {
      if (activityUrl === undefined) throw missing('activityWebhookUrl')
      if (options.activityToken === undefined || options.activityToken === '') throw missing('activityToken')
      const body = buildActivities(input)
      const problems = validateActivities(body)
      if (problems.length > 0) throw new MessagingValidationError('add_activities', problems)
      await conn.call(
        {
          operation: 'add_activities',
          method: 'POST',
          url: activityUrl,
          headers: withKey({ 'content-type': 'application/json', 'x-o-token': options.activityToken }, callOptions),
          body: JSON.stringify(body),
          secretUrl: false,
          sends: true,
        },
        callOptions,
      )
    },

    close: () => conn.close(),
  }
}
