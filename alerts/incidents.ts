// The incident state machine, Alertmanager's timing applied per fingerprint:
//
//   (new) --threshold met / no threshold--> pending --group_wait elapsed--> firing
//   firing --new lines after repeat_interval--> repeat notice
//   firing --escalation[n].after since first fired--> escalated (step n)
//   firing --resolve_after without lines--> resolved notice (send_resolved) and forgotten
//
// Memory is bounded: past `maxIncidents` the least recently seen incident is evicted (counted).
// No clock and no timers: `now` comes in with every call and tick() is driven by the caller.
import { fingerprint, fingerprintParts } from './fingerprint'
import type { AlertLine } from './line'
import type { IncidentSnapshot, Notice, NoticeKind } from './notice'
import { truncate } from './render'
import type { Rule } from './rule'

interface IncidentState {
  key: string
  rule: Rule
  title: string
  parts: string[]
  status: 'pending' | 'firing'
  firstSeen: number
  lastSeen: number
  count: number
  sinceNotice: number
  /** Timestamps inside the threshold window (at most threshold.count kept). */
  hits: number[]
  fireAt: number | undefined
  firedAt: number
  notifiedAt: number
  step: number
  firstLine: AlertLine
  lastLine: AlertLine
}

export interface IncidentTableOptions {
  /** Most incidents held at once; default 10 000. */
  maxIncidents?: number
}

export interface IncidentStats {
  open: number
  firing: number
  evicted: number
}

export interface IncidentTable {
  /** `key` is `fingerprint(rule, line)`, given when the caller already has it. */
  observe(rule: Rule, line: AlertLine, now: number, key?: string): Notice[]
  tick(now: number): Notice[]
  /** Fires every incident still in group_wait (shutdown: better early than never). */
  flush(now: number): Notice[]
  stats(): IncidentStats
}

function snapshot(s: IncidentState): IncidentSnapshot {
  return {
    key: s.key,
    rule: s.rule.name,
    title: s.title,
    parts: s.parts,
    firstSeen: s.firstSeen,
    lastSeen: s.lastSeen,
    count: s.count,
    step: s.step,
    firstLine: s.firstLine,
    lastLine: s.lastLine,
  }
}

function stepChannels(rule: Rule, step: number): readonly string[] | undefined {
  return rule.escalation[step]?.channels
}

// A resolve goes to everyone who heard about the incident: the union of the steps reached.
function reachedChannels(rule: Rule, step: number): readonly string[] | undefined {
  const all = new Set<string>()
  for (let i = 0; i <= step; i++) {
    const channels = stepChannels(rule, i)
    if (channels === undefined) return undefined
    for (const c of channels) all.add(c)
  }
  return [...all]
}

/** Longest incident title (lead name, mail subject): past it, cut with an ellipsis. */
export const MAX_TITLE = 1024

export function createIncidentTable(options: IncidentTableOptions = {}): IncidentTable {
  const max = options.maxIncidents ?? 10_000
  // Insertion order doubles as recency order: a seen incident is moved to the end.
  const incidents = new Map<string, IncidentState>()
  let evicted = 0

  function notice(s: IncidentState, kind: NoticeKind, now: number, channels: readonly string[] | undefined): Notice {
    const n: Notice = { kind, at: now, incident: snapshot(s), newCount: s.sinceNotice, channels }
    s.sinceNotice = 0
    s.notifiedAt = now
    return n
  }

  function fire(s: IncidentState, now: number): Notice {
    s.status = 'firing'
    s.fireAt = undefined
    s.firedAt = now
    s.hits = []
    return notice(s, 'firing', now, stepChannels(s.rule, 0))
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
        title: truncate(rule.title.render({ vars: { msg: line.msg, rule: rule.name }, record: line.record }), MAX_TITLE),
        parts: fingerprintParts(rule, line),
        status: 'pending',
        firstSeen: now,
        lastSeen: now,
        count: 0,
        sinceNotice: 0,
        hits: [],
        fireAt: undefined,
        firedAt: 0,
        notifiedAt: 0,
        step: 0,
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
    } else if (now >= s.notifiedAt + rule.repeatIntervalMs) {
      out.push(notice(s, 'repeat', now, stepChannels(rule, s.step)))
    }
    evict()
    return out
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
      const next = rule.escalation[s.step + 1]
      if (next !== undefined && now >= s.firedAt + next.afterMs) {
        s.step++
        out.push(notice(s, 'escalated', now, next.channels))
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

  function stats(): IncidentStats {
    let firing = 0
    for (const s of incidents.values()) if (s.status === 'firing') firing++
    return { open: incidents.size, firing, evicted }
  }

  return { observe, tick, flush, stats }
}
