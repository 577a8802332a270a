import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  createLeadWebhookClient,
  createMessagingClient,
  MessagingAbortedError,
  MessagingApiError,
  MessagingAuthError,
  MessagingErrorCodes,
  MessagingMalformedResponseError,
  MessagingNetworkError,
  MessagingRateLimitError,
  MessagingRejectedError,
  MessagingRequestError,
  MessagingServerError,
  MessagingTimeoutError,
  MessagingValidationError,
  type DebugEvent,
  type MessagingClient,
} from '../../../agent/messaging'
import { startSandbox, type Fault, type Sandbox } from '../../../agent/sandbox'
import { caught } from './helpers'

const API_KEY = 'sk-live-9f8e7d6c5b4a'
const TOKEN = 'tok-3a2b1c0d'

let sandbox: Sandbox
let client: MessagingClient

async function faults(...list: Fault[]): Promise<void> {
  sandbox.faults.replace(list)
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, activityToken: TOKEN })
  client = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: API_KEY, timeoutMs: 5000 })
})

afterEach(() => {
  sandbox.faults.clear()
})

afterAll(async () => {
  await client.close()
  await sandbox.close()
})

describe('every operation against the sandbox', () => {
  it('sends an SMS (scheduled too) and lists it back', async () => {
    const now = await client.sendSms({ numbers: ['+1 555 0100'], text: 'disk full on db-1', senderId: 'LOGX' })
    expect(now.id).toMatch(/^sms-/)
    expect(now.status).toBe('delivered')
    const later = await client.sendSms({
      numbers: [15550101],
      text: 'maintenance',
      scheduleTime: '2030-01-01 10:00:00',
    })
    expect(later.status).toBe('scheduled')
    const page = await client.listSmsRecords({ perPage: 10 })
    expect(page.records[0]).toMatchObject({ id: later.id, schedule_time: '2030-01-01 10:00:00', numbers: [15550101] })
    expect(page.records[1]).toMatchObject({
      id: now.id,
      senderi_d: 'LOGX',
      numbers: [15550100],
      sms: 'disk full on db-1',
    })
  })

  it('sends e-mail, chat and a voice broadcast and lists each back', async () => {
    const mail = await client.sendMail({
      from: 'alerts@logx.dev',
      to: 'ops@example.com',
      subject: 'Down',
      message: '<b>api</b> down',
    })
    const chat = await client.sendChat({ templateId: 7, number: '+15550100', variables: ['api', 'down'] })
    const voice = await client.voiceBroadcast({
      receivers: [{ label: 'ops', number: '+15550100' }],
      audioFiles: ['alert.mp3'],
    })
    expect((await client.listMailRecords()).records[0]).toMatchObject({
      id: mail.id,
      to: ['ops@example.com'],
      subject: 'Down',
    })
    expect((await client.listChatRecords()).records[0]).toMatchObject({
      id: chat.id,
      template_id: 7,
      variable: ['api', 'down'],
    })
    expect((await client.listObdRecords()).records[0]).toMatchObject({
      id: voice.id,
      receiver: '[["ops","+15550100"]]',
    })
  })

  it('reads instance ids, chat groups with and without a body, and missed calls', async () => {
    const instances = await client.listInstanceIds()
    const instanceId = instances.records[0]?.instance_id ?? ''
    expect(instanceId).not.toBe('')
    const all = await client.getChatGroups({ instanceId })
    expect(all.length).toBe(2)
    const filtered = await client.getChatGroups({ instanceId, body: { name: 'bridge' } })
    expect(filtered.map((g) => g.name)).toEqual(['Incident bridge'])
    const missed = await client.listMissedCallRecords()
    expect(missed.records.length).toBeGreaterThan(0)
    expect(missed.records[0]).toHaveProperty('caller')
  })

  it('searches profiles page by page and records the searches', async () => {
    const first = await client.searchProfiles({ keyword: 'acme corp', perPage: 20 })
    expect(first.records).toHaveLength(20)
    expect(first.hasMore).toBe(true)
    const all: string[] = []
    for await (const p of client.iterateProfileSearch({ keyword: 'acme corp', perPage: 20 })) all.push(p.id)
    expect(all).toHaveLength(45)
    expect(new Set(all).size).toBe(45)
    const records = await client.listProfileSearchRecords({ perPage: 5 })
    expect(records.records[0]).toMatchObject({ keyword: 'acme corp' })
  })

  it('creates a lead and adds activities through the webhooks', async () => {
    const hooks = createLeadWebhookClient({
      leadWebhookUrl: sandbox.info.leadWebhookUrl,
      activityWebhookUrl: sandbox.info.activityWebhookUrl,
      activityToken: TOKEN,
    })
    try {
      const lead = await hooks.createLead({
        name: 'api-gateway incident',
        email: 'oncall@example.com',
        otherFields: { service: 'api' },
      })
      expect(lead.leadId).toMatch(/^\d+$/)
      await hooks.addActivities({
        leadId: lead.leadId,
        activities: [
          { title: 'SMS sent', date: new Date(), type: 'MESSAGE', notes: 'to +15550100' },
          { title: 'Call placed', date: 1_800_000_000, type: 'PHONECALL' },
        ],
      })
      const activities = sandbox.store.all('activity').map((e) => e.record)
      expect(activities.slice(-2)).toMatchObject([
        { lead_id: Number(lead.leadId), title: 'SMS sent', activity_type: 'MESSAGE' },
        { lead_id: Number(lead.leadId), title: 'Call placed', activity_date: 1_800_000_000 },
      ])
    } finally {
      await hooks.close()
    }
  })

  it("sends the caller's Idempotency-Key on lead and activity calls, and none when not given", async () => {
    const hooks = createLeadWebhookClient({
      leadWebhookUrl: sandbox.info.leadWebhookUrl,
      activityWebhookUrl: sandbox.info.activityWebhookUrl,
      activityToken: TOKEN,
    })
    try {
      const keyed = await hooks.createLead({ name: 'keyed incident' }, { idempotencyKey: 'item-42:lead' })
      await hooks.addActivities(
        { leadId: keyed.leadId, activities: [{ title: 'fired', date: 1_800_000_000, type: 'NOTE' }] },
        { idempotencyKey: 'item-42:activity' },
      )
      const plain = await hooks.createLead({ name: 'unkeyed incident' })
      await hooks.addActivities({
        leadId: plain.leadId,
        activities: [{ title: 'fired', date: 1_800_000_000, type: 'NOTE' }],
      })
      const leadOf = (id: string) => sandbox.store.all('lead').find((e) => e.record['lead_id'] === id)?.record
      const activityOf = (id: string) =>
        sandbox.store.all('activity').find((e) => String(e.record['lead_id']) === id)?.record
      expect(leadOf(keyed.leadId)).toMatchObject({ name: 'keyed incident', idempotency_key: 'item-42:lead' })
      expect(activityOf(keyed.leadId)).toMatchObject({ title: 'fired', idempotency_key: 'item-42:activity' })
      expect(leadOf(plain.leadId)).not.toHaveProperty('idempotency_key')
      expect(activityOf(plain.leadId)).not.toHaveProperty('idempotency_key')
    } finally {
      await hooks.close()
    }
  })
})

