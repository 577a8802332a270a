// The one shape of every alert target: lines in -> alert engine -> request builder -> outbox ->
// sender. Each channel folder brings its adapter (a channel definition, a pure request builder and
// a sender); this file wires them, drives the engine's clock, and shuts down in bounded time.
//
// Nothing here may throw into the logging path: a failing API, a bad line or a full disk is
// reported on stderr and counted, and logging goes on.
import { Writable } from 'node:stream'
import { createAlertEngine, lowestLevel, type ChannelInput, type Delivery } from '../../../alerts'
import { createOutbox, type DeadLetter, type OutboxItem } from '../../outbox'
import type { CommonOptions, CrmOptions } from './common-options'
import { asOptionError } from './common-options'
import { TransportError, TransportErrorCodes } from './errors'
import { incidentEvent, sentActivity, type IncidentEvent } from './incident-event'
import { acquireRecorder, type IncidentRecorder } from './incident-recorder'
import { createLineSplitter } from './line-splitter'
import { mayBeCandidate } from './prefilter'

/** One thing to send for a delivery: the outbox item kind and the JSON-safe request. */
export interface OutgoingRequest {
  kind: string
  request: unknown
  /** One line describing what was sent, for the CRM activity (never holds secrets). */
  summary: string
}

export interface ChannelAdapter {
  channel: ChannelInput
  /** Pure: what to send for one delivery (nothing, one, or one per recipient). */
  build(delivery: Delivery): OutgoingRequest[]
  /** I/O: sends one request built above (keyed by its outbox item); throws MessagingApiError on failure. */
  send(request: unknown, idempotencyKey: string): Promise<void>
  close(): Promise<void>
  /** Recording-only channels (logx-incident) turn a delivery straight into incident events. */
  record?: (delivery: Delivery) => IncidentEvent['activity'][]
}

export interface AlertTargetSetup {
  target: string
  common: CommonOptions
  crm: CrmOptions | undefined
  /** Strings that must never appear in a message (API key, token, lead URL). */
  secrets: string[]
  adapter: ChannelAdapter
  now?: () => number
}

interface QueuedRequest {
  request: unknown
  incident?: IncidentEvent
}

function reporter(target: string): (message: string) => void {
  let reported = 0
  return (message) => {
    // Enough to notice, never a flood on the app's stderr.
    if (reported++ < 20) process.stderr.write(`${target}: ${message}\n`)
  }
}

