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
import {
  ACK_TIMEOUT_ACTOR,
  ackTimedOut,
  decideAcknowledge,
  decideResolve,
  decideUnacknowledge,
  pages,
  pickAcknowledgeable,
  type AckRefusal,
} from './acknowledgement'
import { fingerprint, fingerprintParts } from './fingerprint'
import type { AlertLine } from './line'
import { restoredState, snapshot, type IncidentState } from './incident-record'
import type { Actor, IncidentSnapshot, IncidentStatus, IncidentView, Notice, NoticeKind } from './notice'
import { truncate } from './render'
import type { Rule } from './rule'
import { activeStepFrom, reachedChannels, stepChannels } from './steps'

export type { IncidentView } from './notice'

export interface IncidentTableOptions {
  /** Most incidents held at once; default 10 000. */
  maxIncidents?: number | undefined
}

/** What a fleet saw of one incident (see seenElsewhere). */
export interface FleetSeen {
  last: number
  windowCount: number
}

export interface IncidentStats {
  open: number
  /** Firing or acknowledged: notified and not resolved. */
  firing: number
  acknowledged: number
  evicted: number
}

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
   * By hand (`actor`), or with no actor when an absence incident's lines came back (absence.ts): then
   * the notice goes to the channels reached whatever send_resolved says.
   */
  resolve(key: string, actor: Actor | undefined, now: number): IncidentChange
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

/** Longest incident title (lead name, mail subject): past it, cut with an ellipsis. */
export const MAX_TITLE = 1024

