// Deliveries -> one journaled outbox batch -> one sender per channel kind -> the incident recorder.
// dispatch() journals synchronously, with one write for everything one engine step decided, so once
// it returns the notifications survive a crash and the lines behind them may be committed; a SIGKILL
// cannot keep a page and lose the note that opens its incident. A channel message is recorded on
// the incident's lead only once it is sent (through the outbox too, so the trail survives API
// hiccups). Every attempt is one call of the messaging client: the outbox owns retries.
// Deliveries go out several at a time: each channel is a lane of the outbox with its own bound
// (`concurrency`, DEFAULT_CHANNEL_CONCURRENCY) and its own Retry-After pause; the CRM records are
// one more lane; and everything of one incident goes one at a time, in the order it was made.
import type { Delivery } from '../../alerts'
import type { ChannelConfig, PersonConfig } from '../config/types'
import { createMessagingClient, MessagingErrorCodes, type MessagingClient } from '../messaging'
import { createOutbox, type DeadLetter, type Outbox, type OutboxItem, type OutboxOptions } from '../outbox'
import { buildChannelRequests, isChannelKind, sendChannelRequest } from './channels'
import { createFleetClaims } from './fleet/fleet-claims'
import { fleetNoticeOf, HeldByPeer, type FleetGate, type FleetNotice, type NoticeWindows } from './fleet/fleet-gate'
import { addressed, type PeopleDirectory } from './channels/recipients'
import { incidentActivities } from './record/incident-activities'
import { incidentEvent, sentActivity, type IncidentEvent } from './record/incident-event'
import type { IncidentRecorder } from './record/incident-recorder'

/** The name of the recording channel added to the engine when incidents are recorded as notes. */
export const INCIDENT_CHANNEL = 'logx.incident'

/** Requests in flight at once per channel (and for the CRM records) when the channel does not say. */
export const DEFAULT_CHANNEL_CONCURRENCY = 4

/** In a fleet, items are claimed when journaled while their lane holds fewer than this many per request in flight. */
const AHEAD_PER_SLOT = 16

/** Where the path reports what it does: the daemon's logger, or a target's bounded stderr reporter. */
export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
  error(fields: Record<string, unknown>, message: string): void
}

interface Queued {
  request: unknown
  /** The channel it goes out on: its outbox lane. Absent in journals of older versions (the kind is the lane). */
  channel?: string
  /** The incident's key: its messages go out one at a time, in the order made. */
  key?: string
  incident?: IncidentEvent
  /** The page this message is part of (firing, repeat, escalation), for recovery after a crash. */
  page?: QueuedPage
  /** In a fleet: the notice as every agent names it, claimed before sending (fleet-gate.ts). */
  fleet?: FleetNotice
}

/** A CRM record in the outbox: the event, and in a fleet the notice it records. */
type QueuedRecord = IncidentEvent & { fleet?: FleetNotice }

/** An incident's notice as its messages carry it through the outbox. */
export interface QueuedPage {
  key: string
  rule: string
  at: number
}

export interface DispatcherStats {
  /** By outbox item kind: sms, chat, mail, voice, incident (CRM records). */
  sent: Record<string, number>
  failed: Record<string, number>
  retried: number
  dead: number
  depth: number
  /** Of `depth`, the notifications waiting on disk only (the outbox's in-memory window is full). */
  spilled?: number
}

export interface Dispatcher {
  /** Journals what the deliveries need sent; `incidentRules` names the rules whose incidents are recorded. */
  dispatch(deliveries: readonly Delivery[], incidentRules: ReadonlySet<string>): void
  /** The channels, and the people escalation steps may name instead of a channel's recipients. */
  setChannels(channels: readonly ChannelConfig[], people?: readonly PersonConfig[]): void
  /** The rules' repeat and ack_timeout intervals: in a fleet, how often a repeat may go out fleet-wide. */
  setRules(rules: readonly { name: string; repeatIntervalMs: number; ackTimeoutMs?: number | undefined }[]): void
  /** Forgets the lead of an incident that ended without a resolve notice (its next firing opens a new one). */
  closeLead(key: string): void
  stats(): DispatcherStats
  /**
   * Pages whose messages (or, for a target that only records incidents, whose CRM records) wait in
   * the outbox (in memory): at start, those of the previous run. The
   * incident state is written just after the outbox: a crash in between leaves such a page
   * unrecorded there, and the path records it from here before reading again.
   */
  queuedPages(): QueuedPage[]
  drain(timeoutMs: number): Promise<{ drained: boolean; pending: number }>
  /** fsyncs the outbox: call before a checkpoint commits the lines behind what was dispatched. */
  sync(): void
  /** sync() off the event loop: resolves once what was dispatched before the call is on disk; rejects when it cannot be. */
  syncAsync(): Promise<void>
  close(): Promise<void>
}