describe('paging', () => {
  it('iterates every record newest first across pages, and passes limit through', async () => {
    await fetch(`${sandbox.info.controlUrl}reset`, { method: 'POST' })
    for (let i = 0; i < 23; i++) await client.sendSms({ numbers: [15550100 + i], text: `page test ${i}` })
    const seen: string[] = []
    for await (const r of client.iterateSmsRecords({ perPage: 5 })) seen.push(r.sms)
    expect(seen).toHaveLength(23)
    expect(seen[0]).toBe('page test 22')
    expect(seen[22]).toBe('page test 0')
    const third = await client.listSmsRecords({ perPage: 5, page: 3 })
    expect(third).toMatchObject({ page: 3, perPage: 5, total: 23, hasMore: true })
    expect(third.records.map((r) => r.sms)).toEqual([
      'page test 12',
      'page test 11',
      'page test 10',
      'page test 9',
      'page test 8',
    ])
    const limited: string[] = []
    for await (const r of client.iterateSmsRecords({ perPage: 4, limit: 6 })) limited.push(r.sms)
    expect(limited).toHaveLength(6)
  })

  it('stops an iterator early without fetching further pages', async () => {
    let n = 0
    for await (const _ of client.iterateSmsRecords({ perPage: 2 })) if (++n === 3) break
    expect(n).toBe(3)
  })
})

