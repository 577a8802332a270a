// What flows between stages: a notice about one incident, later routed to one channel and
// rendered. Shared types live here, the lowest module that owns them.
import type { AlertLine } from './line'

export type NoticeKind = 'firing' | 'repeat' | 'escalated' | 'resolved' | 'digest'

/** A frozen view of an incident at the moment of the notice. */
export interface IncidentSnapshot {
  key: string
  rule: string
  title: string
  /** What the key was computed from (readable), for CRM notes. */
  parts: readonly string[]
  firstSeen: number
  lastSeen: number
  /** Lines seen since the incident opened. */
  count: number
  /** Escalation step reached (0 = initial). */
  step: number
  firstLine: AlertLine
  lastLine: AlertLine
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
}
