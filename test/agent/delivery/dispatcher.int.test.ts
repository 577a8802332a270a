// The dispatcher's account of failures (and, last, what it says at start of a record a crash left): a send the client refused before making it (the API asked
// that operation to wait, and the wait is not over) is the outbox's to wait out, not a failure: not
// counted, not reported. The refusal that set the wait is both.
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createAlertEngine } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import { toAlertLine } from '../../../agent/events/alert-line'
import { engineOptionsOfSetup, setupOfConfig } from '../../../agent/delivery/alert-setup'
import { createDispatcher, outboxReports, type DispatcherOptions } from '../../../agent/delivery/dispatcher'
import type { DeliveryLog } from '../../../agent/delivery/types'
import { createMessagingClient } from '../../../agent/messaging'
import { createOutbox } from '../../../agent/outbox'
import { acquireRecorder } from '../../../agent/delivery/record/incident-recorder'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

const cleanups: Array<() => Promise<void> | void> = []

/** What the alert path does: an outbox and a client made here, handed to the dispatcher. */
function handedIn(
  outboxPath: string | undefined,
  api: { baseUrl: string; apiKey: string } | undefined,
  log: DeliveryLog,
): Pick<DispatcherOptions, 'outbox' | 'client' | 'log'> {
  return {
    outbox: createOutbox({ path: outboxPath, ...outboxReports(log) }),
    client: api === undefined ? undefined : createMessagingClient(api),
    log,
  }
}
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

it('a 429 holds its channel: later pages wait without a request, and are not counted or reported as failed', async () => {
  const sandbox: Sandbox = await startSandbox({ port: 0 })
  cleanups.push(() => sandbox.close())
  sandbox.faults.replace([{ kind: 'rate-limit', retryAfterSeconds: 60, route: 'send_sms', times: 1 }])
  const result = parseAgentConfig(
    'sources: [{ name: app, paths: ./x.log }]\nchannels: { oncall: { type: sms, numbers: [919800000001] } }\n',
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const setup = setupOfConfig(result.config, [])
  const engine = createAlertEngine(engineOptionsOfSetup(setup, 0))
  const warnings: string[] = []
  const dispatcher = createDispatcher({
    ...handedIn(
      undefined,
      { baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey },
      { info() {}, warn: (_fields, message) => void warnings.push(message), error() {} },
    ),
    recorder: undefined,
    channels: setup.channels,
  })
  cleanups.push(() => dispatcher.close())
  const page = (msg: string) =>
    engine.ingest(toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line, Date.now())

  dispatcher.dispatch(page('db down'), new Set())
  await pollUntil('the page failed', () => dispatcher.stats().failed.sms === 1 || undefined)
  // Another incident's page, while the API's 60 s wait runs: its channel is paused, so it is not
  // even tried (a try would start at once, within dispatch(), and be refused within the same turn).
  dispatcher.dispatch(page('cache gone'), new Set())
  await new Promise((resolve) => setImmediate(resolve))
  expect(dispatcher.stats()).toMatchObject({ failed: { sms: 1 }, retried: 1, depth: 2 })
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toContain('notification failed')
  expect(sandbox.store.all('sms')).toEqual([])
})

it("a channel's `concurrency` bounds its requests in flight; one incident's messages still go one at a time", async () => {
  const sandbox: Sandbox = await startSandbox({ port: 0 })
  cleanups.push(() => sandbox.close())
  // A proxy in front of the sandbox that holds every request until released, counting the open ones. It
  // names the sandbox in Host, as a reverse proxy does (the sandbox answers its own Host only).
  const upstream = new URL(sandbox.info.baseUrl)
  const held: (() => void)[] = []
  let open = 0
  let most = 0
  const proxy = createServer((req, res) => {
    open++
    most = Math.max(most, open)
    held.push(() => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
          answer.on('end', () => open--)
        },
      )
      req.pipe(forward)
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => proxy.close(() => resolve())))
  const port = (proxy.address() as AddressInfo).port
  const result = parseAgentConfig(
    'sources: [{ name: app, paths: ./x.log }]\nchannels: { oncall: { type: sms, numbers: [919800000001], concurrency: 2 } }\n',
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const setup = setupOfConfig(result.config, [])
  const engine = createAlertEngine(engineOptionsOfSetup(setup, 0))
  const dispatcher = createDispatcher({
    ...handedIn(
      undefined,
      { baseUrl: `http://127.0.0.1:${port}`, apiKey: sandbox.apiKey },
      { info() {}, warn() {}, error() {} },
    ),
    recorder: undefined,
    channels: setup.channels,
  })
  cleanups.push(() => dispatcher.close())
  for (const msg of ['db down', 'cache gone', 'queue stuck', 'disk full', 'dns failing']) {
    dispatcher.dispatch(
      engine.ingest(toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line, Date.now()),
      new Set(),
    )
  }
  // Two requests arrive and are held; no third one comes while they are.
  await pollUntil('two requests held', () => (held.length === 2 ? true : undefined))
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
  expect(held).toHaveLength(2)
  // Released one by one as they come, all five go out, never more than two at once.
  let released = 0
  await pollUntil('all five sent', () => {
    while (released < held.length) (held[released++] as () => void)()
    return sandbox.store.all('sms').length === 5 ? true : undefined
  })
  expect(most).toBe(2)
})

it('a target that only records incidents: a notice journaled before a crash is a known page at the next start', async () => {
  const dir = tempDir('queued-pages')
  // A CRM nobody answers: the records stay in the outbox, as after a SIGKILL right after the journal write.
  const crm = {
    leadWebhook: 'http://127.0.0.1:9/lead',
    activityWebhook: 'http://127.0.0.1:9/activity',
    activityToken: 'tok',
    stateDir: dir,
  }
  const result = parseAgentConfig(
    `messaging:\n  base_url: http://127.0.0.1:9\n  api_key: k\n  lead_webhook: ${crm.leadWebhook}\n  activity_webhook: ${crm.activityWebhook}\n  activity_token: tok\nsources: [{ name: app, paths: ./x.log }]\nchannels: { oncall: { type: sms, numbers: [919800000001] } }\nrules: [{ name: db, notify: oncall, incident: true }]\n`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const setup = setupOfConfig(result.config, [])
  const engine = createAlertEngine(engineOptionsOfSetup(setup, 0))
  const open = () =>
    createDispatcher({
      ...handedIn(join(dir, 'outbox.jsonl'), undefined, { info() {}, warn() {}, error() {} }),
      recorder: acquireRecorder(crm),
      channels: setup.channels,
    })
  const first = open()
  // What a logx-incident target dispatches: the notice's record on the CRM, no message.
  const deliveries = engine
    .ingest(toAlertLine(JSON.stringify({ level: 50, msg: 'db down' }), 'json', 'app').line, 1_700_000_000_000)
    .filter((d) => d.channelType === 'incident')
  expect(deliveries).toHaveLength(1)
  first.dispatch(deliveries, new Set(['db']))
  // Its first attempt has failed (nothing in flight): the record waits for a retry when the process dies.
  await pollUntil("the record's first attempt to fail", () =>
    (first.stats().failed.incident ?? 0) >= 1 ? true : undefined,
  )
  await first.close()
  const next = open()
  cleanups.push(() => next.close())
  const key = deliveries[0]?.notice.incident.key
  expect(next.queuedPages()).toEqual([{ key, rule: 'db', at: 1_700_000_000_000 }])
})
