// The CRM recording's types others import (the path, the dispatcher, agent/cluster). A leaf.
import type { IncidentEvent } from './incident-event'

export type { IncidentEvent } from './incident-event'

export interface LeadEntry {
  /** '' while only a creation is recorded (`creating`), before the CRM answered. */
  leadId: string
  resolved: boolean
  /**
   * The Idempotency-Key of a lead creation that may have reached the CRM: written before the call,
   * so whoever records the incident next (the same event resent after a crash, or another target's
   * event) creates it under the same key, and the CRM answers with the same lead.
   */
  creating?: string
}

/** What a fleet's leads say of an incident (see SharedLeads.claim). */
export type SharedLeadAnswer =
  | { kind: 'lead'; leadId: string }
  | { kind: 'create'; idempotencyKey: string }
  | { kind: 'wait'; by: string; retryAfterMs: number }
  | { kind: 'degraded' }

/**
 * A fleet's leads (agent/cluster): one lead per incident whichever agent records it. This map stays
 * each agent's own cache, and the one used while the fleet's state is out of reach.
 */
export interface SharedLeads {
  /**
   * The incident's lead; or `create` it under the key given (or under the key another agent began a
   * creation with and left); or `wait` for the agent creating it. `opening`: the record opens the
   * incident (a firing), which does not reuse a resolved lead.
   */
  claim(incident: string, idempotencyKey: string, opening: boolean): Promise<SharedLeadAnswer>
  /** Never rejects. */
  created(incident: string, leadId: string): Promise<void>
  /** The incident is over: its next firing opens a new lead. Never rejects. */
  resolved(incident: string): Promise<void>
}

export interface LeadMap {
  get(key: string): LeadEntry | undefined
  /** Records that a lead for `key` is being created under `idempotencyKey`; written before the call. */
  creating(key: string, idempotencyKey: string): void
  set(key: string, leadId: string): void
  markResolved(key: string): void
  readonly size: number
}

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

export interface IncidentRecorder {
  /** `key`: the same for every resend of this event, unique to it (its outbox item's id). */
  record(event: IncidentEvent, key: string): Promise<void>
  readonly leads: LeadMap
  release(): Promise<void>
}