describe('error classes', () => {
  it('401 for a wrong key is a permanent auth error', async () => {
    const wrong = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: 'not-the-key' })
    const err = await caught(wrong.sendSms({ numbers: [1], text: 'x' }))
    await wrong.close()
    expect(err).toBeInstanceOf(MessagingAuthError)
    expect(err).toMatchObject({
      code: MessagingErrorCodes.UNAUTHORIZED,
      status: 401,
      operation: 'send_sms',
      recoverable: false,
      attempts: 1,
    })
    expect(err.rawBody).toContain('invalid apikey')
  })

  it.each([
    [400, MessagingRequestError, MessagingErrorCodes.BAD_REQUEST],
    [403, MessagingAuthError, MessagingErrorCodes.FORBIDDEN],
    [404, MessagingRequestError, MessagingErrorCodes.NOT_FOUND],
    [409, MessagingRequestError, MessagingErrorCodes.CLIENT_STATUS],
  ])('%i is permanent and not retried', async (status, cls, code) => {
    await faults({ kind: 'error', status })
    const err = await caught(client.listSmsRecords())
    expect(err).toBeInstanceOf(cls)
    expect(err).toMatchObject({ code, status, recoverable: false, attempts: 1 })
  })

  it('validation errors name the field and send nothing', async () => {
    const before = sandbox.store.count('sms')
    const err = await caught(client.sendSms({ numbers: [], text: 'x' }))
    expect(err).toBeInstanceOf(MessagingValidationError)
    expect(err).toMatchObject({ code: MessagingErrorCodes.VALIDATION, field: 'numbers', attempts: 0 })
    expect(sandbox.store.count('sms')).toBe(before)
    const hooks = createLeadWebhookClient({
      leadWebhookUrl: sandbox.info.leadWebhookUrl,
      activityWebhookUrl: sandbox.info.activityWebhookUrl,
      activityToken: TOKEN,
    })
    expect(await caught(hooks.createLead({ name: '' }))).toMatchObject({ field: 'name' })
    expect(
      await caught(
        hooks.addActivities({ leadId: 1001, activities: [{ title: 't', date: 1, type: 'LUNCH' as never }] }),
      ),
    ).toMatchObject({
      field: 'activities[0].activity_type',
    })
    await hooks.close()
  })

  it('a 404 from the activity webhook for an unknown lead names lead_id', async () => {
    const hooks = createLeadWebhookClient({ activityWebhookUrl: sandbox.info.activityWebhookUrl, activityToken: TOKEN })
    const err = await caught(
      hooks.addActivities({ leadId: 999999, activities: [{ title: 't', date: 1, type: 'NOTE' }] }),
    )
    await hooks.close()
    expect(err).toMatchObject({ code: MessagingErrorCodes.NOT_FOUND, status: 404, field: 'lead_id' })
  })

  it('a 200 carrying an error field is rejected, permanently', async () => {
    await faults({ kind: 'malformed', body: 'error-field', route: 'send_sms' })
    const err = await caught(client.sendSms({ numbers: [1], text: 'x' }))
    expect(err).toBeInstanceOf(MessagingRejectedError)
    expect(err).toMatchObject({ status: 200, recoverable: false, attempts: 1 })
    expect(err.message).toContain('provider rejected')
  })

  it('a truncated JSON or HTML 200 is malformed, recoverable and ambiguous, and is not repeated by the client', async () => {
    await faults({ kind: 'malformed', body: 'truncated-json', route: 'send_sms' })
    const before = sandbox.store.count('sms')
    const err = await caught(client.sendSms({ numbers: [1], text: 'x' }))
    expect(err).toBeInstanceOf(MessagingMalformedResponseError)
    expect(err).toMatchObject({ recoverable: true, ambiguous: true, attempts: 1 })
    expect(err.rawBody).toBe('{"status":"success","data":{"id":"')
    expect(sandbox.store.count('sms')).toBe(before + 1)
    // A read too: one failure, handed back; asking again is the caller's call, and then it works.
    await faults({ kind: 'malformed', body: 'html', route: 'mail_record', times: 1 })
    expect(await caught(client.listMailRecords())).toMatchObject({
      code: MessagingErrorCodes.MALFORMED_RESPONSE,
      recoverable: true,
      attempts: 1,
    })
    expect(sandbox.faults.list()).toEqual([])
    expect(Array.isArray((await client.listMailRecords()).records)).toBe(true)
  })

  it('a listing without records is malformed; an unknown instance is not found; bad paging is caught early', async () => {
    await faults({ kind: 'malformed', body: 'empty-json', route: 'obd_record' })
    const empty = await caught(client.listObdRecords())
    expect(empty).toBeInstanceOf(MessagingMalformedResponseError)
    expect(empty).toMatchObject({ operation: 'obd_record', recoverable: true, attempts: 1 })
    const missing = await caught(client.getChatGroups({ instanceId: 'no-such-instance' }))
    expect(missing).toMatchObject({ code: MessagingErrorCodes.NOT_FOUND, field: 'instance_id' })
    const iterator = client.iterateSmsRecords({ perPage: 500 })
    expect(await caught(iterator.next())).toMatchObject({ code: MessagingErrorCodes.VALIDATION, field: 'per_page' })
  })

  it('5xx is one recoverable failure: reported at once, not retried, and seen by the debug hook', async () => {
    await faults({ kind: 'error', status: 500, route: 'sms_record', times: 2 })
    const events: DebugEvent[] = []
    const c = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: API_KEY, onDebug: (e) => events.push(e) })
    const err = await caught(c.listSmsRecords())
    await c.close()
    expect(err).toBeInstanceOf(MessagingServerError)
    expect(err).toMatchObject({ code: MessagingErrorCodes.SERVER, status: 500, recoverable: true, attempts: 1 })
    // One request went out: the fault has one of its two firings left.
    expect(sandbox.faults.list()).toMatchObject([{ times: 1 }])
    expect(events.map((e) => e.type)).toEqual(['request', 'response', 'failure'])
    expect(events[2]).toMatchObject({
      type: 'failure',
      code: MessagingErrorCodes.SERVER,
      recoverable: true,
      retryAfterMs: undefined,
    })
  })

  it('a 500 after a send is ambiguous: the far end may have acted', async () => {
    await faults({ kind: 'error', status: 500, route: 'send_sms', times: 1 })
    const err = await caught(client.sendSms({ numbers: [1], text: 'x' }))
    expect(err).toBeInstanceOf(MessagingServerError)
    expect(err).toMatchObject({ status: 500, recoverable: true, ambiguous: true, attempts: 1 })
  })

  it('503 means "not processed": recoverable and not ambiguous, with its Retry-After when sent', async () => {
    await faults({ kind: 'error', status: 503, route: 'send_sms', times: 2 })
    const err = await caught(client.sendSms({ numbers: [1], text: 'x' }))
    expect(err).toMatchObject({
      code: MessagingErrorCodes.SERVER,
      status: 503,
      recoverable: true,
      ambiguous: false,
      attempts: 1,
    })
    expect(sandbox.faults.list()).toMatchObject([{ times: 1 }])
  })

  it('429 reports its Retry-After to the caller and does not wait it out', async () => {
    await faults({ kind: 'rate-limit', retryAfterSeconds: 120, route: 'send_sms', times: 1 })
    const c = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: API_KEY })
    const before = sandbox.store.count('sms')
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    expect(err).toBeInstanceOf(MessagingRateLimitError)
    expect(err).toMatchObject({ status: 429, retryAfterMs: 120_000, recoverable: true, ambiguous: false, attempts: 1 })
    expect(sandbox.faults.list()).toEqual([])

    // Until the wait is over, this client sends that operation nothing, whoever calls: the error
    // says how long is left. Other operations are not held.
    const held = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    expect(held).toBeInstanceOf(MessagingRateLimitError)
    expect(held).toMatchObject({
      code: MessagingErrorCodes.RETRY_AFTER,
      recoverable: true,
      ambiguous: false,
      attempts: 0,
    })
    expect(held.retryAfterMs).toBeGreaterThan(0)
    expect(held.retryAfterMs).toBeLessThanOrEqual(120_000)
    expect(sandbox.store.count('sms')).toBe(before)
    expect((await c.sendMail({ from: 'a@b.c', to: 'd@e.f', subject: 's', message: 'm' })).status).toBe('delivered')
    await c.close()
  })

  it('a Retry-After that has passed holds nothing back', async () => {
    await faults({ kind: 'rate-limit', retryAfterSeconds: 0, route: 'send_sms', times: 1 })
    const c = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: API_KEY })
    expect(await caught(c.sendSms({ numbers: [1], text: 'x' }))).toMatchObject({
      code: MessagingErrorCodes.RATE_LIMITED,
      retryAfterMs: 0,
    })
    expect((await c.sendSms({ numbers: [1], text: 'x' })).status).toBe('delivered')
    await c.close()
  })
})

