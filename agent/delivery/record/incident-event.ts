// What the CRM hears about an incident: built from a delivery (pure), queued in the outbox, and
// applied by the incident recorder. JSON-safe so it survives a restart in the journal.
import type { Delivery } from '../../../alerts'
import type { ActivityType } from '../../messaging'

export interface IncidentEvent {
  key: string
  title: string
  rule: string
  kind: Delivery['notice']['kind']
  count: number
  firstSeen: number
  at: number
  service: string | undefined
  host: string | undefined
  activity: { type: ActivityType; title: string; notes: string }
  /** A test page's incident (`logx-agent test-page`: its line says `logx_test: true`); its lead says so. */
  test?: true
  /**
   * On the activity of a sent message: that message's outbox item id. The CRM calls' keys derive
   * from it, not from this event's own item, so a message resent after a crash (which queues its
   * activity again, as a new item) records it again under the same keys: a resend, not a new one.
   */
  messageKey?: string
}

function stringField(record: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = record[key]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

export function incidentEvent(
  delivery: Delivery,
  activity: IncidentEvent['activity'],
  service: string | undefined,
): IncidentEvent {
  const { incident } = delivery.notice
  const record = incident.lastLine.record
  return {
    key: incident.key,
    title: incident.title,
    rule: incident.rule,
    kind: delivery.notice.kind,
    count: incident.count,
    firstSeen: incident.firstSeen,
    at: delivery.notice.at,
    service: service ?? stringField(record, 'name') ?? stringField(record, 'service'),
    host: stringField(record, 'hostname') ?? stringField(record, 'host'),
    activity,
    ...(record['logx_test'] === true ? { test: true as const } : {}),
  }
}

/** Whom a schedule put on call for the message, when one did: the lead says who it was. */
function onCallNote(notice: Delivery['notice']): string {
  if (notice.oncall === undefined || notice.oncall.length === 0) return ''
  return `\non call: ${notice.oncall.map((o) => `${o.user} (schedule ${o.schedule}, ${o.layer})`).join(', ')}`
}

/** The activity recorded for a message a channel sent (MESSAGE for texts, PHONECALL for voice). */
export function sentActivity(delivery: Delivery, summary: string): IncidentEvent['activity'] {
  const type: ActivityType = delivery.channelType === 'voice' ? 'PHONECALL' : 'MESSAGE'
  const { notice } = delivery
  const what = delivery.channelType === 'voice' ? 'Voice call placed' : `${delivery.channelType.toUpperCase()} sent`
  return {
    type,
    title: `${what} (${notice.kind}) via ${notice.channel}`,
    notes: `${summary}\ncount: ${notice.incident.count} (${notice.newCount} new)${onCallNote(notice)}`,
  }
}
