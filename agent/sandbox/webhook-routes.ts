// The lead webhook (per-account URL, no auth header) and the activity webhook (`X-O-TOKEN`).
// ASSUMED URLs: POST /webhooks/lead/<account> and POST /webhooks/activity.

import { validateActivities, validateLead } from '../messaging/validate'
import type { OperationName, WireActivityRequest, WireLeadCreated, WireLeadRequest } from '../messaging/wire'
import { secretEquals } from '../secret-equal'
import { apiError, json, type Reply } from './reply'
import type { Store } from './types'

export const LEAD_WEBHOOK_PREFIX = '/webhooks/lead/'
export const ACTIVITY_WEBHOOK_PATH = '/webhooks/activity'

export interface WebhookRequest {
  method: string
  headers: Readonly<Record<string, string | string[] | undefined>>
  body: unknown
  bodyIsJson: boolean
}

/**
 * The `Idempotency-Key` header, if one came: recorded on the lead and on each activity as
 * `idempotency_key`, never acted on. Whether the real webhooks honour such a key is unknown (the
 * spec names none), so the emulator records what it was sent rather than assume a dedupe the real
 * service may not do: a resend shows as a second record with the same key.
 */
function keyOf(req: WebhookRequest): { idempotency_key?: string } {
  const key = req.headers['idempotency-key']
  return typeof key === 'string' ? { idempotency_key: key } : {}
}

export function resolveWebhook(pathname: string): { operation: OperationName; account?: string } | undefined {
  if (pathname === ACTIVITY_WEBHOOK_PATH) return { operation: 'add_activities' }
  if (pathname.startsWith(LEAD_WEBHOOK_PREFIX)) {
    return { operation: 'create_lead', account: decodeURIComponent(pathname.slice(LEAD_WEBHOOK_PREFIX.length)) }
  }
  return undefined
}

function leadFailure(status: number, error: string, field?: string): Reply {
  // The lead webhook's documented body is { success, lead_id }; failures keep that shape.
  return json(status, field === undefined ? { success: false, error } : { success: false, error, field })
}

export function handleLead(
  req: WebhookRequest,
  account: string | undefined,
  expectedAccount: string,
  store: Store,
): Reply {
  if (account === undefined || !secretEquals(account, expectedAccount)) return leadFailure(404, 'unknown webhook')
  if (req.method !== 'POST') return leadFailure(405, 'the lead webhook expects POST')
  if (!req.bodyIsJson) return leadFailure(400, '(body): not valid JSON', '(body)')
  const problems = validateLead(req.body)
  const first = problems[0]
  if (first !== undefined) return leadFailure(400, `${first.field}: ${first.message}`, first.field)
  const lead = req.body as WireLeadRequest
  const leadId = store.nextLeadId()
  const key = keyOf(req)
  store.add('lead', ({ createdAt }) => ({ id: leadId, lead_id: leadId, created_at: createdAt, ...lead, ...key }))
  const body: WireLeadCreated = { success: true, lead_id: leadId }
  return json(200, body)
}

export function handleActivities(req: WebhookRequest, token: string, store: Store): Reply {
  if (!secretEquals(req.headers['x-o-token'], token)) {
    return apiError(401, req.headers['x-o-token'] === undefined ? 'missing X-O-TOKEN header' : 'invalid X-O-TOKEN')
  }
  if (req.method !== 'POST') return apiError(405, 'the activity webhook expects POST')
  if (!req.bodyIsJson) return apiError(400, '(body): not valid JSON', '(body)')
  const problems = validateActivities(req.body)
  const first = problems[0]
  if (first !== undefined)
    return json(400, { status: 'error', error: `${first.field}: ${first.message}`, field: first.field, problems })
  const request = req.body as WireActivityRequest
  const leadId = String(request.lead_id)
  if (store.findLead(leadId) === undefined) return apiError(404, `lead_id: no lead ${leadId}`, 'lead_id')
  const key = keyOf(req)
  for (const activity of request.activities) {
    store.add('activity', ({ id, createdAt }) => ({
      id,
      created_at: createdAt,
      lead_id: request.lead_id,
      ...activity,
      ...key,
    }))
  }
  // The spec: "no response body and no response headers".
  return { type: 'empty', status: 200 }
}