describe('paging, when a page fails', () => {
  it('a failed page ends the iteration with that one failure and its Retry-After; earlier pages were yielded', async () => {
    await fetch(`${sandbox.info.controlUrl}reset`, { method: 'POST' })
    for (let i = 0; i < 5; i++) await client.sendSms({ numbers: [15550100 + i], text: `failing page ${i}` })
    const c = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: API_KEY })
    const iterator = c.iterateSmsRecords({ perPage: 2 })
    const first = [await iterator.next(), await iterator.next()]
    expect(first.map((r) => !r.done && r.value.sms)).toEqual(['failing page 4', 'failing page 3'])
    // The next record needs page 2, which the server refuses once.
    await faults({ kind: 'rate-limit', retryAfterSeconds: 2, route: 'sms_record', times: 1 })
    const err = await caught(iterator.next())
    expect(err).toMatchObject({
      code: MessagingErrorCodes.RATE_LIMITED,
      retryAfterMs: 2000,
      recoverable: true,
      attempts: 1,
    })
    expect(sandbox.faults.list()).toEqual([])
    expect((await iterator.next()).done).toBe(true)
    await c.close()
    // Starting again from the failed page (once the wait is over: here, another client) picks up where it stopped.
    const rest: string[] = []
    for await (const r of client.iterateSmsRecords({ perPage: 2, page: 2 })) rest.push(r.sms)
    expect(rest).toEqual(['failing page 2', 'failing page 1', 'failing page 0'])
  })
})

