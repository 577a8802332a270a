// An incident as the table holds it, its frozen snapshot, and the state a snapshot puts back.
import type { AlertLine } from './line'
import type { Acknowledgement, IncidentSnapshot, IncidentStatus } from './notice'
import type { Rule } from './rule'

export interface IncidentState {
  key: string
  rule: Rule
  title: string
  parts: string[]
  status: IncidentStatus
  ack: Acknowledgement | undefined
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
  /** Person name -> last time a page reached them. */
  pagedTo: Map<string, number>
  firstLine: AlertLine
  lastLine: AlertLine
}

export function snapshot(s: IncidentState): IncidentSnapshot {
  return {
    key: s.key,
    rule: s.rule.name,
    title: s.title,
    parts: s.parts,
    status: s.status,
    ack: s.ack === undefined ? undefined : { ...s.ack },
    firstSeen: s.firstSeen,
    lastSeen: s.lastSeen,
    firedAt: s.firedAt,
    notifiedAt: s.notifiedAt,
    pagedTo: Object.fromEntries(s.pagedTo),
    count: s.count,
    sinceNotice: s.sinceNotice,
    step: s.step,
    firstLine: s.firstLine,
    lastLine: s.lastLine,
  }
}

/** A firing or acknowledged incident as `from` describes it, under `rule` (the current rule of its name). */
export function restoredState(from: IncidentSnapshot, rule: Rule): IncidentState {
  const acked = from.status === 'acknowledged' && from.ack !== undefined
  const pagedTo = new Map<string, number>()
  for (const [person, at] of Object.entries(from.pagedTo ?? {})) if (Number.isFinite(at)) pagedTo.set(person, at)
  return {
    key: from.key,
    rule,
    title: from.title,
    parts: [...from.parts],
    status: acked ? 'acknowledged' : 'firing',
    ack: acked ? { ...(from.ack as Acknowledgement) } : undefined,
    firstSeen: from.firstSeen,
    lastSeen: from.lastSeen,
    count: from.count,
    sinceNotice: from.sinceNotice ?? 0,
    hits: [],
    fireAt: undefined,
    firedAt: from.firedAt,
    notifiedAt: from.notifiedAt,
    // A reload may have shortened the rule's escalation: stay on its last step.
    step: Math.max(0, Math.min(from.step, rule.escalation.length - 1)),
    pagedTo,
    firstLine: from.firstLine,
    lastLine: from.lastLine,
  }
}
