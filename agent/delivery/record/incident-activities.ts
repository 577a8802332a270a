// Pure: which activity an incident notice leaves on the lead. Counts and resolves are NOTEs; an
// escalation is recorded as the contact it starts (PHONECALL for voice, MESSAGE for texts); an
// acknowledgement by missed call is the PHONECALL it was, every other change people make a NOTE
// saying who, how and when.
import type { Delivery } from '../../../alerts'
import type { IncidentEvent } from './incident-event'

const TITLES: Readonly<Record<Delivery['notice']['kind'], string>> = {
  firing: 'Incident opened',
  repeat: 'Still firing',
  escalated: 'Escalated',
  resolved: 'Resolved',
  digest: 'Alerts suppressed by budget',
  acknowledged: 'Acknowledged',
  unacknowledged: 'No longer acknowledged',
  inhibited: 'Page muted by inhibition',
}

const VIA: Readonly<Record<string, string>> = {
  missed_call: 'missed call',
  console: 'the console',
  cli: 'the command line',
  timeout: 'ack_timeout elapsed',
}

function actorLine(actor: NonNullable<Delivery['notice']['actor']>, at: number): string {
  const when = new Date(at).toISOString()
  if (actor.via === 'timeout') return `ack_timeout elapsed at ${when}`
  const detail = actor.detail === undefined ? '' : `, ${actor.detail}`
  return `by ${actor.by} via ${VIA[actor.via] ?? actor.via}${detail} at ${when}`
}

export function incidentActivities(delivery: Delivery): IncidentEvent['activity'][] {
  if (delivery.message.type !== 'incident') return []
  const { notice } = delivery
  const notes = delivery.message.notes
  if (notice.kind === 'escalated') {
    const channels = notice.channels ?? []
    const type = channels.some((c) => c.includes('voice')) ? 'PHONECALL' : 'MESSAGE'
    return [
      {
        type,
        title: `${TITLES.escalated} to ${channels.join(', ') || 'every channel'} (step ${notice.incident.step})`,
        notes,
      },
    ]
  }
  if (notice.inhibitedBy !== undefined) {
    const by = notice.inhibitedBy
    return [{ type: 'NOTE', title: `${TITLES.inhibited}: "${by.title}" (${by.rule}) is firing`, notes }]
  }
  if (notice.actor !== undefined) {
    const who = actorLine(notice.actor, notice.at)
    const type = notice.actor.via === 'missed_call' ? 'PHONECALL' : 'NOTE'
    const title =
      notice.actor.via === 'timeout'
        ? `${TITLES[notice.kind]}: ack_timeout elapsed`
        : `${TITLES[notice.kind]} by ${notice.actor.by}`
    return [{ type, title, notes: `${title}\n${who}\n${notes}` }]
  }
  const title = notice.kind === 'repeat' ? `${TITLES.repeat}: ${notice.newCount} more` : TITLES[notice.kind]
  return [{ type: 'NOTE', title, notes }]
}