describe('network failures, timeouts, cancellation', () => {
  it('a dropped connection is one recoverable network error, for a read too', async () => {
    await faults({ kind: 'drop', route: 'chat_record', times: 1 })
    const err = await caught(client.listChatRecords())
    expect(err).toBeInstanceOf(MessagingNetworkError)
    expect(err).toMatchObject({ recoverable: true, attempts: 1 })
    expect(Array.isArray((await client.listChatRecords()).records)).toBe(true)
  })

  it('a drop after the send was stored is ambiguous: reported once, stored once', async () => {
    await faults({ kind: 'drop', phase: 'after', route: 'send_sms', times: 1 })
    const before = sandbox.store.count('sms')
    const err = await caught(client.sendSms({ numbers: [1], text: 'dropped' }))
    expect(err).toBeInstanceOf(MessagingNetworkError)
    expect(err).toMatchObject({ recoverable: true, ambiguous: true, attempts: 1 })
    expect(sandbox.store.count('sms')).toBe(before + 1)
  })

  it('connection refused is recoverable and not ambiguous: the request never left', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    const c = createMessagingClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingNetworkError)
    expect(err).toMatchObject({ ambiguous: false, recoverable: true, attempts: 1 })
    expect(err.message).toContain('ECONNREFUSED')
  })

  it('times out once, per call', async () => {
    await faults({ kind: 'latency', ms: 1000, route: 'sms_record' })
    const err = await caught(client.listSmsRecords({}, { timeoutMs: 50 }))
    expect(err).toBeInstanceOf(MessagingTimeoutError)
    expect(err).toMatchObject({ code: MessagingErrorCodes.TIMEOUT, recoverable: true, attempts: 1 })
  })

  it('an AbortSignal cancels the call; one already aborted sends nothing', async () => {
    await faults({ kind: 'latency', ms: 1000, route: 'send_mail' })
    const controller = new AbortController()
    const c = createMessagingClient({
      baseUrl: sandbox.info.baseUrl,
      apiKey: API_KEY,
      onDebug: (e) => {
        if (e.type === 'request') controller.abort()
      },
    })
    const err = await caught(
      c.sendMail({ from: 'a@b.c', to: 'd@e.f', subject: 's', message: 'm' }, { signal: controller.signal }),
    )
    expect(err).toBeInstanceOf(MessagingAbortedError)
    expect(err).toMatchObject({ recoverable: false, ambiguous: true, attempts: 1 })

    const before = sandbox.store.count('sms')
    const early = await caught(c.sendSms({ numbers: [1], text: 'x' }, { signal: AbortSignal.abort() }))
    expect(early).toBeInstanceOf(MessagingAbortedError)
    expect(early).toMatchObject({ recoverable: false, attempts: 0 })
    expect(sandbox.store.count('sms')).toBe(before)
    await c.close()
  })
})