export function createIncidentTable(options: IncidentTableOptions = {}): IncidentTable {
  const max = options.maxIncidents ?? 10_000
  // Insertion order doubles as recency order: a seen incident is moved to the end.
  const incidents = new Map<string, IncidentState>()
  let evicted = 0

  /** A notice; the incident in it is as the notice leaves it. Pages reset the repeat clock. */
  function notice(
    s: IncidentState,
    kind: NoticeKind,
    now: number,
    channels: readonly string[] | undefined,
    actor?: Actor,
  ): Notice {
    const newCount = s.sinceNotice
    if (kind !== 'acknowledged') {
      s.sinceNotice = 0
      s.notifiedAt = now
    }
    const n: Notice = { kind, at: now, incident: snapshot(s), newCount, channels }
    const people = kind === 'resolved' || kind === 'acknowledged' ? undefined : s.rule.escalation[s.step]?.people
    if (people !== undefined) n.people = people
    if (actor !== undefined) n.actor = { ...actor }
    return n
  }

  function fire(s: IncidentState, now: number): Notice {
    s.status = 'firing'
    s.fireAt = undefined
    s.firedAt = now
    s.hits = []
    // Steps outside their active hours are skipped; with none active only the trail hears of it.
    const step = activeStepFrom(s.rule, 0, now)
    s.step = step ?? 0
    return notice(s, 'firing', now, step === undefined ? [] : stepChannels(s.rule, step))
  }

  function thresholdMet(s: IncidentState, now: number): boolean {
    const t = s.rule.threshold
    if (t === undefined) return true
    s.hits.push(now)
    const from = now - t.withinMs
    while (s.hits.length > 0 && ((s.hits[0] as number) < from || s.hits.length > t.count)) s.hits.shift()
    return s.hits.length >= t.count
  }

  function evict(): void {
    while (incidents.size > max) {
      const oldest = incidents.keys().next().value as string
      incidents.delete(oldest)
      evicted++
    }
  }

  function observe(rule: Rule, line: AlertLine, now: number, key = fingerprint(rule, line)): Notice[] {
    let s = incidents.get(key)
    if (s === undefined) {
      s = {
        key,
        rule,
        // The title names the lead and heads every message: a giant line must not make it giant.
        title: truncate(
          rule.title.render({ vars: { msg: line.msg, rule: rule.name }, record: line.record }),
          MAX_TITLE,
        ),
        parts: fingerprintParts(rule, line),
        status: 'pending',
        ack: undefined,
        firstSeen: now,
        lastSeen: now,
        count: 0,
        sinceNotice: 0,
        hits: [],
        fireAt: undefined,
        firedAt: 0,
        notifiedAt: 0,
        step: 0,
        pagedTo: new Map(),
        firstLine: line,
        lastLine: line,
      }
    } else {
      incidents.delete(key)
    }
    incidents.set(key, s)
    s.count++
    s.sinceNotice++
    s.lastSeen = now
    s.lastLine = line
    const out: Notice[] = []
    if (s.status === 'pending') {
      if (s.fireAt === undefined && thresholdMet(s, now)) s.fireAt = now + rule.groupWaitMs
      if (s.fireAt !== undefined && now >= s.fireAt) out.push(fire(s, now))
    } else if (pages(s.status) && now >= s.notifiedAt + rule.repeatIntervalMs) {
      out.push(notice(s, 'repeat', now, stepChannels(rule, s.step)))
    }
    evict()
    return out
  }

  /** Back to firing (rules 4 and 5): re-pages the step reached; escalation resumes from it. */
  function reopen(s: IncidentState, actor: Actor, now: number): Notice[] {
    const decision = decideUnacknowledge(s, now)
    if (decision.kind !== 'unacknowledge') return []
    s.status = 'firing'
    s.ack = undefined
    s.firedAt = decision.firedAt
    return [notice(s, 'unacknowledged', now, stepChannels(s.rule, s.step), actor)]
  }

  function tick(now: number): Notice[] {
    const out: Notice[] = []
    for (const [key, s] of incidents) {
      const rule = s.rule
      if (s.status === 'pending') {
        if (s.fireAt !== undefined) {
          if (now >= s.fireAt) out.push(fire(s, now))
        } else if (rule.threshold !== undefined && now - s.lastSeen > rule.threshold.withinMs) {
          // Below threshold and quiet for a whole window: nothing left to count towards.
          incidents.delete(key)
        }
        continue
      }
      if (rule.resolveAfterMs !== undefined && now - s.lastSeen >= rule.resolveAfterMs) {
        incidents.delete(key)
        if (rule.sendResolved) out.push(notice(s, 'resolved', now, reachedChannels(rule, s.step)))
        continue
      }
      if (!pages(s.status)) {
        if (ackTimedOut(s, rule.ackTimeoutMs, now)) out.push(...reopen(s, ACK_TIMEOUT_ACTOR, now))
        continue
      }
      const next = rule.escalation[s.step + 1]
      if (next !== undefined && now >= s.firedAt + next.afterMs) {
        // Due: this step, or the first later one active now; none active: all of them are skipped.
        const step = activeStepFrom(rule, s.step + 1, now)
        s.step = step ?? rule.escalation.length - 1
        if (step !== undefined) out.push(notice(s, 'escalated', now, stepChannels(rule, step)))
        continue
      }
      if (s.sinceNotice > 0 && now >= s.notifiedAt + rule.repeatIntervalMs) {
        out.push(notice(s, 'repeat', now, stepChannels(rule, s.step)))
      }
    }
    return out
  }

  function flush(now: number): Notice[] {
    const out: Notice[] = []
    for (const s of incidents.values()) if (s.status === 'pending' && s.fireAt !== undefined) out.push(fire(s, now))
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
    return { ok: true, incident: snapshot(s), notices: [notice(s, 'acknowledged', now, [], actor)] }
  }

  function unacknowledge(key: string, actor: Actor, now: number): IncidentChange {
    const s = incidents.get(key)
    const decision = decideUnacknowledge(s, now)
    if (decision.kind === 'refuse') return { ok: false, reason: decision.reason }
    if (s === undefined) return { ok: false, reason: 'unknown' }
    const notices = reopen(s, actor, now)
    return { ok: true, incident: snapshot(s), notices }
  }

  function resolve(key: string, actor: Actor | undefined, now: number): IncidentChange {
    const s = incidents.get(key)
    const decision = decideResolve(s, actor === undefined || (s?.rule.sendResolved ?? false))
    if (decision.kind === 'refuse') return { ok: false, reason: decision.reason }
    if (s === undefined || decision.kind !== 'resolve') return { ok: false, reason: 'unknown' }
    incidents.delete(key)
    if (decision.notice === 'none') return { ok: true, incident: snapshot(s), notices: [] }
    const channels = decision.notice === 'reached' ? reachedChannels(s.rule, s.step) : []
    const n = notice(s, 'resolved', now, channels, actor)
    return { ok: true, incident: n.incident, notices: [n] }
  }

  function seenElsewhere(key: string, seen: FleetSeen, now: number): Notice[] {
    const s = incidents.get(key)
    if (s === undefined) return []
    if (seen.last > s.lastSeen) s.lastSeen = Math.min(seen.last, now)
    const t = s.rule.threshold
    if (s.status !== 'pending' || s.fireAt !== undefined || t === undefined || seen.windowCount < t.count) return []
    s.fireAt = now + s.rule.groupWaitMs
    return now >= s.fireAt ? [fire(s, now)] : []
  }

  function paged(key: string, people: readonly string[], now: number): void {
    const s = incidents.get(key)
    if (s === undefined) return
    for (const person of people) s.pagedTo.set(person, now)
  }

  // The console asks for the newest few of thousands: only those are looked at.
  function views(limit = Infinity, status?: IncidentStatus): IncidentState[] {
    const states = [...incidents.values()]
    const out: IncidentState[] = []
    for (let i = states.length - 1; i >= 0 && out.length < limit; i--) {
      const s = states[i] as IncidentState
      if (status === undefined || s.status === status) out.push(s)
    }
    return out
  }

  const list = (limit?: number, status?: IncidentStatus): IncidentSnapshot[] => views(limit, status).map(snapshot)

  function count(status?: IncidentStatus): number {
    if (status === undefined) return incidents.size
    let n = 0
    for (const s of incidents.values()) if (s.status === status) n++
    return n
  }

  function restore(from: IncidentSnapshot, rule: Rule): boolean {
    if (from.status === 'pending' || incidents.has(from.key)) return false
    incidents.set(from.key, restoredState(from, rule))
    evict()
    return true
  }

  function stats(): IncidentStats {
    let firing = 0
    let acknowledged = 0
    for (const s of incidents.values()) {
      if (s.status !== 'pending') firing++
      if (s.status === 'acknowledged') acknowledged++
    }
    return { open: incidents.size, firing, acknowledged, evicted }
  }

  return {
    observe,
    tick,
    flush,
    acknowledge,
    unacknowledge,
    resolve,
    seenElsewhere,
    paged,
    acknowledgeable: (person, now, all) => pickAcknowledgeable(incidents.values(), person, now, all),
    get: (key) => {
      const s = incidents.get(key)
      return s === undefined ? undefined : snapshot(s)
    },
    list,
    views,
    count,
    restore,
    stats,
  }
}
