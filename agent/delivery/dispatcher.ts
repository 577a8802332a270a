// Deliveries -> one journaled outbox batch -> one sender per channel kind -> the incident recorder.
// dispatch() journals synchronously, with one write for everything one engine step decided, so once
// it returns the notifications survive a crash and the lines behind them may be committed; a SIGKILL
// cannot keep a page and lose the note that opens its incident. A channel message is recorded on
// the incident's lead only once it is sent (through the outbox too, so the trail survives API
// hiccups). Every attempt is one call of the messaging client: the outbox owns retries.
// Deliveries go out several at a time: each channel is a lane of the outbox with its own bound
// (`concurrency`, DEFAULT_CHANNEL_CONCURRENCY) and its own Retry-After pause; the CRM records are
// one more lane; and everything of one incident goes one at a time, in the order it was made.
//
// The dispatcher is handed its outbox (built without a consumer: it attaches itself) and its
// messaging client, and owns them from then on: close() closes both, and releases the recorder.
import type { ChannelConfig, PersonConfig } from '../config/types'
import type { MessagingClient } from '../messaging'
import type { DeadLetter, Outbox, OutboxOptions } from '../outbox'
import { createFleetClaims } from './fleet'
import type { FleetGate } from './fleet/types'
import { createItemSender } from './item-sender'
import { directoryOf, outboxEntriesOf, type Routing } from './outbox-entries'
import { incidentOf, laneOf, limitOf, noticesToClaim, queuedPagesOf } from './outbox-items'
import type { IncidentRecorder } from './record/incident-recorder'
import type { DeliveryLog, Dispatcher } from './types'

export interface DispatcherOptions {
  /** The outbox, without a consumer yet (alert-path.ts builds it with `outboxReports`). */
  outbox: Outbox
  /** The messaging API; undefined when only incidents are recorded (logx-incident). */
  client: MessagingClient | undefined
  /** Records incidents on the CRM; the dispatcher releases it on close. */
  recorder: IncidentRecorder | undefined
  channels: readonly ChannelConfig[]
  people?: readonly PersonConfig[] | undefined
  /** Recorded on leads; default: the line's `name` (or `service`) field. */
  service?: string | undefined
  log: DeliveryLog
  /** A fleet's shared notification log (agent/cluster); undefined for a lone agent or an app's target. */
  fleet?: FleetGate | undefined
}

/** How the alert path's outbox reports dead letters and journal failures. */
export function outboxReports(log: DeliveryLog): Required<Pick<OutboxOptions, 'onDead' | 'onError'>> {
  return {
    onDead: (letter: DeadLetter) =>
      log.error(
        { kind: letter.kind, attempts: letter.attempts, reason: letter.reason },
        `gave up on a ${letter.kind} notification after ${letter.attempts} attempt(s): ${letter.reason}`,
      ),
    onError: (err) => log.error({ err }, `outbox journal failure: ${err.message}`),
  }
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { outbox, client, recorder, fleet } = options
  const routing: Routing = {
    channels: new Map(options.channels.map((c) => [c.name, c])),
    people: directoryOf(options.people),
    windows: new Map(),
    recording: recorder !== undefined,
    fleet: fleet !== undefined,
    service: options.service,
  }
  const claims = fleet === undefined ? undefined : createFleetClaims(fleet, (id) => outbox.wake(id))
  const sender = createItemSender({
    client,
    recorder,
    claims,
    log: options.log,
    queueRecord: (payload) => void outbox.enqueue('incident', payload),
  })
  const laneLimit = (lane: string): number => limitOf(lane, routing.channels)
  outbox.attach({
    send: sender.send,
    laneOf: (item) => laneOf(item.kind, item.payload),
    limitOf: laneLimit,
    orderOf: incidentOf,
  })

  return {
    dispatch(deliveries, incidentRules) {
      const entries = outboxEntriesOf(deliveries, incidentRules, routing)
      if (entries.length === 0) return
      claims?.ahead(noticesToClaim(entries, outbox.stats(), laneLimit))
      outbox.enqueueAll(entries)
    },
    setChannels(next, nextPeople) {
      routing.channels = new Map(next.map((c) => [c.name, c]))
      if (nextPeople !== undefined) routing.people = directoryOf(nextPeople)
    },
    setRules(rules) {
      const windows = rules.map(
        (r) => [r.name, { repeatMs: r.repeatIntervalMs, ackTimeoutMs: r.ackTimeoutMs }] as const,
      )
      routing.windows = new Map(windows)
    },
    closeLead: (key) => recorder?.leads.markResolved(key),
    stats() {
      const { retried, dead, pending, spilled } = outbox.stats()
      return { sent: { ...sender.sent }, failed: { ...sender.failed }, retried, dead, depth: pending, spilled }
    },
    queuedPages: () => queuedPagesOf(outbox.pendingItems()),
    drain: (timeoutMs) => outbox.drain(timeoutMs),
    sync: () => outbox.sync(),
    syncAsync: () => outbox.syncAsync(),
    async close() {
      await outbox.close()
      await sender.marked()
      await client?.close().catch(() => {})
      await recorder?.release().catch(() => {})
    },
  }
}
