// Deliveries -> the file outbox under state_dir -> the messaging API, and the CRM trail. enqueue()
// journals synchronously, so once dispatch() returns the notifications survive a crash and the
// lines behind them may be committed. A channel message is recorded on the incident's lead only once
// it is sent (through the outbox too, so the trail survives API hiccups).
import { join } from 'node:path'
import type { Delivery } from '../../alerts'
import type { ChannelConfig } from '../config/types'
import { createMessagingClient, type MessagingClient, type SendChatInput, type SendMailInput, type SendSmsInput, type VoiceBroadcastInput } from '../messaging'
import { createOutbox, type DeadLetter, type Outbox, type OutboxItem } from '../outbox'
import { incidentEvent, sentActivity, type IncidentEvent } from '../transports/shared/incident-event'
import { acquireRecorder, type IncidentRecorder } from '../transports/shared/incident-recorder'
import { incidentActivities } from '../transports/incident/request'
import { buildChannelRequests } from './channel-requests'
import type { AgentLogger } from './logger'
import type { MessagingEndpoint } from './messaging-endpoint'

/** The name of the recording channel the daemon adds to the engine when a rule wants incidents. */
export const INCIDENT_CHANNEL = 'logx.incident'

interface Queued {
  request: unknown
  incident?: IncidentEvent
  /** The page this message is part of (firing, repeat, escalation), for recovery after a crash. */
  page?: QueuedPage
}

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
  setChannels(channels: readonly ChannelConfig[]): void
  /** Forgets the lead of an incident that ended without a resolve notice (its next firing opens a new one). */
  closeLead(key: string): void
  stats(): DispatcherStats
  /**
   * Pages whose messages wait in the outbox (in memory): at start, those of the previous run. The
   * incident state is written just after the outbox: a crash in between leaves such a page
   * unrecorded there, and the agent records it from here before reading again.
   */
  queuedPages(): QueuedPage[]
  drain(timeoutMs: number): Promise<{ drained: boolean; pending: number }>
  /** fsyncs the outbox: call before a checkpoint commits the lines behind what was dispatched. */
  sync(): void
  close(): Promise<void>
}

export interface DispatcherOptions {
  stateDir: string
  endpoint: MessagingEndpoint
  channels: readonly ChannelConfig[]
  log: AgentLogger
}

/**
 * Test and tuning knobs, read from the environment (not config keys): the outbox's in-memory window
 * (`LOGX_AGENT_OUTBOX_MEMORY_ITEMS`, default 1000), the age at which a notification stops being
 * retried (`LOGX_AGENT_OUTBOX_MAX_AGE_MS`, default 6 h), and the messaging client's per-attempt
 * timeout (`LOGX_AGENT_MESSAGING_TIMEOUT_MS`, default 10 s).
 */
