// The fleet's vocabulary as the alert path speaks it (issue #16): the notices every agent names
// alike, the claims on them, the hooks a fleet gives the path, and what people did that the other
// agents take too. A leaf: agent/cluster implements these, the daemon wires them, the path uses them.
import type { Acknowledgement, Actor, Delivery, NoticeKind, SelectedLine } from '../../../alerts'
import type { RuntimeSilence } from '../../incidents/runtime-silences'

export type ManualAction = 'ack' | 'unack' | 'resolve'

/** What a person did, as the other agents of a fleet take it (agent/cluster shares it). */
export type PeopleAction =
  | { type: ManualAction; key: string; actor: Actor; at: number }
  | { type: 'silence'; silence: RuntimeSilence; at: number }
  | { type: 'expire-silence'; silenceId: string; at: number }
  /** An alert's sender said it ended (Alertmanager's resolved): every agent holding `key` resolves it. */
  | { type: 'source-resolve'; key: string; notify: boolean; endedAt: number; at: number }

/** One outbox item of a notice, as the fleet knows it: the same on every agent that decided it. */
export interface FleetNotice {
  /** The incident's key. */
  incident: string
  kind: NoticeKind
  /** The escalation step (text), '' where the kind has none. */
  step: string
  /** The channel's name, or the recording channel's for a CRM record. */
  channel: string
  /** Which of the notice's requests (or CRM records) on that channel. */
  part: number
  /**
   * Kinds that come back while an incident is open (a repeat, a re-page after ack_timeout, a digest)
   * are sent at most once per this many ms fleet-wide; the others once per opening of the incident.
   */
  windowMs?: number
  /** The local engine's time of first firing: the key's seed when the fleet's log is out of reach. */
  firedAt: number
}

export type Claim =
  | { outcome: 'won'; idempotencyKey: string; failover: boolean }
  | { outcome: 'done'; by: string }
  | { outcome: 'held'; by: string; retryAfterMs: number }
  | { outcome: 'acked'; by: string; ack: Acknowledgement | undefined }
  | { outcome: 'degraded'; idempotencyKey: string; reason: string }

/** The fleet's notification log, as the dispatcher uses it (agent/cluster implements it). */
export interface NoticeClaims {
  /** How long a won claim holds before another agent may take it over. */
  readonly leaseMs: number
  claim(notice: FleetNotice): Promise<Claim>
  /** The item was sent under the claim: the others drop it from now on. Never rejects. */
  sent(notice: FleetNotice, claim: Claim): Promise<void>
  /** Each notice an agent marks sent, by `noticeIdOf` (announced by the log, best effort). */
  onSent(handler: (noticeId: string) => void): void
  /** The announcements are being received (else a held item looks again on a short schedule). */
  listening(): boolean
}

/** What the dispatcher needs of a fleet. */
export interface FleetGate {
  claims: NoticeClaims
  /** A page of an incident the fleet acknowledged elsewhere was dropped: this agent takes the ack too. */
  onAcked(incident: string, ack: Acknowledgement | undefined): void
}

/** What the alert path tells a fleet, and asks of it. */
export interface FleetHooks {
  gate: FleetGate
  /** Each line a rule selected: the fleet counts it toward its incident (buffered: never a round trip per line). */
  selected(selected: SelectedLine, now: number): void
  /** Every notice decided here (an incident's title and status for the fleet's table). */
  decided(deliveries: readonly Delivery[], now: number): void
  /** What a person did here: the other agents take it too. */
  published(action: PeopleAction): void
}

/** How often a kind that comes back may go out fleet-wide (see FleetNotice.windowMs). */
export interface NoticeWindows {
  repeatMs: number
  ackTimeoutMs: number | undefined
}
