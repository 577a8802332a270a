// One attempt at one outbox item: a message through the messaging client, or a CRM record through
// the recorder; in a fleet, under the key its claim names (and not at all when another agent sent
// it). Never retries: the outbox does, on what the thrown error says. Counts what was sent and what
// failed, and reports it.
import type { MessagingClient } from '../messaging'
import { MessagingErrorCodes } from '../messaging'
import type { OutboxItem } from '../outbox'
import { isChannelKind, sendChannelRequest } from './channels'
import { HeldByPeer, type FleetClaims } from './fleet'
import type { Queued, QueuedRecord } from './outbox-items'
import type { IncidentRecorder } from './record/incident-recorder'
import type { DeliveryLog } from './types'

export interface ItemSenderOptions {
  client: MessagingClient | undefined
  recorder: IncidentRecorder | undefined
  claims: FleetClaims | undefined
  log: DeliveryLog
  /** Queues the record of a sent message on its incident's lead (the outbox's enqueue). */
  queueRecord(payload: QueuedRecord): void
}

export interface ItemSender {
  send(item: OutboxItem): Promise<void>
  readonly sent: Readonly<Record<string, number>>
  readonly failed: Readonly<Record<string, number>>
  /** Resolves once the sent marks on their way to a fleet's log have gone. */
  marked(): Promise<void>
}

type Claimed = { key: string; done?: () => Promise<void> }

export function createItemSender(options: ItemSenderOptions): ItemSender {
  const { client, recorder, claims, log } = options
  const sent: Record<string, number> = {}
  const failed: Record<string, number> = {}
  /** Sent marks on their way to the fleet's log: close() waits for them. */
  const marking = new Set<Promise<void>>()

  /**
   * The key the item goes out under: its outbox id (the same for every resend of it, never another
   * notification's), or in a fleet the claim's key, the same on every agent. Undefined: not to send.
   */
  async function keyOf(item: OutboxItem, notice: Queued['fleet']): Promise<Claimed | undefined> {
    if (claims === undefined || notice === undefined) return { key: item.id }
    return claims.take(item.id, notice)
  }

  /**
   * Marks a claimed item sent without holding its lane for the round trip: the item is done here
   * either way, and a mark lost to a crash only lets the lease run out, after which another agent
   * sends the same key again.
   */
  function mark(claimed: Claimed): void {
    if (claimed.done === undefined) return
    const pending = claimed.done().finally(() => marking.delete(pending))
    marking.add(pending)
  }

  async function record(item: OutboxItem): Promise<boolean> {
    const event = item.payload as QueuedRecord
    // A sent message's activity keeps its message's key (see IncidentEvent.messageKey).
    const claimed = event.messageKey === undefined ? await keyOf(item, event.fleet) : { key: event.messageKey }
    if (claimed === undefined) return false
    if (recorder !== undefined) await recorder.record(event, claimed.key)
    mark(claimed)
    return true
  }

  /** False when a fleet's other agent sends it (or sent it). */
  async function deliver(item: OutboxItem): Promise<boolean> {
    if (item.kind === 'incident') return record(item)
    if (client === undefined || !isChannelKind(item.kind)) {
      throw new TypeError(`no sender for outbox item kind ${item.kind}`)
    }
    const queued = item.payload as Queued
    const claimed = await keyOf(item, queued.fleet)
    if (claimed === undefined) return false
    // Every resend of this notification (retry, or again after a crash before the journal said
    // done) carries the same key; a new notification never does.
    await sendChannelRequest(client, item.kind, queued.request, claimed.key)
    mark(claimed)
    // The message is out whatever happens next: a failed journal write must not make it look unsent.
    if (queued.incident !== undefined) {
      try {
        // Keyed by this message: if it is resent, its activity is recorded again under the same keys.
        options.queueRecord({ ...queued.incident, messageKey: claimed.key })
      } catch (err) {
        log.error({ err, kind: item.kind }, 'could not queue the incident activity of a sent message')
      }
    }
    return true
  }

  function count(into: Record<string, number>, kind: string): void {
    into[kind] = (into[kind] ?? 0) + 1
  }

  async function send(item: OutboxItem): Promise<void> {
    try {
      if (!(await deliver(item))) return
      count(sent, item.kind)
      log.info({ kind: item.kind, attempts: item.attempts }, 'notification sent')
    } catch (err) {
      const code = (err as { code?: unknown }).code
      // Refused before sending: the API asked this operation to wait, or another agent holds it; the
      // outbox waits it out, and it is no failure.
      if (code === MessagingErrorCodes.RETRY_AFTER || err instanceof HeldByPeer) throw err
      count(failed, item.kind)
      log.warn({ kind: item.kind, attempts: item.attempts, code }, `notification failed: ${(err as Error).message}`)
      throw err
    }
  }

  return {
    send,
    sent,
    failed,
    marked: () => Promise.allSettled([...marking]).then(() => undefined),
  }
}
