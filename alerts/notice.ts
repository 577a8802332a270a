// What flows between stages: a notice about one incident, later routed to one channel and
// rendered. Shared types live here, the lowest module that owns them.
import type { AlertLine } from './line'

/** `inhibited`: a page that an inhibit rule muted, for the trail only (it says which incident muted it). */
export type NoticeKind =
  'firing' | 'repeat' | 'escalated' | 'resolved' | 'digest' | 'acknowledged' | 'unacknowledged' | 'inhibited'

/** How an acknowledgement (or un-acknowledgement, or a resolve by hand) came in. */
export type AckVia = 'missed_call' | 'console' | 'cli' | 'timeout'

/** Who changed an incident by hand (or `ack_timeout` when the timeout did). */
export interface Actor {
  by: string
  via: AckVia
  /** What the trail should say beside the name, e.g. "missed call from +91…". */
  detail?: string | undefined
}

export interface Acknowledgement {
  by: string
  via: AckVia
  /** Epoch ms the acknowledgement took effect (for a missed call: when the call came in). */
  at: number
  detail?: string | undefined
}

/** pending: waiting out group_wait or a threshold; firing: paged; acknowledged: someone has it. */
export type IncidentStatus = 'pending' | 'firing' | 'acknowledged'

/**
 * A frozen view of an incident at the moment of the notice. JSON-safe but for `firstLine` and
 * `lastLine`, so a caller can keep it across a restart and hand it to `restore()` with its lines.
 */
export interface IncidentSnapshot {
  key: string
  rule: string
  title: string
  /** What the key was computed from (readable), for CRM notes. */
  parts: readonly string[]
  status: IncidentStatus
  /** Undefined unless `status` is `acknowledged`. */
  ack: Acknowledgement | undefined
  firstSeen: number
  lastSeen: number
  /** When it first fired (0 while pending), shifted later by the time spent acknowledged: escalation counts from it. */
  firedAt: number
  /** When the last page went out (0 while pending): repeats count from it. */
  notifiedAt: number
  /** Person name -> last time a page about this incident reached them (after silences and budget). */
  pagedTo: Readonly<Record<string, number>>
  /** Lines seen since the incident opened. */
  count: number
  /** Lines since the last page; restore() takes it up so a repeat owed is still sent (absent: 0). */
  sinceNotice?: number | undefined
  /** Escalation step reached (0 = initial). */
  step: number
  firstLine: AlertLine
  lastLine: AlertLine
}

/**
 * An open incident as it is now, read only and not copied: for a caller that lists thousands (the
 * console) and keeps a few fields of each. Valid until the next call into the table.
 */
export interface IncidentView {
  readonly key: string
  readonly rule: { readonly name: string }
  readonly title: string
  readonly status: IncidentStatus
  readonly ack: Readonly<Acknowledgement> | undefined
  readonly firstSeen: number
  readonly lastSeen: number
  readonly count: number
  readonly step: number
  readonly pagedTo: ReadonlyMap<string, number>
}

export interface Notice {
  kind: NoticeKind
  at: number
  incident: IncidentSnapshot
  /** Lines since the previous notice of this incident (or, for a digest, suppressed notices). */
  newCount: number
  /** Channel names to notify; undefined means every channel. */
  channels: readonly string[] | undefined
  /** Set by the route stage: the one channel this notice goes to. */
  channel?: string
  /** Digest only: how many notices were folded into it. */
  suppressed?: number
  /** Acknowledged, unacknowledged and resolved by hand: who did it, and how. */
  actor?: Actor
  /** The escalation step's `people`: they are paged on the step's channels instead of the channels' recipients. */
  people?: readonly string[]
  /** Who a schedule put on call for this notice (set per channel by the engine, for the trail). */
  oncall?: readonly { schedule: string; layer: string; user: string }[]
  /** An `inhibited` notice: the incident whose firing muted the page. */
  inhibitedBy?: { key: string; rule: string; title: string }
}

/** The notices that page someone (and make an acknowledgement by missed call possible). */
export const PAGE_KINDS: ReadonlySet<NoticeKind> = new Set<NoticeKind>([
  'firing',
  'repeat',
  'escalated',
  'unacknowledged',
])
