// Pure: which activity an incident notice leaves on the lead. Counts and resolves are NOTEs; an
// escalation is recorded as the contact it starts (PHONECALL for voice, MESSAGE for texts).
import type { Delivery } from '../../alerts'
import type { IncidentEvent } from './incident-event'

const TITLES: Readonly<Record<Delivery['notice']['kind'], string>> = {
  firing: 'Incident opened',
  repeat: 'Still firing',
  escalated: 'Escalated',
  resolved: 'Resolved',
  digest: 'Alerts suppressed by budget',
}

export function incidentActivities(delivery: Delivery): IncidentEvent['activity'][] {
  if (delivery.message.type !== 'incident') return []
  const { notice } = delivery
  const notes = delivery.message.notes
  if (notice.kind === 'escalated') {
    const channels = notice.channels ?? []
    const type = channels.some((c) => c.includes('voice')) ? 'PHONECALL' : 'MESSAGE'
    return [{ type, title: `${TITLES.escalated} to ${channels.join(', ') || 'every channel'} (step ${notice.incident.step})`, notes }]
  }
  const title = notice.kind === 'repeat' ? `${TITLES.repeat}: ${notice.newCount} more` : TITLES[notice.kind]
  return [{ type: 'NOTE', title, notes }]
}
