// What one delivery puts in the outbox: a message per request its channel's builder makes (each
// carrying its page and, when the rule's incidents are recorded, the record of it once sent), or
// for the recording channel the CRM records of the notice. In a fleet each entry names its notice
// as every agent names it. Pure: the routing (channels, people, windows) is passed in.
import type { Delivery } from '../../alerts'
import type { ChannelConfig, PersonConfig } from '../config/types'
import { buildChannelRequests } from './channels'
import { addressed, type PeopleDirectory } from './channels/recipients'
import { fleetNoticeOf } from './fleet'
import type { NoticeWindows } from './fleet/types'
import { INCIDENT_CHANNEL, isPage, type OutboxEntry, type Queued, type QueuedRecord } from './outbox-items'
import { incidentActivities } from './record/incident-activities'
import { incidentEvent, sentActivity } from './record/incident-event'

/** Where deliveries go; reloads replace its parts. */
export interface Routing {
  channels: ReadonlyMap<string, ChannelConfig>
  people: PeopleDirectory
  /** By rule: how often its repeats may go out fleet-wide. */
  windows: ReadonlyMap<string, NoticeWindows>
  /** Whether incidents are recorded on the CRM at all (a recorder is there). */
  recording: boolean
  /** Whether entries name their notice for a fleet's claims. */
  fleet: boolean
  service: string | undefined
}

export const directoryOf = (people: readonly PersonConfig[] | undefined): PeopleDirectory =>
  new Map((people ?? []).map((p) => [p.name, p]))

function recordEntries(delivery: Delivery, routing: Routing): OutboxEntry[] {
  const rule = delivery.notice.incident.rule
  return incidentActivities(delivery).map((activity, part) => {
    const record: QueuedRecord = incidentEvent(delivery, activity, routing.service)
    const notice = routing.fleet
      ? fleetNoticeOf(delivery, INCIDENT_CHANNEL, part, routing.windows.get(rule))
      : undefined
    if (notice !== undefined) record.fleet = notice
    return { kind: 'incident', payload: record }
  })
}

function messageEntries(delivery: Delivery, recorded: boolean, routing: Routing): OutboxEntry[] {
  const { notice } = delivery
  const rule = notice.incident.rule
  const configured = routing.channels.get(notice.channel)
  if (configured === undefined) return []
  const page = isPage(notice.kind) ? { key: notice.incident.key, rule, at: notice.at } : undefined
  const { channel, delivery: addressedDelivery } = addressed(configured, delivery, routing.people)
  return buildChannelRequests(channel, addressedDelivery).map((out, part) => {
    const queued: Queued = { request: out.request, channel: channel.name, key: notice.incident.key }
    if (page !== undefined) queued.page = page
    const fleetNotice = routing.fleet
      ? fleetNoticeOf(delivery, channel.name, part, routing.windows.get(rule))
      : undefined
    if (fleetNotice !== undefined) queued.fleet = fleetNotice
    if (recorded) queued.incident = incidentEvent(delivery, sentActivity(delivery, out.summary), routing.service)
    return { kind: out.kind, payload: queued }
  })
}

/** Everything the deliveries of one engine step put in the outbox, in order. */
export function outboxEntriesOf(
  deliveries: readonly Delivery[],
  incidentRules: ReadonlySet<string>,
  routing: Routing,
): OutboxEntry[] {
  const entries: OutboxEntry[] = []
  for (const delivery of deliveries) {
    const recorded = routing.recording && incidentRules.has(delivery.notice.incident.rule)
    if (delivery.channelType === 'incident') {
      if (recorded) entries.push(...recordEntries(delivery, routing))
      continue
    }
    entries.push(...messageEntries(delivery, recorded, routing))
  }
  return entries
}
