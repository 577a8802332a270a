// Applies incident events to the CRM: the first event of an incident creates its lead (name =
// title; other_fields = service, host, rule, fingerprint, first seen, count), every event appends
// its activity. Targets of one worker that point at the same CRM share one recorder
// (shared-recorders.ts), so an SMS target and an incident target write to one lead per incident.
//
// Each call carries an `Idempotency-Key` derived from the event's key (`<key>:lead`,
// `<key>:activity`): callers pass the id of the outbox item that holds the event, so a resend of
// that item (a retry, or again after a crash before the journal said done) repeats the same keys,
// and a different event never shares one. In a fleet, the fleet's leads are asked first
// (`sharedLeads`, agent/cluster): one agent creates an incident's lead, the others record on it.
// Which lead and which key are lead-rules.ts.
import { HeldByPeer } from '../fleet/fleet-gate'
import type { IncidentEvent } from './incident-event'
import { activityKey, creationKey, knownLead, newLead } from './lead-rules'
import { acquireCrm, inTurn, releaseCrm, type SharedCrm } from './shared-recorders'
import type { CrmTarget, IncidentRecorder, RecorderConnection, SharedLeads } from './types'

export type { CrmTarget, IncidentRecorder, RecorderConnection } from './types'

async function createLead(mine: SharedCrm, event: IncidentEvent, idempotencyKey: string): Promise<string> {
  const { leadId } = await mine.client.createLead(newLead(event), { idempotencyKey })
  mine.leads.set(event.key, leadId)
  return leadId
}

/** In a fleet: the fleet's lead (undefined while the fleet's state is out of reach: this agent's map decides). */
async function fleetLeadFor(
  mine: SharedCrm,
  fleet: SharedLeads,
  event: IncidentEvent,
  key: string,
): Promise<string | undefined> {
  const answer = await fleet.claim(event.key, `${key}:lead`, event.kind === 'firing')
  switch (answer.kind) {
    case 'degraded':
      return undefined
    case 'wait':
      // The record waits in the outbox (alone) until the agent creating the lead is done or gone.
      throw new HeldByPeer(answer.by, answer.retryAfterMs)
    case 'lead':
      if (mine.leads.get(event.key)?.leadId !== answer.leadId) mine.leads.set(event.key, answer.leadId)
      return answer.leadId
    case 'create': {
      mine.leads.creating(event.key, answer.idempotencyKey)
      const leadId = await createLead(mine, event, answer.idempotencyKey)
      await fleet.created(event.key, leadId)
      return leadId
    }
  }
}

async function leadFor(mine: SharedCrm, fleet: SharedLeads | undefined, event: IncidentEvent, key: string) {
  if (fleet !== undefined) {
    const leadId = await fleetLeadFor(mine, fleet, event, key)
    if (leadId !== undefined) return leadId
  }
  const known = mine.leads.get(event.key)
  const leadId = knownLead(known, event.kind)
  if (leadId !== undefined) return leadId
  const idempotencyKey = creationKey(known, key)
  if (known?.creating !== idempotencyKey) mine.leads.creating(event.key, idempotencyKey)
  return createLead(mine, event, idempotencyKey)
}

async function recordOn(mine: SharedCrm, fleet: SharedLeads | undefined, event: IncidentEvent, key: string) {
  const leadId = await leadFor(mine, fleet, event, key)
  const { title, type, notes } = event.activity
  const activities = [{ title, date: new Date(event.at), type, notes }]
  await mine.client.addActivities({ leadId, activities }, { idempotencyKey: activityKey(key) })
  // A resolved incident is over: the next failure with this fingerprint is a new lead.
  if (event.kind === 'resolved') {
    mine.leads.markResolved(event.key)
    await fleet?.resolved(event.key)
  }
}

export function acquireRecorder(crm: CrmTarget, connection: RecorderConnection = {}): IncidentRecorder {
  const { id, crm: mine } = acquireCrm(crm, connection)
  let released = false
  return {
    leads: mine.leads,
    record: (event, key) => inTurn(mine, event.key, () => recordOn(mine, crm.sharedLeads, event, key)),
    async release() {
      if (released) return
      released = true
      await releaseCrm(id, mine)
    },
  }
}
