// The incident state machine, Alertmanager's timing applied per fingerprint, with acknowledgement:
//
//   (new) --threshold met / no threshold--> pending --group_wait elapsed--> firing
//   firing --new lines after repeat_interval--> repeat notice
//   firing --escalation[n].after since first fired--> escalated (step n; a step outside its active
//            hours is skipped: the first later step active then applies at once, steps.ts)
//   firing --acknowledge--> acknowledged (no repeat, no escalation; lines still count)
//   acknowledged --unacknowledge | ack_timeout--> firing (unacknowledged notice: re-pages step reached)
//   firing | acknowledged --resolve_after without lines--> resolved notice (send_resolved) and forgotten
//   pending | firing | acknowledged --resolve by hand--> resolved notice and forgotten
//   (absence.ts: an absence incident opens by observe() of a line made of its key; its key's next
//   line resolves it: resolve() with no actor, a resolved notice to the channels reached)
//
// The ack paths' decisions are acknowledgement.ts's (numbered rules there); this table applies them.
// Memory is bounded: past `maxIncidents` the least recently seen incident is evicted (counted).
// No clock and no timers: `now` comes in with every call and tick() is driven by the caller.
import { ACK_TIMEOUT_ACTOR, decideAcknowledge, decideResolve, decideUnacknowledge } from './acknowledgement'
import { pickAcknowledgeable, type AckRefusal } from './acknowledgement'
import { BoundedIncidents, type IncidentStats } from './bounded-incidents'
import { fingerprint } from './fingerprint'
import { restoredState, snapshot } from './incident-record'
import { onFleetSeen, onLine, onTick, type FleetSeen } from './incident-timing'
import { applyLine, applyTick, fire, noticeOf, openIncident, reopen } from './incident-transitions'
import type { AlertLine } from './line'
import type { Actor, IncidentSnapshot, IncidentStatus, IncidentView, Notice } from './notice'
import { reachedChannels } from './steps'
import type { Rule } from './rule'

export type { IncidentView } from './notice'

export interface IncidentTableOptions {
  /** Most incidents held at once; default 10 000. */
  maxIncidents?: number | undefined
}

export type { FleetSeen } from './incident-timing'
export type { IncidentStats } from './bounded-incidents'
export { MAX_TITLE } from './incident-transitions'

/** An acknowledge, unacknowledge or resolve: the incident after it and the notices it makes. */
export type IncidentChange =
  { ok: true; incident: IncidentSnapshot; notices: Notice[] } | { ok: false; reason: AckRefusal }

export interface IncidentTable {
  /** `key` is `fingerprint(rule, line)`, given when the caller already has it. */
  observe(rule: Rule, line: AlertLine, now: number, key?: string): Notice[]
  tick(now: number): Notice[]
  /** Fires every incident still in group_wait (shutdown: better early than never). */
  flush(now: number): Notice[]
  acknowledge(key: string, actor: Actor, now: number): IncidentChange
  unacknowledge(key: string, actor: Actor, now: number): IncidentChange
  /**
   * By hand (`actor`), or with no actor when an absence incident's lines came back (absence.ts) or
   * its sender said it ended: then the notice goes to the channels reached whatever send_resolved
   * says. `notify`, when given, decides instead (true: the channels reached; false: recording only).
   */
  resolve(key: string, actor: Actor | undefined, now: number, notify?: boolean): IncidentChange
  /**
   * Other agents of a fleet saw this incident's lines too: `last` is when the fleet last saw one,
   * `windowCount` how many it saw within the rule's threshold window. An open incident takes the
   * fleet's last-seen time (no resolve while any host still sees it), and a pending one whose
   * threshold the fleet met starts its group_wait. Incidents this table does not hold are ignored.
   */
  seenElsewhere(key: string, seen: FleetSeen, now: number): Notice[]
  /** Records that a page about `key` reached these people at `now` (the engine, past silences and budget). */
  paged(key: string, people: readonly string[], now: number): void
  /** The keys a missed call from `person` at `now` acknowledges (acknowledgement.ts, rule 7). */
  acknowledgeable(person: string, now: number, all: boolean): string[]
  get(key: string): IncidentSnapshot | undefined
  /** Open incidents, the most recently seen first: at most `limit`, of `status` when given. */
  list(limit?: number, status?: IncidentStatus): IncidentSnapshot[]
  /** list() without the snapshots: each incident's live view, to read at once. */
  views(limit?: number, status?: IncidentStatus): IncidentView[]
  /** How many open incidents (of `status`), without a snapshot of each. */
  count(status?: IncidentStatus): number
  /**
   * Puts back a firing or acknowledged incident as `snapshot` describes it, under `rule` (the
   * current rule of that name). False when the key is open already or the snapshot is pending.
   */
  restore(snapshot: IncidentSnapshot, rule: Rule): boolean
  stats(): IncidentStats
}

