// A lead's creation is recorded in the lead map before the CRM is called, so an incident whose
// creation may have reached the CRM before a crash gets the same lead from whichever event records
// it next: the same event resent, or another target's event sharing the map (the app crash drill).
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { acquireRecorder } from '../../../agent/delivery/record/incident-recorder'
import type { IncidentEvent } from '../../../agent/delivery/record/incident-event'
import { createLeadMap } from '../../../agent/delivery/record/lead-map'
import { createLeadWebhookClient } from '../../../agent/messaging/webhook-client'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('lead-creation')
let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
})
afterAll(async () => {
  await sandbox.close()
})

const event = (kind: IncidentEvent['kind']): IncidentEvent => ({
  key: 'payments:abc',
  title: 'payment failed',
  rule: 'payments',
  kind,
  count: 1,
  firstSeen: 1000,
  at: 1000,
  service: undefined,
  host: undefined,
  activity: { type: 'NOTE', title: 'Incident opened', notes: 'payment failed' },
})

async function leadRecords(): Promise<unknown[]> {
  // Newest first from the sandbox.
  const response = await fetch(`${sandbox.info.baseUrl}/_sandbox/records?kind=lead&limit=100`)
  return ((await response.json()) as { records: unknown[] }).records
}

it('another event of an incident whose creation was cut short by a crash gets the same lead', async () => {
  const stateDir = join(dir, 'state')
  const crm = {
    leadWebhook: sandbox.info.leadWebhookUrl,
    activityWebhook: sandbox.info.activityWebhookUrl,
    activityToken: sandbox.activityToken,
    stateDir,
  }
  // Before the crash: the creation is recorded, and reaches the CRM, but the lead id never makes it to the map.
  createLeadMap(stateDir).creating('payments:abc', 'item-a:lead')
  const client = createLeadWebhookClient({ leadWebhookUrl: crm.leadWebhook })
  const before = await client.createLead(
    { name: 'payment failed', otherFields: { fingerprint: 'payments:abc' } },
    { idempotencyKey: 'item-a:lead' },
  )
  await client.close()

  // After the restart, another target's event (its own outbox item) records the incident first.
  const recorder = acquireRecorder(crm)
  await recorder.record(event('firing'), 'item-b')
  // The sandbox records every call (it does not assume the real webhooks dedupe): both calls carry
  // the first one's key, so an API that honours it answers with the same lead: a resend, not a second lead.
  const keys = (await leadRecords()).map((r) => (r as { record: { idempotency_key?: string } }).record.idempotency_key)
  expect(keys).toEqual(['item-a:lead', 'item-a:lead'])
  expect(before.leadId).not.toBe('')
  // Once the CRM answered, the map holds the lead and no creation in flight, on disk too.
  const entry = createLeadMap(stateDir).get('payments:abc')
  expect(entry).toEqual({ leadId: recorder.leads.get('payments:abc')?.leadId, resolved: false })
  expect(entry?.leadId).not.toBe('')
  await recorder.release()
})
