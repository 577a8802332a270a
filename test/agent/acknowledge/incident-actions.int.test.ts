// The incident actions as the alert path builds them (agent/delivery/alert-path.ts), sending to an
// in-process messaging sandbox over real HTTP, with every state file in a temp dir: what a person
// sees on their phone, what acknowledging and silencing change, and that all of it outlives a
// restart (a new path on the same files).
import { afterEach, expect, it } from 'vitest'
import { join } from 'node:path'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { toAlertLine } from '../../../agent/events/alert-line'
import { createAlertPath, type AlertPath } from '../../../agent/acknowledge/with-actions'
import { setupOfConfig } from '../../../agent/delivery/alert-setup'
import { createPhoneBook } from '../../../agent/acknowledge/phone-book'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { tempDir } from '../../helpers/temp-dir'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const quiet = { info() {}, warn() {}, error() {} }

function configIn(dir: string): AgentConfig {
  const result = parseAgentConfig(
    `state_dir: ${dir}
sources: [{ name: app, paths: [${dir}/*.log] }]
people:
  asha: { phone: "919800000001" }
  ravi: { phone: "919800000003" }
channels:
  oncall-sms: { type: sms, people: [asha] }
rules:
  - name: errors
    repeat_interval: 1h
    escalate:
      - { after: 10m, notify: oncall-sms, people: [ravi] }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

function open(dir: string, sandbox: Sandbox, now: number): AlertPath {
  const config = configIn(dir)
  const path = createAlertPath({
    setup: setupOfConfig(config, []),
    statePath: join(dir, 'incidents.json'),
    timelinePath: join(dir, 'timeline.jsonl'),
    silencesPath: join(dir, 'silences.json'),
    outbox: { path: join(dir, 'outbox.jsonl'), backoff: { minDelayMs: 10, maxDelayMs: 20 } },
    api: { baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey },
    crm: undefined,
    timeoutMs: 2000,
    log: quiet,
    now,
  })
  const book = createPhoneBook(config.people)
  path.actions.setCallers((caller) => book.personOf(caller), config.acknowledge.ackAll)
  return path
}

const line = (msg: string) => toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line

const MINUTE = 60_000

async function sandboxStarted(): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0 })
  cleanups.push(() => sandbox.close())
  return sandbox
}

/** What reached phones so far: to whom, and the text. */
async function texts(path: AlertPath, sandbox: Sandbox): Promise<string[]> {
  expect(await path.dispatcher.drain(5000)).toEqual({ drained: true, pending: 0 })
  return sandbox.store.all('sms').map((e) => `${String(e.record.numbers)}: ${String(e.record.sms)}`)
}

it('a missed call from the person an escalation paged acknowledges; who did it outlives a restart', async () => {
  const dir = tempDir('actions-path')
  const sandbox = await sandboxStarted()
  const t = Date.now()
  const first = open(dir, sandbox, t)
  let firstOpen = true
  cleanups.push(async () => {
    if (firstOpen) await first.close()
  })
  first.pipeline.ingest(line('db down'), t)
  first.pipeline.tick(t + 11 * MINUTE)
  expect(await texts(first, sandbox)).toEqual([
    '919800000001: FIRING db down (1x, errors) Ack: missed call 15550199999',
    '919800000003: ESCALATED db down (1x, errors) Ack: missed call 15550199999',
  ])
  const key = first.pipeline.incidents()[0]?.key ?? ''

  first.actions.missedCalls(
    [{ id: 'call-1', caller: '+91 98000 00003', at: t + 12 * MINUTE, called: '15550199999' }],
    t + 12 * MINUTE,
  )
  expect(first.pipeline.incident(key)?.ack).toMatchObject({ by: 'ravi', via: 'missed_call' })
  // Acknowledged: no repeat, nothing more.
  first.pipeline.tick(t + 2 * 60 * MINUTE)
  expect(await texts(first, sandbox)).toHaveLength(2)
  expect(first.timeline.of(key).map((e) => e.text)).toEqual([
    'firing: oncall-sms',
    'escalated to step 1: oncall-sms',
    'acknowledged by ravi (missed call from +91 98000 00003)',
  ])
  await first.close()
  firstOpen = false

  const second = open(dir, sandbox, t + 2 * 60 * MINUTE)
  cleanups.push(() => second.close())
  expect(second.pipeline.incident(key)).toMatchObject({
    status: 'acknowledged',
    ack: { by: 'ravi', via: 'missed_call' },
  })
  expect(second.timeline.of(key)).toEqual(first.timeline.of(key))
  // The poller offers the call again after the restart: it was used already.
  second.actions.missedCalls(
    [{ id: 'call-1', caller: '919800000003', at: t + 12 * MINUTE, called: '15550199999' }],
    t + 121 * MINUTE,
  )
  expect(second.actions.stats().missedCalls).toMatchObject({ acknowledged: 0, repeated: 1 })

  const resolved = second.actions.act(key, 'resolve', { by: 'asha', via: 'console' }, t + 122 * MINUTE)
  expect(resolved).toMatchObject({ ok: true, resolved: true })
  expect(second.timeline.of(key).at(-1)).toMatchObject({ kind: 'resolved', by: 'asha', text: 'resolved by asha' })
  expect(await texts(second, sandbox)).toHaveLength(2)
})

it('a silence added at run time mutes pages on this path and the next one, until expired', async () => {
  const dir = tempDir('actions-path')
  const sandbox = await sandboxStarted()
  const t = Date.now()
  const first = open(dir, sandbox, t)
  let firstOpen = true
  cleanups.push(async () => {
    if (firstOpen) await first.close()
  })
  const added = first.actions.addSilence(
    { matchers: { msg: '/full$/' }, endsAt: t + 60 * MINUTE, comment: 'disk swap', by: 'asha' },
    t,
  )
  if (!added.ok) throw new Error(added.error)
  first.pipeline.ingest(line('disk full'), t + 1000)
  expect(await texts(first, sandbox)).toEqual([])
  await first.close()
  firstOpen = false

  const second = open(dir, sandbox, t + 2000)
  cleanups.push(() => second.close())
  expect(second.actions.silences(t + 2000)).toEqual([added.silence])
  second.pipeline.ingest(line('tmp full'), t + 3000)
  expect(await texts(second, sandbox)).toEqual([])
  expect(second.actions.expireSilence(added.silence.id, t + 4000)).toEqual(added.silence)
  second.pipeline.ingest(line('log full'), t + 5000)
  expect(await texts(second, sandbox)).toEqual([
    '919800000001: FIRING log full (1x, errors) Ack: missed call 15550199999',
  ])
})
