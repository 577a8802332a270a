import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMessagingClient, type MessagingClient } from '../../../agent/messaging'
import { SANDBOX_MISSED_CALL_NUMBER, startSandbox, type Sandbox } from '../../../agent/sandbox'
import { tempDir } from '../../helpers/temp-dir'

let sb: Sandbox
let client: MessagingClient

beforeAll(async () => {
  sb = await startSandbox()
  client = createMessagingClient({ baseUrl: sb.info.baseUrl, apiKey: sb.apiKey })
})

afterEach(async () => {
  await fetch(`${sb.info.controlUrl}reset`, { method: 'POST' })
})

afterAll(async () => {
  await client.close()
  await sb.close()
})

function simulate(base: Sandbox, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base.info.controlUrl}missed-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

// Test bodies are checked by shape, so they are read as any.
const json = (res: Response): Promise<any> => res.json()

describe('POST /_sandbox/missed-calls', () => {
  it('answers 201 with the record, which missed_record then lists first', async () => {
    const res = await simulate(sb, { caller: '+91 98000-00001' })
    expect(res.status).toBe(201)
    const { status, record } = await json(res)
    expect(status).toBe('success')
    expect(record).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      caller: '+919800000001',
      called: SANDBOX_MISSED_CALL_NUMBER,
    })
    expect(new Date(record.created_at).toISOString()).toBe(record.created_at)

    const listed = await client.listMissedCallRecords()
    expect(listed.records[0]).toEqual(record)
    // The two seeded calls from unknown numbers are still there, behind it, to the same number.
    expect(listed.records.slice(1).map((r) => [r.caller, r.called])).toEqual([
      ['15550100002', SANDBOX_MISSED_CALL_NUMBER],
      ['15550100001', SANDBOX_MISSED_CALL_NUMBER],
    ])
  })

  it('takes the called number when given', async () => {
    const res = await simulate(sb, { caller: '919800000003', called: '+91 80 3333 3333' })
    expect((await json(res)).record).toMatchObject({ caller: '919800000003', called: '+918033333333' })
    expect((await client.listMissedCallRecords()).records[0]).toMatchObject({ called: '+918033333333' })
  })

  it('answers 400 naming the field, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'caller'],
      [{ caller: 'not a number' }, 'caller'],
      [{ caller: 15550100 }, 'caller'],
      [{ caller: '15550100', called: 'reception' }, 'called'],
      [{ caller: '15550100', from: '15550101' }, 'from'],
      [['15550100'], '(body)'],
      ['{"caller": ', '(body)'],
    ]
    for (const [body, field] of cases) {
      const res = await simulate(sb, body)
      expect(res.status).toBe(400)
      expect(await json(res)).toMatchObject({ status: 'error', field, error: expect.stringContaining(field) })
    }
    expect((await client.listMissedCallRecords()).total).toBe(2)
  })

  it('refuses a browser on another site, and serves the page of its own', async () => {
    const foreign = await simulate(sb, { caller: '15550100' }, { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(await json(foreign)).toMatchObject({ field: 'origin' })
    const own = await simulate(sb, { caller: '15550100' }, { origin: sb.info.baseUrl })
    expect(own.status).toBe(201)
    expect((await client.listMissedCallRecords()).records.map((r) => r.caller)).toEqual([
      '15550100',
      '15550100002',
      '15550100001',
    ])
  })

  it('streams the call to the inbox feed as a record of kind missed', async () => {
    const controller = new AbortController()
    const res = await fetch(sb.info.eventsUrl, { signal: controller.signal })
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read()
        if (done) throw new Error('stream ended')
        text += decoder.decode(value)
      }
    }
    await readUntil('event: ready')
    await simulate(sb, { caller: '+15550100777' })
    await readUntil('15550100777')
    expect(text).toMatch(/event: record\ndata: \{"seq":\d+,"kind":"missed","record":\{[^}]*"caller":"\+15550100777"/)
    controller.abort()
    const feed = await json(await fetch(`${sb.info.controlUrl}records?kind=missed`))
    expect(feed.records[0]).toMatchObject({ kind: 'missed', record: { caller: '+15550100777' } })
  })

  it('keeps simulated calls in a data directory across restarts, like every record', async () => {
    const dir = tempDir('sandbox-missed')
    const first = await startSandbox({ dataDir: dir })
    const { record } = await json(await simulate(first, { caller: '+919800000001' }))
    await first.close()

    const second = await startSandbox({ dataDir: dir })
    const reader = createMessagingClient({ baseUrl: second.info.baseUrl, apiKey: second.apiKey })
    const listed = await reader.listMissedCallRecords()
    expect(listed.records[0]).toEqual(record)
    // Seeded once, not again at the restart.
    expect(listed.total).toBe(3)
    // Ids continue after the restart instead of colliding.
    const next = await json(await simulate(second, { caller: '+919800000002' }))
    expect(next.record.id).not.toBe(record.id)
    await reader.close()
    await second.close()
  })
})
