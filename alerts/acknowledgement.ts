// Acknowledgement: "I have it". The decisions of the incident state machine's ack paths; the
// incident table (incidents.ts) and the engine only apply them. Pure: time comes in as `now`.
//
//   pending --group_wait--> firing --acknowledge--> acknowledged
//   acknowledged --unacknowledge | ack_timeout--> firing (notice: unacknowledged, re-pages the step reached)
//   pending | firing | acknowledged --resolve by hand--> forgotten (notice: resolved)
//
// The rules, in the order they are checked:
// 1. Only a firing incident can be acknowledged. An unknown key is refused `unknown`; a pending one
//    `pending` (nobody was paged yet: there is nothing to answer); an acknowledged one
//    `already-acknowledged` (the first ack stands: its who and when are not overwritten).
// 2. An acknowledgement records who, how and when. Its `acknowledged` notice goes to no channel but
//    the recording ones (the CRM trail), and silences and the budget never swallow it: the trail of
//    who acked what is complete.
// 3. While acknowledged nothing pages: no repeat, no escalation. Lines keep counting (count,
//    lastSeen), and resolve_after still resolves it.
// 4. Only an acknowledged incident can be unacknowledged (`not-acknowledged` otherwise, `unknown`
//    for no incident). It fires again: an `unacknowledged` notice pages the channels (and people) of
//    the step it had reached, repeats count from then, and the escalation clock (`firedAt`) moves on
//    by the time spent acknowledged, so the next step comes as late as it would have with no ack.
// 5. ack_timeout: at a tick, an acknowledged incident whose ack is ack_timeout old or older is
//    unacknowledged as in 4, by `ack_timeout` via `timeout`. Without ack_timeout an ack holds until
//    the incident resolves.
// 6. Anyone can resolve an open incident by hand: it is forgotten, and the next matching line opens
//    a new one. Its `resolved` notice (with the actor) goes to the channels of every step reached
//    when the rule sends resolved notices, else to the recording channels only. A pending incident
//    paged nobody: resolving it leaves no notice.
// 7. A missed call acknowledges the firing, unacknowledged incidents a page reached the caller for
//    by the time of the call (`pagedTo[person] <= now`): the one paged to them most recently (on a
//    tie, the most recently seen), or every one of them with ack_all. Pending and acknowledged
//    incidents, ones never paged to them and ones paged to them only after the call stay as they are.
// 8. A page reaches a person when a page notice (firing, repeat, escalated, unacknowledged) came out
//    of the pipeline (past silences and budget) on a channel that is not a recording one: the
//    people of the notice's escalation step, else the channel's people.
import { PAGE_KINDS, type Acknowledgement, type Actor, type IncidentStatus, type Notice } from './notice'

export type AckRefusal = 'unknown' | 'pending' | 'already-acknowledged' | 'not-acknowledged'

/** What the decisions read of an incident. */
export interface AckView {
  readonly status: IncidentStatus
  readonly ack: Acknowledgement | undefined
  readonly firedAt: number
}

export type AckDecision =
  | { readonly kind: 'refuse'; readonly reason: AckRefusal }
  | { readonly kind: 'acknowledge'; readonly ack: Acknowledgement }
  /** `firedAt`: the escalation clock moved on by the time spent acknowledged. */
  | { readonly kind: 'unacknowledge'; readonly firedAt: number }
  /** `notice`: where the resolved notice goes (rule 6). */
  | { readonly kind: 'resolve'; readonly notice: 'reached' | 'recording' | 'none' }

/** The actor of rule 5. */
export const ACK_TIMEOUT_ACTOR: Readonly<Actor> = { by: 'ack_timeout', via: 'timeout' }

/** Rules 1 and 2. */
export function decideAcknowledge(incident: AckView | undefined, actor: Actor, now: number): AckDecision {
  if (incident === undefined) return { kind: 'refuse', reason: 'unknown' }
  if (incident.status === 'pending') return { kind: 'refuse', reason: 'pending' }
  if (incident.status === 'acknowledged') return { kind: 'refuse', reason: 'already-acknowledged' }
  const ack: Acknowledgement = { by: actor.by, via: actor.via, at: now }
  if (actor.detail !== undefined) ack.detail = actor.detail
  return { kind: 'acknowledge', ack }
}

/** Rule 3: whether repeats and escalation run for an incident in this state. */
export function pages(status: IncidentStatus): boolean {
  return status === 'firing'
}

/** Rule 4 (and 5, once the timeout is due). */
export function decideUnacknowledge(incident: AckView | undefined, now: number): AckDecision {
  if (incident === undefined) return { kind: 'refuse', reason: 'unknown' }
  if (incident.status !== 'acknowledged' || incident.ack === undefined)
    return { kind: 'refuse', reason: 'not-acknowledged' }
  // A missed call's time may lie a poll interval behind the clock; never move the clock back.
  const acked = Math.max(0, now - incident.ack.at)
  return { kind: 'unacknowledge', firedAt: incident.firedAt + acked }
}

/** Rule 5: whether an acknowledged incident's ack has timed out at `now`. */
export function ackTimedOut(incident: AckView, ackTimeoutMs: number | undefined, now: number): boolean {
  return (
    ackTimeoutMs !== undefined &&
    incident.status === 'acknowledged' &&
    incident.ack !== undefined &&
    now >= incident.ack.at + ackTimeoutMs
  )
}

/** Rule 6. */
export function decideResolve(incident: AckView | undefined, sendResolved: boolean): AckDecision {
  if (incident === undefined) return { kind: 'refuse', reason: 'unknown' }
  if (incident.status === 'pending') return { kind: 'resolve', notice: 'none' }
  return { kind: 'resolve', notice: sendResolved ? 'reached' : 'recording' }
}

/** What rule 7 reads of an incident. */
export interface PagedView {
  readonly key: string
  readonly status: IncidentStatus
  /** Person name -> last time a page reached them. */
  readonly pagedTo: ReadonlyMap<string, number>
}

/**
 * Rule 7: the keys a missed call from `person` at `now` acknowledges. `incidents` in recency order
 * (least recently seen first), as the incident table holds them.
 */
export function pickAcknowledgeable(
  incidents: Iterable<PagedView>,
  person: string,
  now: number,
  all: boolean,
): string[] {
  const picked: string[] = []
  let latest: { key: string; at: number } | undefined
  for (const incident of incidents) {
    if (incident.status !== 'firing') continue
    const at = incident.pagedTo.get(person)
    if (at === undefined || at > now) continue
    if (all) picked.push(incident.key)
    // `>=`: later in recency order wins a tie.
    else if (latest === undefined || at >= latest.at) latest = { key: incident.key, at }
  }
  return all ? picked : latest === undefined ? [] : [latest.key]
}

/** Rule 8: the people a notice delivered on `channel` paged. */
export function peoplePaged(
  notice: Notice,
  channel: { readonly type: string; readonly people?: readonly string[] | undefined },
): readonly string[] {
  if (!PAGE_KINDS.has(notice.kind) || channel.type === 'incident') return []
  return notice.people ?? channel.people ?? []
}
