// Which lead an incident event is recorded on, and what a new lead says. Pure. The rules:
// 1. Recorders are shared by CRM: the same lead and activity webhooks and the same state directory
//    are one recorder (one lead map, one client), whichever target asks.
// 2. A new lead is named by the incident's title (at most 200 characters), or by its rule when the
//    title is empty; its other fields are the rule, the fingerprint, the first time seen (ISO), the
//    count, and the service and host when known; a test page's lead says `test: true`.
// 3. A known lead takes the event, unless only its creation is recorded (no lead id yet), or it is
//    resolved and the event is a firing: a new firing opens a new lead.
// 4. A creation recorded before a crash may have reached the CRM: the next creation of that incident
//    reuses its key (so the CRM answers with the same lead); else the key is `<event key>:lead`.
// 5. An activity's key is `<event key>:activity`: a resend of the event repeats it, no other event shares it.
import type { CreateLeadInput } from '../../messaging'
import type { IncidentEvent } from './incident-event'
import type { CrmTarget, LeadEntry } from './types'

/** Rule 1. */
export function crmIdentity(crm: CrmTarget): string {
  return `${crm.leadWebhook}\u0000${crm.activityWebhook}\u0000${crm.stateDir ?? ''}`
}

/** Rule 2. */
export function newLead(event: IncidentEvent): CreateLeadInput {
  const otherFields: Record<string, string> = {
    rule: event.rule,
    fingerprint: event.key,
    first_seen: new Date(event.firstSeen).toISOString(),
    count: String(event.count),
  }
  if (event.service !== undefined) otherFields.service = event.service
  if (event.host !== undefined) otherFields.host = event.host
  if (event.test === true) otherFields.test = 'true'
  return { name: event.title.slice(0, 200) || event.rule, otherFields }
}

/** Rule 3: the lead id to record on, or undefined: create one. */
export function knownLead(entry: LeadEntry | undefined, kind: IncidentEvent['kind']): string | undefined {
  if (entry === undefined || entry.leadId === '') return undefined
  return entry.resolved && kind === 'firing' ? undefined : entry.leadId
}

/** Rule 4. */
export function creationKey(entry: LeadEntry | undefined, eventKey: string): string {
  return entry?.leadId === '' && entry.creating !== undefined ? entry.creating : `${eventKey}:lead`
}

/** Rule 5. */
export function activityKey(eventKey: string): string {
  return `${eventKey}:activity`
}