export function createIncidentTable(options: IncidentTableOptions = {}): IncidentTable {
  const incidents = new BoundedIncidents(options.maxIncidents ?? 10_000)

  function observe(rule: Rule, line: AlertLine, now: number, key = fingerprint(rule, line)): Notice[] {
    const s = incidents.get(key) ?? openIncident(rule, line, now, key)
    incidents.touch(s)
    s.count++
    s.sinceNotice++
    s.lastSeen = now
    s.lastLine = line
    return applyLine(s, onLine(s, now), now)
  }

  function tick(now: number): Notice[] {
    const out: Notice[] = []
    for (const s of incidents.values()) {
      const decision = onTick(s, now)
      if (decision.kind === 'drop' || decision.kind === 'resolve') incidents.delete(s.key)
      out.push(...applyTick(s, decision, now, ACK_TIMEOUT_ACTOR))
    }
    return out
  }

  function acknowledge(key: string, actor: Actor, now: number): IncidentChange {
    const s = incidents.get(key)
    const decision = decideAcknowledge(s, actor, now)
    if (decision.kind === 'refuse') return { ok: false, reason: decision.reason }
    if (s === undefined || decision.kind !== 'acknowledge') return { ok: false, reason: 'unknown' }
    s.status = 'acknowledged'
    s.ack = decision.ack
    // Recording channels only (rule 2): the CRM note of who has it.
    return { ok: true, incident: snapshot(s), notices: [noticeOf(s, 'acknowledged', now, [], actor)] }
  }

  function unacknowledge(key: string, actor: Actor, now: number): IncidentChange {
    const s = incidents.get(key)
    const decision = decideUnacknowledge(s, now)
    if (decision.kind === 'refuse') return { ok: false, reason: decision.reason }
    if (s === undefined) return { ok: false, reason: 'unknown' }
    const notices = reopen(s, actor, now)
    return { ok: true, incident: snapshot(s), notices }
  }

  function resolve(key: string, actor: Actor | undefined, now: number, notify?: boolean): IncidentChange {
    const s = incidents.get(key)
    const decision = decideResolve(s, notify ?? (actor === undefined || (s?.rule.sendResolved ?? false)))
    if (decision.kind === 'refuse') return { ok: false, reason: decision.reason }
    if (s === undefined || decision.kind !== 'resolve') return { ok: false, reason: 'unknown' }
    incidents.delete(key)
    if (decision.notice === 'none') return { ok: true, incident: snapshot(s), notices: [] }
    const channels = decision.notice === 'reached' ? reachedChannels(s.rule, s.step) : []
    const n = noticeOf(s, 'resolved', now, channels, actor)
    return { ok: true, incident: n.incident, notices: [n] }
  }

  function seenElsewhere(key: string, seen: FleetSeen, now: number): Notice[] {
    const s = incidents.get(key)
    if (s === undefined) return []
    const decision = onFleetSeen(s, seen, now)
    s.lastSeen = decision.lastSeen
    if (decision.fireAt === undefined) return []
    s.fireAt = decision.fireAt
    return now >= s.fireAt ? [fire(s, now)] : []
  }

  return {
    observe,
    tick,
    flush: (now) =>
      [...incidents.values()].filter((s) => s.status === 'pending' && s.fireAt !== undefined).map((s) => fire(s, now)),
    acknowledge,
    unacknowledge,
    resolve,
    seenElsewhere,
    paged(key, people, now) {
      const s = incidents.get(key)
      if (s !== undefined) for (const person of people) s.pagedTo.set(person, now)
    },
    acknowledgeable: (person, now, all) => pickAcknowledgeable(incidents.values(), person, now, all),
    get: (key) => {
      const s = incidents.get(key)
      return s === undefined ? undefined : snapshot(s)
    },
    list: (limit, status) => incidents.newest(limit, status).map(snapshot),
    views: (limit, status) => incidents.newest(limit, status),
    count: (status) => incidents.count(status),
    restore(from, rule) {
      if (from.status === 'pending' || incidents.has(from.key)) return false
      incidents.touch(restoredState(from, rule))
      return true
    },
    stats: () => incidents.stats(),
  }
}
