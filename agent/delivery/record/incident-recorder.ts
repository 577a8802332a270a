// Applies incident events to the CRM: the first event of an incident creates its lead (name =
// title; other_fields = service, host, rule, fingerprint, first seen, count), every event appends
// its activity. Targets of one worker that point at the same CRM share one recorder, so an SMS
// target and an incident target write to one lead per incident.
//
// Each call carries an `Idempotency-Key` derived from the event's key (`<key>:lead`,
// `<key>:activity`): callers pass the id of the outbox item that holds the event, so a resend of
// that item (a retry, or again after a crash before the journal said done) repeats the same keys,
// and a different event never shares one. In a fleet, the fleet's leads are asked first
// (`sharedLeads`, agent/cluster): one agent creates an incident's lead, the others record on it.
import { createLeadWebhookClient, type LeadWebhookClient } from '../../messaging'
import { HeldByPeer } from '../fleet/fleet-gate'
import type { IncidentEvent } from './incident-event'
import { createLeadMap, type LeadMap, type SharedLeads } from './lead-map'

export interface IncidentRecorder {
  /** `key`: the same for every resend of this event, unique to it (its outbox item's id). */
  record(event: IncidentEvent, key: string): Promise<void>
  readonly leads: LeadMap
  release(): Promise<void>
}

interface Shared {
  client: LeadWebhookClient
  leads: LeadMap
  /** One lead creation at a time per incident: two events of a new incident must not make two leads. */
  locks: Map<string, Promise<unknown>>
  users: number
}

const shared = new Map<string, Shared>()

/** The CRM's webhooks, and where the fingerprint -> lead map is kept (memory without `stateDir`). */
export interface CrmTarget {
  leadWebhook: string
  activityWebhook: string
  activityToken: string
  stateDir?: string | undefined
  /** A fleet's leads (agent/cluster): asked first, so that the fleet makes one lead per incident. */
  sharedLeads?: SharedLeads | undefined
}

/** Per HTTP attempt (the outbox retries). */
export interface RecorderConnection {
  timeoutMs?: number | undefined
}

export function acquireRecorder(crm: CrmTarget, connection: RecorderConnection = {}): IncidentRecorder {
  const id = `${crm.leadWebhook}\u0000${crm.activityWebhook}\u0000${crm.stateDir ?? ''}`
  let entry = shared.get(id)
  if (entry === undefined) {
    entry = {
      client: createLeadWebhookClient({
        leadWebhookUrl: crm.leadWebhook,
        activityWebhookUrl: crm.activityWebhook,
        activityToken: crm.activityToken,
        ...(connection.timeoutMs !== undefined ? { timeoutMs: connection.timeoutMs } : {}),
      }),
      leads: createLeadMap(crm.stateDir),
      locks: new Map(),
      users: 0,
    }
    shared.set(id, entry)
  }
  const mine = entry
  mine.users++
  let released = false

  const fleetLeads = crm.sharedLeads

  /** In a fleet: the fleet's lead (undefined while the fleet's state is out of reach: this agent's map decides). */
  async function fleetLeadFor(fleet: SharedLeads, event: IncidentEvent, key: string): Promise<string | undefined> {
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
        const leadId = await createLead(event, answer.idempotencyKey)
        await fleet.created(event.key, leadId)
        return leadId
      }
    }
  }

  async function createLead(event: IncidentEvent, idempotencyKey: string): Promise<string> {
    const otherFields: Record<string, string> = {
      rule: event.rule,
      fingerprint: event.key,
      first_seen: new Date(event.firstSeen).toISOString(),
      count: String(event.count),
    }
    if (event.service !== undefined) otherFields.service = event.service
    if (event.host !== undefined) otherFields.host = event.host
    const { leadId } = await mine.client.createLead(
      { name: event.title.slice(0, 200) || event.rule, otherFields },
      { idempotencyKey },
    )
    mine.leads.set(event.key, leadId)
    return leadId
  }

  async function leadFor(event: IncidentEvent, key: string): Promise<string> {
    if (fleetLeads !== undefined) {
      const leadId = await fleetLeadFor(fleetLeads, event, key)
      if (leadId !== undefined) return leadId
    }
    const known = mine.leads.get(event.key)
    // A resolved incident's lead still takes late records; a new firing opens a new lead.
    if (known !== undefined && known.leadId !== '' && !(known.resolved && event.kind === 'firing')) return known.leadId
    // A creation recorded before a crash may have reached the CRM: its key makes it the same lead,
    // whichever event (of this target or another one sharing the map) records the incident first.
    const idempotencyKey = known?.leadId === '' && known.creating !== undefined ? known.creating : `${key}:lead`
    if (known?.creating !== idempotencyKey) mine.leads.creating(event.key, idempotencyKey)
    return createLead(event, idempotencyKey)
  }

  return {
    leads: mine.leads,
    async record(event, key) {
      const previous = mine.locks.get(event.key) ?? Promise.resolve()
      const run = previous
        .catch(() => {})
        .then(async () => {
          const leadId = await leadFor(event, key)
          await mine.client.addActivities(
            {
              leadId,
              activities: [
                {
                  title: event.activity.title,
                  date: new Date(event.at),
                  type: event.activity.type,
                  notes: event.activity.notes,
                },
              ],
            },
            { idempotencyKey: `${key}:activity` },
          )
          // A resolved incident is over: the next failure with this fingerprint is a new lead.
          if (event.kind === 'resolved') {
            mine.leads.markResolved(event.key)
            await fleetLeads?.resolved(event.key)
          }
        })
      mine.locks.set(event.key, run)
      try {
        await run
      } finally {
        if (mine.locks.get(event.key) === run) mine.locks.delete(event.key)
      }
    },
    async release() {
      if (released) return
      released = true
      mine.users--
      if (mine.users === 0) {
        shared.delete(id)
        await mine.client.close()
      }
    },
  }
}