export interface DispatcherOptions {
  /** The outbox: its journal file (undefined: memory), window, age limit, attempts and backoff. */
  outbox: Omit<OutboxOptions, 'send' | 'onDead' | 'onError'>
  /** The messaging API; undefined when only incidents are recorded (logx-incident). */
  api: { baseUrl: string; apiKey: string } | undefined
  /** Per HTTP attempt. */
  timeoutMs?: number | undefined
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

function isPage(kind: Delivery['notice']['kind']): boolean {
  return kind === 'firing' || kind === 'repeat' || kind === 'escalated' || kind === 'unacknowledged'
}

const directoryOf = (people: readonly PersonConfig[] | undefined): PeopleDirectory =>
  new Map((people ?? []).map((p) => [p.name, p]))

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { log, recorder, service } = options
  let channels = new Map(options.channels.map((c) => [c.name, c]))
  let people = directoryOf(options.people)
  const client: MessagingClient | undefined =
    options.api === undefined
      ? undefined
      : createMessagingClient({
          baseUrl: options.api.baseUrl,
          apiKey: options.api.apiKey,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        })
  const sent: Record<string, number> = {}
  const failed: Record<string, number> = {}
  const { fleet } = options
  let windows = new Map<string, NoticeWindows>()
  const claims = fleet === undefined ? undefined : createFleetClaims(fleet, (id) => outbox.wake(id))

  /**
   * The key the item goes out under: its outbox id (the same for every resend of it, never another
   * notification's), or in a fleet the claim's key, the same on every agent. Undefined: not to send.
   * The claims' outcomes are counted by the fleet (agent/cluster), not here.
   */
  async function keyOf(
    item: OutboxItem,
    notice: FleetNotice | undefined,
  ): Promise<{ key: string; done?: () => Promise<void> } | undefined> {
    if (claims === undefined || notice === undefined) return { key: item.id }
    return claims.take(item.id, notice)
  }

  /** Sent marks on their way to the fleet's log: close() waits for them. */
  const marking = new Set<Promise<void>>()

  /**
   * Marks a claimed item sent without holding its lane for the round trip (a third one per item): the
   * item is done here either way, and a mark lost to a crash only lets the lease run out, after which
   * another agent sends the same key again.
   */
  function marked(claimed: { done?: () => Promise<void> }): void {
    if (claimed.done === undefined) return
    const mark = claimed.done().finally(() => marking.delete(mark))
    marking.add(mark)
  }

  /** False when a fleet's other agent sends it (or sent it). */
  async function deliver(item: OutboxItem): Promise<boolean> {
    if (item.kind === 'incident') {
      const event = item.payload as QueuedRecord
      const claimed = event.messageKey === undefined ? await keyOf(item, event.fleet) : { key: event.messageKey }
      // A sent message's activity keeps its message's key (see IncidentEvent.messageKey).
      if (claimed === undefined) return false
      if (recorder !== undefined) await recorder.record(event, claimed.key)
      marked(claimed)
      return true
    }
    if (client === undefined || !isChannelKind(item.kind))
      throw new TypeError(`no sender for outbox item kind ${item.kind}`)
    const queued = item.payload as Queued
    const claimed = await keyOf(item, queued.fleet)
    if (claimed === undefined) return false
    // Every resend of this notification (retry, or again after a crash before the journal said
    // done) carries the same key; a new notification never does.
    await sendChannelRequest(client, item.kind, queued.request, claimed.key)
    marked(claimed)
    // The message is out whatever happens next: a failed journal write must not make it look unsent.
    if (queued.incident !== undefined) {
      try {
        // Keyed by this message: if it is resent, its activity is recorded again under the same keys.
        outbox.enqueue('incident', { ...queued.incident, messageKey: claimed.key })
      } catch (err) {
        log.error({ err, kind: item.kind }, 'could not queue the incident activity of a sent message')
      }
    }
    return true
  }

  /** The incident an item belongs to: its items go out one at a time, in order. */
  function incidentOf(item: OutboxItem): string | undefined {
    if (item.kind === 'incident') return (item.payload as IncidentEvent | undefined)?.key
    const queued = item.payload as Queued | undefined
    return queued?.key ?? queued?.page?.key ?? queued?.incident?.key
  }

  function laneOf(kind: string, payload: unknown): string {
    return kind === 'incident' ? INCIDENT_CHANNEL : ((payload as Queued | undefined)?.channel ?? kind)
  }
  const limitOf = (lane: string): number => channels.get(lane)?.concurrency ?? DEFAULT_CHANNEL_CONCURRENCY

  /**
   * In a fleet, items are claimed while they are journaled, so each one's turn finds its answer there
   * (fleet-claims.ts); only where its lane's backlog is short: a claim holds its lease until the item
   * goes, and should this agent die, the others wait out that lease for each item it claimed.
   */
  function claimAhead(entries: readonly { kind: string; payload: unknown }[]): void {
    if (claims === undefined) return
    const stats = outbox.stats()
    if (stats.spilled > 0) return
    const notices: FleetNotice[] = []
    for (const { kind, payload } of entries) {
      const notice = (payload as Queued | QueuedRecord).fleet
      const lane = laneOf(kind, payload)
      if (notice !== undefined && (stats.lanes[lane]?.pending ?? 0) < AHEAD_PER_SLOT * limitOf(lane))
        notices.push(notice)
    }
    claims.ahead(notices)
  }

