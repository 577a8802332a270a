// What the alert path keeps in the outbox and how the outbox is to treat it. Pure:
// 1. A CRM record (kind `incident`) goes out on the lane INCIDENT_CHANNEL; a message on the lane of
//    its channel, or of its kind in journals of versions that did not name the channel.
// 2. A lane's limit is its channel's `concurrency`, else DEFAULT_CHANNEL_CONCURRENCY (the CRM too).
// 3. An item belongs to its incident (the order key: one at a time, in order): a record by its key,
//    a message by its key, else its page's, else its recorded event's.
// 4. A page is a notice of kind firing, repeat, escalated or unacknowledged.
// 5. The pages waiting in the outbox: those a message carries, and, for a target that only records
//    incidents, a record of a page notice (not a sent message's record: its page is known already).
// 6. In a fleet, a batch's notices are claimed when journaled only while nothing is spilled and
//    their lane holds fewer than AHEAD_PER_SLOT items per request it may have in flight.
import type { Delivery } from '../../alerts'
import type { OutboxItem, OutboxStats } from '../outbox'
import type { FleetNotice } from './fleet/types'
import type { IncidentEvent } from './record/incident-event'
import type { QueuedPage } from './types'

/** The name of the recording channel added to the engine when incidents are recorded as notes. */
export const INCIDENT_CHANNEL = 'logx.incident'

/** Requests in flight at once per channel (and for the CRM records) when the channel does not say. */
export const DEFAULT_CHANNEL_CONCURRENCY = 4

/** In a fleet, items are claimed when journaled while their lane holds fewer than this many per request in flight. */
export const AHEAD_PER_SLOT = 16

/** A message in the outbox. */
export interface Queued {
  request: unknown
  /** The channel it goes out on: its outbox lane. Absent in journals of older versions (the kind is the lane). */
  channel?: string
  /** The incident's key: its messages go out one at a time, in the order made. */
  key?: string
  incident?: IncidentEvent
  /** The page this message is part of (firing, repeat, escalation), for recovery after a crash. */
  page?: QueuedPage
  /** In a fleet: the notice as every agent names it, claimed before sending (fleet-gate.ts). */
  fleet?: FleetNotice
}

/** A CRM record in the outbox: the event, and in a fleet the notice it records. */
export type QueuedRecord = IncidentEvent & { fleet?: FleetNotice }

export interface OutboxEntry {
  kind: string
  payload: unknown
}

/** Rule 1. */
export function laneOf(kind: string, payload: unknown): string {
  return kind === 'incident' ? INCIDENT_CHANNEL : ((payload as Queued | undefined)?.channel ?? kind)
}

/** Rule 2. */
export function limitOf(lane: string, channels: ReadonlyMap<string, { concurrency?: number | undefined }>): number {
  return channels.get(lane)?.concurrency ?? DEFAULT_CHANNEL_CONCURRENCY
}

/** Rule 3. */
export function incidentOf(item: OutboxEntry): string | undefined {
  if (item.kind === 'incident') return (item.payload as IncidentEvent | undefined)?.key
  const queued = item.payload as Queued | undefined
  return queued?.key ?? queued?.page?.key ?? queued?.incident?.key
}

/** Rule 4. */
export function isPage(kind: Delivery['notice']['kind']): boolean {
  return kind === 'firing' || kind === 'repeat' || kind === 'escalated' || kind === 'unacknowledged'
}

/** Rule 5. */
export function queuedPagesOf(items: readonly OutboxItem[]): QueuedPage[] {
  const pages: QueuedPage[] = []
  for (const item of items) {
    if (item.kind !== 'incident') {
      const page = (item.payload as Queued | undefined)?.page
      if (page !== undefined) pages.push(page)
      continue
    }
    const event = item.payload as QueuedRecord | undefined
    if (event !== undefined && event.messageKey === undefined && isPage(event.kind)) {
      pages.push({ key: event.key, rule: event.rule, at: event.at })
    }
  }
  return pages
}

/** Rule 6. */
export function noticesToClaim(
  entries: readonly OutboxEntry[],
  stats: Pick<OutboxStats, 'spilled' | 'lanes'>,
  limit: (lane: string) => number,
): FleetNotice[] {
  if (stats.spilled > 0) return []
  const notices: FleetNotice[] = []
  for (const { kind, payload } of entries) {
    const notice = (payload as Queued | QueuedRecord).fleet
    const lane = laneOf(kind, payload)
    if (notice !== undefined && (stats.lanes[lane]?.pending ?? 0) < AHEAD_PER_SLOT * limit(lane)) notices.push(notice)
  }
  return notices
}
