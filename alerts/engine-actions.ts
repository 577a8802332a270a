// What people do to incidents, through the engine: acknowledge, unacknowledge, resolve (by hand, or when
// the sender of the lines says the alert ended) and a missed call's acknowledgements
// (acknowledgement.ts has the rules). Each change's notices go through the same delivery as a line's.
import type { AbsenceIncidents } from './absence-incidents'
import type { AckRefusal } from './acknowledgement'
import type { IncidentChange, IncidentTable } from './incidents'
import type { Actor, IncidentSnapshot, Notice } from './notice'
import type { Delivery } from './notify-path'

/** An acknowledge, unacknowledge or resolve: what to send and the incident after it, or why not. */
export type AckOutcome =
  { ok: true; deliveries: Delivery[]; incident: IncidentSnapshot } | { ok: false; reason: AckRefusal }

export interface PeopleActions {
  acknowledge(key: string, actor: Actor, now: number): AckOutcome
  unacknowledge(key: string, actor: Actor, now: number): AckOutcome
  resolve(key: string, actor: Actor | undefined, now: number, notify?: boolean): AckOutcome
  acknowledgeFor(person: string, actor: Actor, now: number, all: boolean): { keys: string[]; deliveries: Delivery[] }
}

/** A missed call's acknowledgements (acknowledgement.ts, rule 7): the keys acked and their notices. */
function acknowledgeAll(incidents: IncidentTable, person: string, actor: Actor, now: number, all: boolean) {
  const keys: string[] = []
  const notices: Notice[] = []
  for (const key of incidents.acknowledgeable(person, now, all)) {
    const change = incidents.acknowledge(key, actor, now)
    if (!change.ok) continue
    keys.push(key)
    notices.push(...change.notices)
  }
  return { keys, notices }
}

export function createPeopleActions(
  incidents: IncidentTable,
  absence: AbsenceIncidents,
  deliver: (now: number, notices: Notice[]) => Delivery[],
): PeopleActions {
  function changed(change: IncidentChange, now: number): AckOutcome {
    if (!change.ok) return change
    const deliveries = deliver(now, change.notices)
    // Still open (not resolved): as the deliveries left it (whom the re-page reached).
    return { ok: true, deliveries, incident: incidents.get(change.incident.key) ?? change.incident }
  }

  return {
    acknowledge: (key, actor, now) => changed(incidents.acknowledge(key, actor, now), now),
    unacknowledge: (key, actor, now) => changed(incidents.unacknowledge(key, actor, now), now),
    resolve(key, actor, now, notify) {
      const change = incidents.resolve(key, actor, now, notify)
      // By hand: the key is no longer watched (a host taken out of service stops paging).
      if (change.ok) absence.resolved(change.incident)
      return changed(change, now)
    },
    acknowledgeFor(person, actor, now, all) {
      const { keys, notices } = acknowledgeAll(incidents, person, actor, now, all)
      return { keys, deliveries: keys.length === 0 ? [] : deliver(now, notices) }
    },
  }
}