  const outbox: Outbox = createOutbox({
    ...options.outbox,
    laneOf: (item) => laneOf(item.kind, item.payload),
    limitOf,
    orderOf: incidentOf,
    async send(item) {
      try {
        if (!(await deliver(item))) return
        sent[item.kind] = (sent[item.kind] ?? 0) + 1
        log.info({ kind: item.kind, attempts: item.attempts }, 'notification sent')
      } catch (err) {
        // Refused before sending: the API asked this operation to wait, or another agent holds it; the outbox waits it out.
        if ((err as { code?: unknown }).code === MessagingErrorCodes.RETRY_AFTER || err instanceof HeldByPeer) throw err
        failed[item.kind] = (failed[item.kind] ?? 0) + 1
        log.warn(
          { kind: item.kind, attempts: item.attempts, code: (err as { code?: unknown }).code },
          `notification failed: ${(err as Error).message}`,
        )
        throw err
      }
    },
    onDead: (letter: DeadLetter) =>
      log.error(
        { kind: letter.kind, attempts: letter.attempts, reason: letter.reason },
        `gave up on a ${letter.kind} notification after ${letter.attempts} attempt(s): ${letter.reason}`,
      ),
    onError: (err) => log.error({ err }, `outbox journal failure: ${err.message}`),
  })

  function entriesOf(
    delivery: Delivery,
    incidentRules: ReadonlySet<string>,
    into: { kind: string; payload: unknown }[],
  ): void {
    const { notice } = delivery
    const rule = notice.incident.rule
    const recorded = recorder !== undefined && incidentRules.has(rule)
    if (delivery.channelType === 'incident') {
      if (!recorded) return
      let part = 0
      for (const activity of incidentActivities(delivery)) {
        const record: QueuedRecord = incidentEvent(delivery, activity, service)
        const notice =
          fleet === undefined ? undefined : fleetNoticeOf(delivery, INCIDENT_CHANNEL, part++, windows.get(rule))
        if (notice !== undefined) record.fleet = notice
        into.push({ kind: 'incident', payload: record })
      }
      return
    }
    const configured = channels.get(notice.channel)
    if (configured === undefined) return
    const page = isPage(notice.kind) ? { key: notice.incident.key, rule, at: notice.at } : undefined
    const { channel, delivery: addressedDelivery } = addressed(configured, delivery, people)
    let part = 0
    for (const out of buildChannelRequests(channel, addressedDelivery)) {
      const queued: Queued = { request: out.request, channel: channel.name, key: notice.incident.key }
      if (page !== undefined) queued.page = page
      const fleetNotice =
        fleet === undefined ? undefined : fleetNoticeOf(delivery, channel.name, part++, windows.get(rule))
      if (fleetNotice !== undefined) queued.fleet = fleetNotice
      if (recorded) queued.incident = incidentEvent(delivery, sentActivity(delivery, out.summary), service)
      into.push({ kind: out.kind, payload: queued })
    }
  }

  return {
    dispatch(deliveries, incidentRules) {
      if (deliveries.length === 0) return
      const entries: { kind: string; payload: unknown }[] = []
      for (const delivery of deliveries) entriesOf(delivery, incidentRules, entries)
      if (entries.length === 0) return
      claimAhead(entries)
      outbox.enqueueAll(entries)
    },
    setChannels(next, nextPeople) {
      channels = new Map(next.map((c) => [c.name, c]))
      if (nextPeople !== undefined) people = directoryOf(nextPeople)
    },
    setRules(rules) {
      windows = new Map(rules.map((r) => [r.name, { repeatMs: r.repeatIntervalMs, ackTimeoutMs: r.ackTimeoutMs }]))
    },
    closeLead(key) {
      recorder?.leads.markResolved(key)
    },
    stats() {
      const s = outbox.stats()
      return {
        sent: { ...sent },
        failed: { ...failed },
        retried: s.retried,
        dead: s.dead,
        depth: s.pending,
        spilled: s.spilled,
      }
    },
    queuedPages() {
      const pages: QueuedPage[] = []
      for (const item of outbox.pendingItems()) {
        if (item.kind !== 'incident') {
          const page = (item.payload as Queued | undefined)?.page
          if (page !== undefined) pages.push(page)
          continue
        }
        // A target that only records incidents (logx-incident) has no message to carry the page: its
        // record of the notice does (not a sent message's record, which follows a page already known).
        const event = item.payload as QueuedRecord | undefined
        if (event !== undefined && event.messageKey === undefined && isPage(event.kind))
          pages.push({ key: event.key, rule: event.rule, at: event.at })
      }
      return pages
    },
    drain: (timeoutMs) => outbox.drain(timeoutMs),
    sync: () => outbox.sync(),
    syncAsync: () => outbox.syncAsync(),
    async close() {
      await outbox.close()
      await Promise.allSettled([...marking])
      await client?.close().catch(() => {})
      await recorder?.release().catch(() => {})
    },
  }
}
