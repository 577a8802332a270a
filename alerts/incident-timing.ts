// An incident's clock: what it calls for when a line of it arrives, at a tick, and when the fleet
// saw its lines. Pure: the incident table (incidents.ts) holds the state and applies the decision;
// the ack paths' decisions are acknowledgement.ts's.
//
// When a line arrives (onLine; the table has counted it already):
// 1. Pending without group_wait started: the line counts towards the threshold (the hits within
//    its window, at most `count` kept); once the threshold is met (at once without one),
//    group_wait starts: the incident fires at now + group_wait.
// 2. Pending with group_wait elapsed (a group_wait of 0 included, from rule 1 or before): it fires.
// 3. Firing, repeat_interval after the last notice: a repeat notice. Acknowledged: nothing.
// At a tick (onTick), the first of these that applies:
// 4. Pending with group_wait elapsed: it fires.
// 5. Pending below its threshold and quiet for a whole window: dropped, without a notice (nothing
//    is left to count towards).
// 6. Firing or acknowledged and quiet for resolve_after: resolved and forgotten; the resolved
//    notice goes to the channels reached only with send_resolved.
// 7. Acknowledged past ack_timeout: unacknowledged (acknowledgement.ts, rule 5).
// 8. Firing with the next escalation step due (its `after` since it first fired): it escalates to
//    that step, or to the first later one active now; with none active every step is passed,
//    silently.
// 9. Firing with new lines since the last notice and repeat_interval after it: a repeat notice.
// When the fleet saw its lines (onFleetSeen):
// 10. An open incident takes the fleet's last-seen time when later (never later than now); a
//     pending one whose threshold the fleet met starts group_wait, and fires when that is 0.
import { ackTimedOut, pages, type AckView } from './acknowledgement'
import type { Rule } from './rule'
import { activeStepFrom } from './steps'

/** What the decisions read of an incident. */
export interface TimingView extends AckView {
  readonly rule: Rule
  readonly fireAt: number | undefined
  readonly hits: readonly number[]
  readonly lastSeen: number
  readonly notifiedAt: number
  readonly sinceNotice: number
  readonly step: number
}

export type LineDecision =
  | { readonly kind: 'none' }
  /** Rule 1: the hits to keep; `fireAt` when group_wait started. */
  | { readonly kind: 'count'; readonly hits: number[]; readonly fireAt: number | undefined }
  | { readonly kind: 'fire' }
  | { readonly kind: 'repeat' }

export type TickDecision =
  | { readonly kind: 'none' }
  | { readonly kind: 'fire' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'resolve'; readonly notify: boolean }
  | { readonly kind: 'ack-timeout' }
  /** `notify` false: no step was active, every one is passed (`step` is the last). */
  | { readonly kind: 'escalate'; readonly step: number; readonly notify: boolean }
  | { readonly kind: 'repeat' }

/** The hits of rule 1 with `now` added: inside the window, at most `count` of them. */
export function windowHits(hits: readonly number[], now: number, threshold: Rule['threshold']): number[] {
  if (threshold === undefined) return []
  const kept = [...hits, now]
  const from = now - threshold.withinMs
  while (kept.length > 0 && ((kept[0] as number) < from || kept.length > threshold.count)) kept.shift()
  return kept
}

/** Rules 1 to 3. */
export function onLine(s: TimingView, now: number): LineDecision {
  const rule = s.rule
  if (s.status === 'pending') {
    if (s.fireAt !== undefined) return now >= s.fireAt ? { kind: 'fire' } : { kind: 'none' }
    const hits = windowHits(s.hits, now, rule.threshold)
    const met = rule.threshold === undefined || hits.length >= rule.threshold.count
    if (met && rule.groupWaitMs <= 0) return { kind: 'fire' }
    return { kind: 'count', hits, fireAt: met ? now + rule.groupWaitMs : undefined }
  }
  return pages(s.status) && now >= s.notifiedAt + rule.repeatIntervalMs ? { kind: 'repeat' } : { kind: 'none' }
}

/** Rules 4 and 5. */
function pendingTick(s: TimingView, now: number): TickDecision {
  if (s.fireAt !== undefined) return now >= s.fireAt ? { kind: 'fire' } : { kind: 'none' }
  const t = s.rule.threshold
  return t !== undefined && now - s.lastSeen > t.withinMs ? { kind: 'drop' } : { kind: 'none' }
}

/** Rules 4 to 9. */
export function onTick(s: TimingView, now: number): TickDecision {
  const rule = s.rule
  if (s.status === 'pending') return pendingTick(s, now)
  if (rule.resolveAfterMs !== undefined && now - s.lastSeen >= rule.resolveAfterMs)
    return { kind: 'resolve', notify: rule.sendResolved }
  if (!pages(s.status)) return ackTimedOut(s, rule.ackTimeoutMs, now) ? { kind: 'ack-timeout' } : { kind: 'none' }
  const next = rule.escalation[s.step + 1]
  if (next !== undefined && now >= s.firedAt + next.afterMs) {
    const step = activeStepFrom(rule, s.step + 1, now)
    return step === undefined
      ? { kind: 'escalate', step: rule.escalation.length - 1, notify: false }
      : { kind: 'escalate', step, notify: true }
  }
  return s.sinceNotice > 0 && now >= s.notifiedAt + rule.repeatIntervalMs ? { kind: 'repeat' } : { kind: 'none' }
}

/** What the fleet saw of an incident (rule 10). */
export interface FleetSeen {
  last: number
  windowCount: number
}

export interface FleetDecision {
  readonly lastSeen: number
  /** When group_wait starts now: when it ends (it fires at once when that is now). */
  readonly fireAt: number | undefined
}

/** Rule 10. */
export function onFleetSeen(s: TimingView, seen: FleetSeen, now: number): FleetDecision {
  const lastSeen = seen.last > s.lastSeen ? Math.min(seen.last, now) : s.lastSeen
  const t = s.rule.threshold
  const starts = s.status === 'pending' && s.fireAt === undefined && t !== undefined && seen.windowCount >= t.count
  return { lastSeen, fireAt: starts ? now + s.rule.groupWaitMs : undefined }
}
