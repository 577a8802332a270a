// The missed-call poller against the sandbox, over real HTTP, with its state in a real file: each
// call a user makes is handed over once, oldest first, across polls and restarts; calls made before
// the first start, or to another number, acknowledge nothing; API faults are counted, logged once,
// and polling recovers.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import {
  createMissedCallPoller,
  type MissedCall,
  type MissedCallPoller,
  type MissedCallPollerOptions,
} from '../../../agent/acknowledge/missed-calls'
import { createMessagingClient, type MessagingClient } from '../../../agent/messaging'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

interface Logged {
  level: 'info' | 'warn' | 'error'
  fields: Record<string, unknown>
  message: string
}

let sandbox: Sandbox
let client: MessagingClient
let dir: string
let statePath: string
const pollers: MissedCallPoller[] = []

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 })
  client = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: 'sandbox-api-key' })
  dir = tempDir('missed-calls')
  statePath = join(dir, 'state', 'missed-calls.json')
})

afterEach(async () => {
  for (const p of pollers.splice(0)) await p.stop()
  await client.close()
  await sandbox.close()
})

/** A user gives a missed call, through the sandbox's control route. */
async function missedCall(caller: string, called?: string): Promise<string> {
  const res = await fetch(`${sandbox.info.controlUrl}missed-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(called === undefined ? { caller } : { caller, called }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { record: { id: string } }).record.id
}

function poller(overrides: Partial<MissedCallPollerOptions> = {}) {
  const handed: MissedCall[][] = []
  const logged: Logged[] = []
  const log = (level: Logged['level']) => (fields: Record<string, unknown>, message: string) =>
    void logged.push({ level, fields, message })
  const p = createMissedCallPoller({
    client,
    statePath,
    intervalMs: 60_000,
    calledNumber: undefined,
    onCalls: (calls) => void handed.push(calls),
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    now: Date.now,
    ...overrides,
  })
  pollers.push(p)
  const callers = () => handed.flat().map((c) => c.caller)
  return { p, handed, logged, callers }
}

it('hands each new call over once, oldest first, with what it needs to acknowledge', async () => {
  const { p, handed } = poller()
  expect(await p.pollNow()).toEqual({ calls: 0, pages: 1 })
  const before = Date.now()
  const first = await missedCall('+91 98000 00001')
  await missedCall('+919800000002')
  await missedCall('+919800000003', '+918033333333')

  expect(await p.pollNow()).toEqual({ calls: 3, pages: 1 })
  expect(handed).toHaveLength(1)
  expect(handed[0]?.map((c) => c.caller)).toEqual(['+919800000001', '+919800000002', '+919800000003'])
  expect(handed[0]?.[0]).toEqual({ id: first, at: expect.any(Number), caller: '+919800000001', called: '15550199999' })
  expect(handed[0]?.[0]?.at).toBeGreaterThanOrEqual(before - 1000)
  expect(handed[0]?.[2]?.called).toBe('+918033333333')

  expect(await p.pollNow()).toEqual({ calls: 0, pages: 1 })
  await missedCall('+919800000001')
  expect(await p.pollNow()).toEqual({ calls: 1, pages: 1 })
  expect(handed.flat()).toHaveLength(4)
  expect(p.stats()).toMatchObject({ polls: 4, calls: 4, ignored: 0, errors: 0, lastError: undefined })
})

it('a first start takes the calls already listed as seen: they acknowledge nothing', async () => {
  await missedCall('+919800000001')
  const { p, handed, logged } = poller()
  await p.pollNow()
  expect(handed).toEqual([])
  expect(logged.map((l) => l.message)).toEqual([expect.stringContaining('first start')])
  // The sandbox's two seeded calls and the one above: seen, not handed over, even after a restart.
  expect(JSON.parse(readFileSync(statePath, 'utf8')).seen).toHaveLength(3)
  await missedCall('+919800000002')
  await p.stop()
  const again = poller()
  await again.p.pollNow()
  expect(again.callers()).toEqual(['+919800000002'])
})

it('after a restart on the same state file, nothing is handed twice and calls made while down are handed', async () => {
  const one = poller()
  await one.p.pollNow()
  await missedCall('+919800000001')
  await one.p.pollNow()
  await one.p.stop()
  expect(one.callers()).toEqual(['+919800000001'])

  await missedCall('+919800000002')
  const two = poller()
  await two.p.pollNow()
  await two.p.pollNow()
  expect(two.callers()).toEqual(['+919800000002'])
})

it('without a state file (memory), polls of one poller still hand each call once', async () => {
  const { p, callers } = poller({ statePath: undefined })
  await p.pollNow()
  await missedCall('+919800000001')
  await p.pollNow()
  await p.pollNow()
  expect(callers()).toEqual(['+919800000001'])
})

it('more new calls than a page holds: pages until it reaches what it saw, all handed in order', async () => {
  const { p, handed } = poller()
  await p.pollNow()
  const made: string[] = []
  for (let i = 0; i < 120; i++) made.push(await missedCall(`+91980000${String(i).padStart(4, '0')}`))
  expect(await p.pollNow()).toEqual({ calls: 120, pages: 3 })
  expect(handed).toHaveLength(1)
  expect(handed[0]?.map((c) => c.id)).toEqual(made)
  expect(await p.pollNow()).toEqual({ calls: 0, pages: 1 })
})

it('only calls to the configured number count; the others are remembered and counted as ignored', async () => {
  const { p, callers, logged } = poller({ calledNumber: '+91 80 3333 3333' })
  await p.pollNow()
  await missedCall('+919800000001', '08033333333')
  await missedCall('+919800000002', '15550199999')
  await missedCall('+919800000003', '918033333333')
  await p.pollNow()
  await p.pollNow()
  expect(callers()).toEqual(['+919800000001', '+919800000003'])
  expect(p.stats()).toMatchObject({ calls: 2, ignored: 1 })
  expect(logged.filter((l) => l.message.includes('another number'))).toHaveLength(1)
})

it('an API fault is counted and logged once, and polling recovers without losing a call', async () => {
  const { p, callers, logged } = poller()
  await p.pollNow()
  await missedCall('+919800000001')
  sandbox.faults.add({ kind: 'rate-limit', retryAfterSeconds: 0, route: 'missed_record', times: 2 })
  sandbox.faults.add({ kind: 'error', status: 500, route: 'missed_record', times: 1 })
  await p.pollNow()
  await p.pollNow()
  expect(p.stats()).toMatchObject({ errors: 2, calls: 0, lastError: expect.stringContaining('rate limited') })
  expect(callers()).toEqual([])
  await p.pollNow()
  expect(p.stats().errors).toBe(3)
  await p.pollNow()
  expect(callers()).toEqual(['+919800000001'])
  const failures = logged.filter((l) => l.message === 'missed-call poll failed')
  expect(failures.map((l) => l.fields['code'])).toEqual(['LOGX_MSG_ERR_RATE_LIMITED', 'LOGX_MSG_ERR_SERVER'])
  expect(logged.filter((l) => l.message.includes('recovered'))).toHaveLength(1)
  expect(JSON.stringify(logged)).not.toContain('sandbox-api-key')
})

it("the server's Retry-After is kept: a poll before it passes is the same failure, not logged again", async () => {
  const { p, callers, logged } = poller()
  await p.pollNow()
  await missedCall('+919800000001')
  sandbox.faults.add({ kind: 'rate-limit', retryAfterSeconds: 1, route: 'missed_record', times: 1 })
  await p.pollNow()
  await p.pollNow()
  expect(p.stats().errors).toBe(2)
  expect(logged.filter((l) => l.message === 'missed-call poll failed')).toHaveLength(1)
  expect(logged.find((l) => l.message === 'missed-call poll failed')?.fields['retryAfterMs']).toBe(1000)
  await pollUntil('the Retry-After passed', async () => ((await p.pollNow()).calls === 1 ? true : undefined))
  expect(callers()).toEqual(['+919800000001'])
})

/** Waits, on real time (timers may be faked), until `ok` holds. */
async function settle(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setImmediate(r))
  }
}

it('after a Retry-After longer than the interval, the next timed poll waits it out', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  try {
    const { p } = poller({ intervalMs: 1000 })
    sandbox.faults.add({ kind: 'rate-limit', retryAfterSeconds: 30, route: 'missed_record', times: 1 })
    p.start()
    vi.advanceTimersByTime(0)
    await settle('the failed poll and the next one scheduled', () => p.stats().errors === 1 && vi.getTimerCount() === 1)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(p.stats().polls).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(p.stats().polls).toBe(2)
    await settle('the second poll', () => vi.getTimerCount() === 1)
  } finally {
    vi.useRealTimers()
  }
})

it('onCalls throwing: the same calls are offered again at the next poll', async () => {
  let fail = true
  const seen: string[][] = []
  const { p, logged } = poller({
    onCalls: (calls) => {
      seen.push(calls.map((c) => c.caller))
      if (fail) throw new Error('engine busy')
    },
  })
  await p.pollNow()
  await missedCall('+919800000001')
  await missedCall('+919800000002')
  expect(await p.pollNow()).toEqual({ calls: 0, pages: 1 })
  expect(p.stats()).toMatchObject({ errors: 1, lastError: 'engine busy', calls: 0 })
  fail = false
  expect(await p.pollNow()).toEqual({ calls: 2, pages: 1 })
  await p.pollNow()
  expect(seen).toEqual([
    ['+919800000001', '+919800000002'],
    ['+919800000001', '+919800000002'],
  ])
  expect(logged.filter((l) => l.message === 'missed-call poll failed')).toHaveLength(1)
})

it('started, it polls on its own timer; stop() waits for the poll in flight', async () => {
  const { p, callers } = poller({ intervalMs: 100 })
  p.start()
  await pollUntil('the first poll', () => (p.stats().polls >= 1 ? true : undefined))
  await missedCall('+919800000001')
  await pollUntil('the call handed over', () => (callers().length > 0 ? true : undefined))
  expect(callers()).toEqual(['+919800000001'])

  sandbox.faults.add({ kind: 'latency', ms: 300, route: 'missed_record' })
  const order: string[] = []
  const inFlight = p.pollNow().then(() => void order.push('poll'))
  await p.stop().then(() => void order.push('stop'))
  await inFlight
  expect(order).toEqual(['poll', 'stop'])
  expect(await p.pollNow()).toEqual({ calls: 0, pages: 0 })
})

it('an unreadable state file is a first start: nothing already listed is handed over', async () => {
  const { p } = poller()
  await p.pollNow()
  await p.stop()
  writeFileSync(statePath, '{ not json')
  await missedCall('+919800000001')
  const again = poller()
  await again.p.pollNow()
  expect(again.handed).toEqual([])
  expect(again.logged.map((l) => l.level)).toEqual(['warn', 'info'])
  await missedCall('+919800000002')
  await again.p.pollNow()
  expect(again.callers()).toEqual(['+919800000002'])
})
