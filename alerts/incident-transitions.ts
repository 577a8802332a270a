// One incident's state moved along the diagram of incidents.ts, and the notice each move makes.
// The decisions are incident-timing.ts's and acknowledgement.ts's; these only apply them to the
// state object of one incident (the table owns the map).
import { decideUnacknowledge } from './acknowledgement'
import { fingerprintParts } from './fingerprint'
import { snapshot, type IncidentState } from './incident-record'
import type { LineDecision, TickDecision } from './incident-timing'
import type { AlertLine } from './line'
import type { Actor, Notice, NoticeKind } from './notice'
import { truncate } from './render'
import type { Rule } from './rule'
import { activeStepFrom, reachedChannels, stepChannels } from './steps'

/** Longest incident title (lead name, mail subject): past it, cut with an ellipsis. */
export const MAX_TITLE = 1024

/** A pending incident opened by its first line (not yet counted). */
export function openIncident(rule: Rule, line: AlertLine, now: number, key: string): IncidentState {
  return {
    key,
    rule,
    // The title names the lead and heads every message: a giant line must not make it giant.
    title: truncate(rule.title.render({ vars: { msg: line.msg, rule: rule.name }, record: line.record }), MAX_TITLE),
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
}

/** A notice; the incident in it is as the notice leaves it. Pages reset the repeat clock. */
export function noticeOf(
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

export function fire(s: IncidentState, now: number): Notice {
  s.status = 'firing'
  s.fireAt = undefined
  s.firedAt = now
  s.hits = []
  // Steps outside their active hours are skipped; with none active only the trail hears of it.
  const step = activeStepFrom(s.rule, 0, now)
  s.step = step ?? 0
  return noticeOf(s, 'firing', now, step === undefined ? [] : stepChannels(s.rule, step))
}

/** Back to firing (acknowledgement.ts, rules 4 and 5): re-pages the step reached. */
export function reopen(s: IncidentState, actor: Actor, now: number): Notice[] {
  const decision = decideUnacknowledge(s, now)
  if (decision.kind !== 'unacknowledge') return []
  s.status = 'firing'
  s.ack = undefined
  s.firedAt = decision.firedAt
  return [noticeOf(s, 'unacknowledged', now, stepChannels(s.rule, s.step), actor)]
}

/** A line's decision applied (the line counted already). */
export function applyLine(s: IncidentState, decision: LineDecision, now: number): Notice[] {
  switch (decision.kind) {
    case 'none':
      return []
    case 'count':
      s.hits = decision.hits
      s.fireAt = decision.fireAt
      return []
    case 'fire':
      return [fire(s, now)]
    case 'repeat':
      return [noticeOf(s, 'repeat', now, stepChannels(s.rule, s.step))]
  }
}

/** A tick's decision applied; `drop` and `resolve` leave forgetting the incident to the table. */
export function applyTick(s: IncidentState, decision: TickDecision, now: number, timeout: Actor): Notice[] {
  switch (decision.kind) {
    case 'none':
    case 'drop':
      return []
    case 'fire':
      return [fire(s, now)]
    case 'resolve':
      return decision.notify ? [noticeOf(s, 'resolved', now, reachedChannels(s.rule, s.step))] : []
    case 'ack-timeout':
      return reopen(s, timeout, now)
    case 'escalate':
      s.step = decision.step
      return decision.notify ? [noticeOf(s, 'escalated', now, stepChannels(s.rule, decision.step))] : []
    case 'repeat':
      return [noticeOf(s, 'repeat', now, stepChannels(s.rule, s.step))]
  }
}