export function startAlertTarget(setup: AlertTargetSetup): Writable {
  const { target, common, crm, adapter } = setup
  const now = setup.now ?? Date.now
  const report = reporter(target)

  let engine: ReturnType<typeof createAlertEngine>
  try {
    engine = createAlertEngine({
      rules: common.rules,
      silences: common.silences,
      channels: [adapter.channel],
      redact: common.redact,
      secrets: setup.secrets,
      maxIncidents: common.maxIncidents,
      now: now(),
    })
  } catch (err) {
    asOptionError(target, err)
  }

  let recorder: IncidentRecorder | undefined
  if (crm !== undefined) {
    try {
      recorder = acquireRecorder(crm, { timeoutMs: common.timeoutMs, retry: common.retry })
    } catch (err) {
      throw new TransportError(TransportErrorCodes.STATE, target, `options.stateDir: cannot use ${crm.stateDir}: ${(err as Error).message}`, {
        option: 'stateDir',
        cause: err,
      })
    }
  }

  let outbox: ReturnType<typeof createOutbox>
  try {
    outbox = createOutbox({
      path: common.outboxPath,
      maxAttempts: common.maxAttempts,
      backoff: common.backoff,
      send,
      onDead: (letter: DeadLetter) => report(`gave up on a ${letter.kind} notification after ${letter.attempts} attempt(s): ${letter.reason}`),
      onError: (err) => report(`outbox: ${err.message}`),
    })
  } catch (err) {
    void recorder?.release()
    throw new TransportError(TransportErrorCodes.STATE, target, `options.outbox: cannot use ${common.outboxPath}: ${(err as Error).message}`, {
      option: 'outbox',
      cause: err,
    })
  }

  async function send(item: OutboxItem): Promise<void> {
    if (item.kind === 'incident') {
      if (recorder === undefined) return
      const event = item.payload as IncidentEvent
      // Keys for the CRM calls: a sent message's activity keeps its message's (see messageKey).
      await recorder.record(event, event.messageKey ?? item.id)
      return
    }
    const queued = item.payload as QueuedRequest
    await adapter.send(queued.request, item.id)
    // Recorded only once sent, and through the outbox, so the trail survives API hiccups too. The
    // message is out whatever happens here: a failure must not make it look unsent (and resent).
    const incident = queued.incident
    if (incident !== undefined) guarded(() => outbox.enqueue('incident', { ...incident, messageKey: item.id }))
  }

  function enqueue(deliveries: Delivery[]): void {
    for (const delivery of deliveries) {
      if (adapter.record !== undefined) {
        if (recorder === undefined) continue
        for (const activity of adapter.record(delivery)) outbox.enqueue('incident', incidentEvent(delivery, activity, common.service))
        continue
      }
      for (const out of adapter.build(delivery)) {
        const queued: QueuedRequest = { request: out.request }
        if (recorder !== undefined) queued.incident = incidentEvent(delivery, sentActivity(delivery, out.summary), common.service)
        outbox.enqueue(out.kind, queued)
      }
    }
  }

  function guarded(fn: () => void): void {
    try {
      fn()
    } catch (err) {
      report(`internal error: ${(err as Error).message}`)
    }
  }

  const splitter = createLineSplitter()
  const lowest = lowestLevel(engine.rules)
  const onLine = (buf: Buffer, start: number, end: number): void => {
    // Lines no rule can take (most of them, without a filter in front) are never decoded or parsed.
    if (!mayBeCandidate(buf, start, end, lowest)) return
    guarded(() => enqueue(engine.ingest(buf.toString('utf8', start, end), now(), common.source)))
  }

  const ticker = setInterval(() => guarded(() => enqueue(engine.tick(now()))), common.tickMs)
  // The worker is kept alive by thread-stream; the tick must not keep anything else alive.
  ticker.unref()

  let closed = false
  async function shutdown(): Promise<void> {
    if (closed) return
    closed = true
    clearInterval(ticker)
    guarded(() => splitter.end(onLine))
    guarded(() => enqueue(engine.flush(now())))
    const result = await outbox.drain(common.drainTimeoutMs)
    if (!result.drained) {
      report(
        `${result.pending} notification(s) not delivered within ${common.drainTimeoutMs} ms` +
          (common.outboxPath !== undefined ? '; kept in the outbox for the next start' : ''),
      )
    }
    await outbox.close()
    await adapter.close().catch(() => {})
    await recorder?.release().catch(() => {})
  }

  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      guarded(() => splitter.push(chunk, onLine))
      callback()
    },
    final(callback) {
      shutdown().then(
        () => callback(),
        (err: unknown) => {
          report(`shutdown: ${(err as Error).message}`)
          callback()
        },
      )
    },
    destroy(err, callback) {
      clearInterval(ticker)
      if (closed) {
        callback(err)
        return
      }
      // Destroyed without end(): still try to deliver what is queued, within the bound.
      shutdown().then(
        () => callback(err),
        () => callback(err),
      )
    },
  })
}

/** The strings a target must keep out of every message. */
export function secretsOf(values: (string | undefined)[]): string[] {
  const out: string[] = []
  for (const value of values) {
    if (value === undefined) continue
    out.push(value)
    if (URL.canParse(value)) {
      const { pathname, search } = new URL(value)
      if (pathname.length > 1) out.push(pathname)
      if (search.length > 1) out.push(search)
    }
  }
  return out
}

/** Starts a target; when starting fails, what was opened for it is closed before the error goes on. */
export async function withCleanup<T>(cleanup: () => Promise<void>, start: () => T): Promise<T> {
  try {
    return start()
  } catch (err) {
    await cleanup().catch(() => {})
    throw err
  }
}
