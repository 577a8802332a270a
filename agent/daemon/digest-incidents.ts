// The incidents a digest tells of, as the running agent knows them: the engine's open incidents, and
// those the kinds of the period opened that have ended since (the engine no longer holds them; their
// timeline does). Pure: the engine's list, the kinds and the timeline's read are passed in. The rules:
// 1. An open incident is told as the engine holds it, with its acknowledgement.
// 2. An incident a kind seen since `from` opened, no longer open, is told from its timeline as
//    resolved (the engine drops an incident only when it ends, with a resolve notice or without):
//    first and last entry times, acknowledged by whoever the last acknowledgement names; its title
//    is the kind's template, its rule the key's prefix (keys are `rule:hash`).
// 3. One without a timeline entry is not told (nothing is known of it); none is told twice.
import type { IncidentSnapshot } from '../../alerts'
import type { DigestIncidentInput, KindEntry } from '../../alerts/kinds'
import type { TimelineEntry } from '../incidents/incident-timeline'

/** Rule 1. */
function openIncident(snapshot: IncidentSnapshot): DigestIncidentInput {
  const told: DigestIncidentInput = {
    key: snapshot.key,
    rule: snapshot.rule,
    title: snapshot.title,
    status: snapshot.status,
    firstSeen: snapshot.firstSeen,
    lastSeen: snapshot.lastSeen,
    count: snapshot.count,
  }
  if (snapshot.ack !== undefined) told.ack = { by: snapshot.ack.by, at: snapshot.ack.at }
  return told
}

/** Rule 2; undefined by rule 3. */
function endedIncident(
  key: string,
  kind: KindEntry,
  history: readonly TimelineEntry[],
): DigestIncidentInput | undefined {
  const first = history[0]
  const last = history.at(-1)
  if (first === undefined || last === undefined) return undefined
  const acked = history.findLast((entry) => entry.kind === 'acknowledged' && entry.by !== undefined)
  const colon = key.indexOf(':')
  const told: DigestIncidentInput = {
    key,
    rule: colon === -1 ? key : key.slice(0, colon),
    title: kind.template,
    status: 'resolved',
    firstSeen: first.at,
    lastSeen: last.at,
    count: kind.count,
  }
  if (acked?.by !== undefined) told.ack = { by: acked.by, at: acked.at }
  return told
}

/** Rules 1 to 3. */
export function digestIncidentsOf(
  open: readonly IncidentSnapshot[],
  kinds: readonly KindEntry[],
  historyOf: (key: string) => readonly TimelineEntry[],
  from: number,
): DigestIncidentInput[] {
  const told = open.map(openIncident)
  const keys = new Set(told.map((i) => i.key))
  for (const kind of kinds) {
    const key = kind.incident
    if (key === undefined || keys.has(key) || kind.lastSeen < from) continue
    const ended = endedIncident(key, kind, historyOf(key))
    if (ended === undefined) continue
    keys.add(key)
    told.push(ended)
  }
  return told
}
