// A fleet's notification log at the moment of sending (issue #16). Every agent of a fleet runs its own
// engine on its own lines, so several of them decide the same notice; each of its outbox items names
// the notice (`FleetNotice`), and before it goes out the sender claims it in the shared log
// (agent/cluster): one agent wins and sends under a key every agent derives alike, the others drop
// it once it is sent, or wait while the winner holds it and take over when its lease runs out.
// Without a fleet nothing here runs.
import {
  DEFAULT_REPEAT_INTERVAL_MS,
  type Acknowledgement,
  type Delivery,
  type NoticeKind,
  type SelectedLine,
} from '../../../alerts'
import { DeliveryErrorCodes } from '../errors'
import type { PeopleAction } from '../../acknowledge/incident-actions'

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

/** A notice's name, the same on every agent: what the log announces when it is marked sent. */
export const noticeIdOf = (n: FleetNotice): string =>
  `${n.incident}\u0000${n.kind}\u0000${n.step}\u0000${n.channel}\u0000${n.part}`

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

const DIGEST_WINDOW_MS = 60_000

/**
 * Undefined for what a person did (an ack, unack or resolve by hand): the agent it was done on sends
 * its notices, and the others take the change without sending (agent/cluster's shared actions).
 */
export function fleetNoticeOf(
  delivery: Delivery,
  channel: string,
  part: number,
  windows: NoticeWindows | undefined,
): FleetNotice | undefined {
  const { notice } = delivery
  const { kind, incident } = notice
  const via = notice.actor?.via
  if (via !== undefined && via !== 'timeout' && via !== 'missed_call') return undefined
  const out: FleetNotice = { incident: incident.key, kind, step: '', channel, part, firedAt: incident.firedAt }
  if (kind === 'firing' || kind === 'escalated' || kind === 'inhibited') out.step = String(incident.step)
  // Every agent polls the same missed calls: the call's time names its acknowledgement.
  else if (via === 'missed_call') out.step = `missed_call|${notice.at}`
  // At least a second: a claim's mark must outlive the claim (a rule unknown here: the default interval).
  const repeatMs = Math.max(1000, windows?.repeatMs ?? DEFAULT_REPEAT_INTERVAL_MS)
  if (kind === 'repeat') out.windowMs = repeatMs
  else if (kind === 'unacknowledged')
    out.windowMs = Math.max(1000, Math.min(repeatMs, windows?.ackTimeoutMs ?? repeatMs))
  else if (kind === 'digest') out.windowMs = DIGEST_WINDOW_MS
  return out
}

/**
 * The wait of an item whose claim another agent holds: the outbox waits it on the item alone
 * (outbox/failure.ts). `times`: how often this item was found held already. Never past the holder's
 * lease. `woken`: the holder's mark wakes the item (fleet-claims.ts), so the wait only covers a lost
 * announcement: a second, doubling to 8. Otherwise the item looks again soon (50 ms), then twice as
 * late each time, at most a second.
 */
export class HeldByPeer extends Error {
  readonly code = DeliveryErrorCodes.HELD
  readonly recoverable = true
  readonly held = true
  readonly retryAfterMs: number

  constructor(by: string, leaseLeftMs: number, times = 0, woken = false) {
    super(`agent ${by} holds this notification's claim; it is sent by this agent only if that claim expires unsent`)
    this.name = 'HeldByPeer'
    const wait = woken ? 1000 * 2 ** Math.min(times, 3) : Math.min(50 * 2 ** Math.min(times, 5), 1000)
    this.retryAfterMs = Math.max(1, Math.min(leaseLeftMs, wait))
  }
}
