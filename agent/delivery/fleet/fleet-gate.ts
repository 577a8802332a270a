// A fleet's notification log at the moment of sending (issue #16). Every agent of a fleet runs its own
// engine on its own lines, so several of them decide the same notice; each of its outbox items names
// the notice (`FleetNotice`), and before it goes out the sender claims it in the shared log
// (agent/cluster): one agent wins and sends under a key every agent derives alike, the others drop
// it once it is sent, or wait while the winner holds it and take over when its lease runs out.
// Without a fleet nothing here runs.
import { DEFAULT_REPEAT_INTERVAL_MS, type Delivery } from '../../../alerts'
import { DeliveryErrorCodes } from '../errors'
import type { FleetNotice, NoticeWindows } from './types'

/** A notice's name, the same on every agent: what the log announces when it is marked sent. */
export const noticeIdOf = (n: FleetNotice): string =>
  `${n.incident}\u0000${n.kind}\u0000${n.step}\u0000${n.channel}\u0000${n.part}`

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