function envNumber(name: string): number | undefined {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value >= 1 ? value : undefined
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { endpoint, log } = options
  let channels = new Map(options.channels.map((c) => [c.name, c]))
  const timeoutMs = envNumber('LOGX_AGENT_MESSAGING_TIMEOUT_MS')
  const client: MessagingClient = createMessagingClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, ...(timeoutMs === undefined ? {} : { timeoutMs }) })
  const recorder: IncidentRecorder | undefined =
    endpoint.crm === undefined ? undefined : acquireRecorder({ ...endpoint.crm, stateDir: options.stateDir }, timeoutMs === undefined ? {} : { timeoutMs })
  const sent: Record<string, number> = {}
  const failed: Record<string, number> = {}

  async function deliver(item: OutboxItem): Promise<void> {
    if (item.kind === 'incident') {
      const event = item.payload as IncidentEvent
      if (recorder !== undefined) await recorder.record(event, event.messageKey ?? item.id)
      return
    }
    const queued = item.payload as Queued
    // The outbox item's id: every resend of this notification (retry, or again after a crash
    // before the journal said done) carries the same key; a new notification never does.
    const call = { idempotencyKey: item.id }
    switch (item.kind) {
      case 'sms':
        await client.sendSms(queued.request as SendSmsInput, call)
        break
      case 'chat':
        await client.sendChat(queued.request as SendChatInput, call)
        break
      case 'mail':
        await client.sendMail(queued.request as SendMailInput, call)
        break
      case 'voice':
        await client.voiceBroadcast(queued.request as VoiceBroadcastInput, call)
        break
      default:
        throw new TypeError(`unknown outbox item kind ${item.kind}`)
    }
    // The message is out whatever happens next: a failed journal write must not make it look unsent.
    if (queued.incident !== undefined) {
      try {
        // Keyed by this message: if it is resent, its activity is recorded again under the same keys.
        outbox.enqueue('incident', { ...queued.incident, messageKey: item.id })
      } catch (err) {
        log.error({ err, kind: item.kind }, 'could not queue the incident activity of a sent message')
      }
    }
  }

  const outbox: Outbox = createOutbox({
    path: join(options.stateDir, 'outbox.jsonl'),
    memoryItems: envNumber('LOGX_AGENT_OUTBOX_MEMORY_ITEMS'),
    maxAgeMs: envNumber('LOGX_AGENT_OUTBOX_MAX_AGE_MS'),
    async send(item) {
      try {
        await deliver(item)
        sent[item.kind] = (sent[item.kind] ?? 0) + 1
        log.info({ kind: item.kind, attempts: item.attempts }, 'notification sent')
      } catch (err) {
        failed[item.kind] = (failed[item.kind] ?? 0) + 1
        log.warn({ kind: item.kind, attempts: item.attempts, code: (err as { code?: unknown }).code }, `notification failed: ${(err as Error).message}`)
        throw err
      }
    },
    onDead: (letter: DeadLetter) => log.error({ kind: letter.kind, attempts: letter.attempts, reason: letter.reason }, 'notification given up (dead letter)'),
    onError: (err) => log.error({ err }, 'outbox journal failure'),
  })

  return {
    dispatch(deliveries, incidentRules) {
      // One journal write for all of them: a SIGKILL between a page and the note that opens its
      // incident would lose the note (the restarted agent knows the page from the outbox, so the
      // incident does not fire again).
      const entries: { kind: string; payload: unknown }[] = []
      for (const delivery of deliveries) {
        const rule = delivery.notice.incident.rule
        const recorded = recorder !== undefined && incidentRules.has(rule)
        if (delivery.channelType === 'incident') {
          if (!recorded) continue
          for (const activity of incidentActivities(delivery)) entries.push({ kind: 'incident', payload: incidentEvent(delivery, activity, undefined) })
          continue
        }
        const channel = channels.get(delivery.notice.channel)
        if (channel === undefined) continue
        const { notice } = delivery
        const page = notice.kind === 'firing' || notice.kind === 'repeat' || notice.kind === 'escalated' ? { key: notice.incident.key, rule, at: notice.at } : undefined
        for (const out of buildChannelRequests(channel, delivery)) {
          const queued: Queued = { request: out.request }
          if (page !== undefined) queued.page = page
          if (recorded) queued.incident = incidentEvent(delivery, sentActivity(delivery, out.summary), undefined)
          entries.push({ kind: out.kind, payload: queued })
        }
      }
      outbox.enqueueAll(entries)
    },
    setChannels(next) {
      channels = new Map(next.map((c) => [c.name, c]))
    },
    closeLead(key) {
      recorder?.leads.markResolved(key)
    },
    stats() {
      const s = outbox.stats()
      return { sent: { ...sent }, failed: { ...failed }, retried: s.retried, dead: s.dead, depth: s.pending, spilled: s.spilled }
    },
    queuedPages() {
      const pages: QueuedPage[] = []
      for (const item of outbox.pendingItems()) {
        const page = (item.payload as Queued | undefined)?.page
        if (item.kind !== 'incident' && page !== undefined) pages.push(page)
      }
      return pages
    },
    drain: (timeoutMs) => outbox.drain(timeoutMs),
    sync: () => outbox.sync(),
    async close() {
      await outbox.close()
      await client.close().catch(() => {})
      await recorder?.release().catch(() => {})
    },
  }
}
