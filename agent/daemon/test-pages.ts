// Test pages (`logx-agent test-page`, issue #33), run by the agent that holds the alert path (the
// daemon behind its console, or the CLI alone): the page is a test incident whose notices go through
// the path's dispatcher like every notice (outbox, channel sender, CRM recorder, timeline); the
// missed call that acknowledges it is read by agent/acknowledge's poller (its own, in memory: the
// calls listed before the page are taken as seen) and matched by the config's phone book. The
// agent's own poller sees the same call and finds nothing of the engine's paged to the caller.
import { randomBytes } from 'node:crypto'
import type { MissedCall } from '../acknowledge/missed-calls-cursor'
import { createMissedCallPoller } from '../acknowledge/missed-calls'
import { createPhoneBook } from '../acknowledge/phone-book'
import type { AlertPath } from '../acknowledge/with-actions'
import type { AgentConfig } from '../config/types'
import type { DeliveryLog } from '../delivery/types'
import { createMessagingClient, type MessagingClient } from '../messaging'
import type { TestPageBackend, TestPageStart, TestPageView } from './console/test-page-types'
import {
  testAckDeliveries,
  testIncident,
  testPageDeliveries,
  testPageText,
  testTargetOf,
  TEST_RULE,
} from './test-page-notices'
import { createRecordWatch } from './test-page-records'

export interface TestPagesOptions {
  path: Pick<AlertPath, 'pipeline' | 'dispatcher' | 'timeline'>
  config: () => AgentConfig
  api: { baseUrl: string; apiKey: string }
  inboxUrl: string | undefined
  host: string
  log: DeliveryLog
  now: () => number
  /** How often the missed calls and the records are read while a page waits; default 1 s. */
  pollMs?: number | undefined
}

export interface TestPages extends TestPageBackend {
  /** Resolves once the page is acknowledged, timed out or failed (undefined: no such page). */
  settled(id: string): Promise<TestPageView | undefined>
  close(): Promise<void>
}

/** Pages kept for their progress to be read; the oldest go first. */
const MAX_KEPT = 20
export const MAX_TEST_TIMEOUT_MS = 60 * 60_000

interface RunContext {
  options: TestPagesOptions
  pollMs: number
  clientOf: () => MessagingClient
}

interface Running {
  view: TestPageView
  done: Promise<void>
  stop(): void
}

/** One page: its first poll (the calls before it are not its), sent, then waited for. */
async function runTestPage(ctx: RunContext, view: TestPageView, signal: AbortSignal): Promise<void> {
  const { options, pollMs, clientOf } = ctx
  const { path, log, now } = options
  const config = options.config()
  const book = createPhoneBook(config.people)
  const watch = createRecordWatch(
    clientOf(),
    view.channels.map((c) => c.type),
  )
  let acked: MissedCall | undefined
  const poller = createMissedCallPoller({
    client: clientOf(),
    statePath: undefined,
    intervalMs: pollMs,
    calledNumber: config.acknowledge.missedCallNumber,
    onCalls: (calls) => {
      acked ??= calls.find((c) => {
        const who = book.personOf(c.caller)
        return view.person === undefined ? who !== undefined : who === view.person
      })
    },
    log,
    now,
  })
  await poller.pollNow()
  await watch.before()
  const at = now()
  const engineChannels = path.pipeline.change(at, (engine) => ({ deliveries: [], result: engine.channels }))
  const parts = {
    incident: testIncident(view.id, view.text, options.host, at),
    channels: engineChannels,
    person: view.person,
    at,
  }
  const deliveries = testPageDeliveries(
    parts,
    view.channels.map((c) => c.channel),
  )
  path.dispatcher.dispatch(deliveries, new Set([TEST_RULE]))
  path.timeline.notices(deliveries)
  view.queuedAt = at
  view.state = 'waiting'
  log.info({ incident: view.incident, target: view.target }, 'test page sent')
  try {
    while (!signal.aborted && acked === undefined && now() < view.deadline) {
      await Promise.all([poller.pollNow(), watch.update(view.channels, view.text, now())])
      if (acked === undefined) await pause(Math.min(pollMs, Math.max(0, view.deadline - now())), signal)
    }
    await watch.update(view.channels, view.text, now())
  } finally {
    await poller.stop()
  }
  if (acked === undefined) {
    view.state = 'timed_out'
    log.info({ incident: view.incident }, 'test page: no missed call before the wait ended')
    return
  }
  const by = book.personOf(acked.caller) ?? acked.caller
  view.acknowledged = { at: acked.at, by, caller: acked.caller }
  view.state = 'acknowledged'
  const actor = { by, via: 'missed_call' as const, detail: `missed call from ${acked.caller}` }
  const ack = testAckDeliveries({ ...parts, at: now() }, actor)
  path.dispatcher.dispatch(ack, new Set([TEST_RULE]))
  path.timeline.add(view.incident, { at: acked.at, kind: 'missed_call', text: `test page acknowledged by ${by}`, by })
  log.info({ incident: view.incident, by }, 'test page acknowledged by a missed call')
}

const settledState = (view: TestPageView): boolean => view.state !== 'starting' && view.state !== 'waiting'

export function createTestPages(options: TestPagesOptions): TestPages {
  const { log, now } = options
  const pollMs = options.pollMs ?? 1000
  const pages = new Map<string, Running>()
  let client: MessagingClient | undefined

  function clientOf(): MessagingClient {
    client ??= createMessagingClient({ baseUrl: options.api.baseUrl, apiKey: options.api.apiKey })
    return client
  }

  function keep(id: string, running: Running): void {
    pages.set(id, running)
    for (const [old, page] of pages) {
      if (pages.size <= MAX_KEPT) break
      if (settledState(page.view)) pages.delete(old)
    }
  }

  return {
    start({ target, timeoutMs }): TestPageStart {
      const config = options.config()
      const found = testTargetOf(config, target)
      if (!found.ok) return { ok: false, status: 404, error: found.error }
      if ([...pages.values()].filter((p) => !settledState(p.view)).length >= MAX_KEPT)
        return { ok: false, status: 409, error: `${MAX_KEPT} test pages are waiting already` }
      const id = randomBytes(6).toString('hex')
      const startedAt = now()
      const view: TestPageView = {
        id,
        test: true,
        incident: `${TEST_RULE}:${id}`,
        target,
        person: found.person,
        text: testPageText(options.host, config.acknowledge.missedCallNumber),
        startedAt,
        queuedAt: undefined,
        deadline: startedAt + Math.min(timeoutMs, MAX_TEST_TIMEOUT_MS),
        ackNumber: config.acknowledge.missedCallNumber,
        inboxUrl: options.inboxUrl,
        channels: found.channels.map((c) => ({
          channel: c.name,
          type: c.type,
          status: 'queued' as const,
          sentAt: undefined,
          deliveredAt: undefined,
          apiStatus: undefined,
        })),
        acknowledged: undefined,
        state: 'starting',
        error: undefined,
      }
      const abort = new AbortController()
      const done = runTestPage({ options, pollMs, clientOf }, view, abort.signal).catch((err: unknown) => {
        view.state = 'failed'
        view.error = (err as Error).message
        log.error({ err, incident: view.incident }, 'test page failed')
      })
      keep(id, { view, done, stop: () => abort.abort() })
      return { ok: true, page: view }
    },
    get: (id) => pages.get(id)?.view,
    async settled(id) {
      const page = pages.get(id)
      await page?.done
      return page?.view
    },
    async close() {
      for (const page of pages.values()) page.stop()
      await Promise.all([...pages.values()].map((p) => p.done))
      await client?.close().catch(() => {})
    },
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