describe('wire details and secret hygiene', () => {
  let echo: Server
  let echoUrl: string
  const seen: { headers: IncomingHttpHeaders; port: number | undefined; url: string; body: string }[] = []
  let reply: { status: number; type: string; body: string } = { status: 200, type: 'text/plain', body: 'OK' }

  beforeAll(async () => {
    echo = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        seen.push({ headers: req.headers, port: req.socket.remotePort, url: req.url ?? '', body })
        // A careless server echoing credentials back in its error body.
        const text = reply.body
          .replace('$KEY', String(req.headers['apikey']))
          .replace('$TOKEN', String(req.headers['x-o-token']))
        res.writeHead(reply.status, { 'content-type': reply.type })
        res.end(text)
      })
    })
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r))
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    echo.closeAllConnections()
    await new Promise<void>((r) => echo.close(() => r()))
  })

  it('sends apikey, User-Agent logx/<version>, spec field names, and reuses the connection', async () => {
    seen.length = 0
    reply = { status: 200, type: 'text/plain', body: 'OK' }
    // One socket per origin makes reuse observable: every call must arrive on the same connection.
    const c = createMessagingClient({ baseUrl: `${echoUrl}/prefix`, apiKey: API_KEY, connections: 1 })
    const r = await c.sendSms({ numbers: [15550100], text: 'hi', senderId: 'LOGX' })
    await c.sendChat({ templateId: 3, number: '+15550100' })
    for (let i = 0; i < 4; i++) await c.listSmsRecords().catch(() => undefined)
    await c.close()
    expect(r).toMatchObject({ id: undefined, body: { type: 'text', value: 'OK' } })
    expect(seen[0]?.headers['apikey']).toBe(API_KEY)
    expect(seen[0]?.headers['user-agent']).toMatch(/^logx\/\d+\.\d+\.\d+/)
    expect(seen[0]?.url).toBe('/prefix/api/v1/?apirequest=send_sms')
    expect(JSON.parse(seen[0]?.body ?? '{}')).toHaveProperty('senderi_d', 'LOGX')
    expect(seen[1]?.url).toBe('/prefix/api/v1/waba.php')
    expect(seen).toHaveLength(6)
    expect(new Set(seen.map((s) => s.port)).size).toBe(1)
  })

  it('a text 200 that reads as an error is rejected', async () => {
    reply = { status: 200, type: 'text/plain', body: 'ERROR: invalid number' }
    const c = createMessagingClient({ baseUrl: echoUrl, apiKey: API_KEY })
    const err = await caught(c.sendSms({ numbers: [1], text: 'x' }))
    await c.close()
    expect(err).toBeInstanceOf(MessagingRejectedError)
    expect(err.message).toContain('ERROR: invalid number')
  })

  it('never lets the key, the token or the lead webhook path out: messages, raw bodies, debug events', async () => {
    reply = { status: 401, type: 'text/plain', body: 'bad key $KEY / token $TOKEN' }
    const events: DebugEvent[] = []
    const onDebug = (e: DebugEvent): void => {
      events.push(e)
    }
    const c = createMessagingClient({ baseUrl: echoUrl, apiKey: API_KEY, onDebug })
    const hooks = createLeadWebhookClient({
      leadWebhookUrl: `${echoUrl}/hooks/acct-77f3e1c9a`,
      activityWebhookUrl: `${echoUrl}/activity`,
      activityToken: TOKEN,
      onDebug,
    })
    seen.length = 0
    // An Idempotency-Key is no secret, but sending one must not open a way out for those that are.
    const errors = [
      await caught(c.sendSms({ numbers: [1], text: 'x' })),
      await caught(
        hooks.addActivities(
          { leadId: 1, activities: [{ title: 't', date: 1, type: 'NOTE' }] },
          { idempotencyKey: 'item-9:activity' },
        ),
      ),
      await caught(hooks.createLead({ name: 'n' }, { idempotencyKey: 'item-9:lead' })),
    ]
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual([undefined, 'item-9:activity', 'item-9:lead'])
    reply = { status: 200, type: 'text/html', body: '<html>$KEY</html>' }
    errors.push(await caught(c.listSmsRecords()))
    await c.close()
    await hooks.close()
    const everything = JSON.stringify([
      events,
      errors.map((e) => [e.message, e.rawBody, e.stack, String(e), JSON.stringify(e)]),
    ])
    expect(everything).not.toContain(API_KEY)
    expect(everything).not.toContain(TOKEN)
    expect(everything).not.toContain('acct-77f3e1c9a')
    expect(everything).toContain('[redacted]')
    expect(errors[0]?.rawBody).toBe('bad key [redacted] / token undefined')
  })
})
