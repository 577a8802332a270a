import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { tempDir } from '../../helpers/temp-dir'

const JSON_TYPE = { 'content-type': 'application/json' }

const KEY = 'k-sandbox-test'
const TOKEN = 't-sandbox-test'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ apiKey: KEY, activityToken: TOKEN })
})

afterEach(async () => {
  await fetch(`${sb.info.controlUrl}reset`, { method: 'POST' })
})

afterAll(async () => {
  await sb.close()
})

const sms = (over: Record<string, unknown> = {}) => ({
  route: 'T1',
  senderi_d: 'LOGX',
  message_format: 'groups',
  message_type: 'Text',
  numbers: [15550100],
  sms: 'hello',
  template_id: '',
  smstype: 'flash',
  schedule_time: '',
  ...over,
})

function api(query: string, init: { method?: string; body?: unknown; key?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = {}
  if (init.key !== null) headers['apikey'] = init.key ?? KEY
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  return fetch(`${sb.info.baseUrl}/api/v1/?${query}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  })
}

function control(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(`${sb.info.controlUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
}

// Test bodies are checked by shape, so they are read as any.
const json = (res: Response): Promise<any> => res.json()

describe('routes and auth', () => {
  it('serves its URLs at /_sandbox/info', async () => {
    const info = await json(await control('info'))
    expect(info).toMatchObject({
      baseUrl: sb.info.baseUrl,
      leadWebhookUrl: `${sb.info.baseUrl}/webhooks/lead/sandbox`,
      activityWebhookUrl: `${sb.info.baseUrl}/webhooks/activity`,
      inboxUrl: `${sb.info.baseUrl}/`,
    })
    expect(sb.info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('answers 401 without apikey or with a wrong one, and does not echo it', async () => {
    const none = await api('apirequest=sms_record', { key: null })
    expect(none.status).toBe(401)
    const wrong = await api('apirequest=sms_record', { key: 'guess-123' })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).not.toContain('guess-123')
  })

  it('answers 400 naming the field for bad bodies, bad JSON and unknown operations', async () => {
    const res = await api('apirequest=send_sms', { body: sms({ numbers: [], sms: '' }) })
    expect(res.status).toBe(400)
    const body = await json(res)
    expect(body).toMatchObject({ status: 'error', field: 'numbers' })
    expect(body.problems.map((p: { field: string }) => p.field)).toEqual(['numbers', 'sms'])
    expect(await json(await api('apirequest=send_sms', { body: '{oops' }))).toMatchObject({ field: '(body)' })
    expect(await json(await api('apirequest=nope'))).toMatchObject({ field: 'apirequest' })
    expect(await json(await api('apirequest=sms_record&per_page=0'))).toMatchObject({ field: 'per_page' })
    expect(await json(await api('apirequest=social_search&page=1'))).toMatchObject({ field: 'keyword' })
    expect((await api('apirequest=sms_record', { method: 'POST', body: {} })).status).toBe(405)
  })

  it('answers 413 to a body over 1 MiB instead of resetting the connection', async () => {
    const res = await api('apirequest=send_sms', { body: sms({ sms: 'x'.repeat(2 * 1024 * 1024) }) })
    expect(res.status).toBe(413)
    expect(await json(res)).toMatchObject({ field: '(body)' })
    // The connection stays usable for the next request.
    expect((await api('apirequest=send_sms', { body: sms() })).status).toBe(200)
  })

  it('accepts chat sends on /api/v1/waba.php', async () => {
    const res = await fetch(`${sb.info.baseUrl}/api/v1/waba.php`, {
      method: 'POST',
      headers: { apikey: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ template_id: 4, number: '+15550100', variable: ['a'], attachment: '' }),
    })
    expect(await json(res)).toMatchObject({ status: 'success', data: { id: expect.stringMatching(/^chat-/) } })
  })

  it('pages records newest first; limit caps the listing', async () => {
    for (let i = 1; i <= 7; i++) await api('apirequest=send_sms', { body: sms({ sms: `m${i}` }) })
    const p2 = await json(await api('apirequest=sms_record&per_page=3&page=2'))
    expect(p2).toMatchObject({ status: 'success', page: 2, per_page: 3, total: 7 })
    expect(p2.data.map((r: { sms: string }) => r.sms)).toEqual(['m4', 'm3', 'm2'])
    const limited = await json(await api('apirequest=sms_record&per_page=3&page=2&limit=4'))
    expect(limited).toMatchObject({ total: 4 })
    expect(limited.data.map((r: { sms: string }) => r.sms)).toEqual(['m4'])
  })
})

describe('webhooks', () => {
  it('creates a lead with { success, lead_id } and checks the account segment', async () => {
    const res = await fetch(sb.info.leadWebhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'db-1 outage', phone: '+15550100' }),
    })
    expect(res.status).toBe(200)
    expect(await json(res)).toEqual({ success: true, lead_id: expect.stringMatching(/^\d+$/) })
    const other = await fetch(`${sb.info.baseUrl}/webhooks/lead/someone-else`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{"name":"x"}',
    })
    expect(other.status).toBe(404)
    const bad = await fetch(sb.info.leadWebhookUrl, { method: 'POST', headers: JSON_TYPE, body: '{"email":"a@b.c"}' })
    expect(bad.status).toBe(400)
    expect(await json(bad)).toMatchObject({ success: false, field: 'name' })
  })

  it('takes activities with X-O-TOKEN only, answering with no body', async () => {
    const lead = await json(
      await fetch(sb.info.leadWebhookUrl, { method: 'POST', headers: JSON_TYPE, body: '{"name":"x"}' }),
    )
    const body = JSON.stringify({
      lead_id: Number(lead.lead_id),
      activities: [{ title: 'paged', activity_date: 1_700_000_000, activity_type: 'NOTE' }],
    })
    const post = (token?: string) =>
      fetch(sb.info.activityWebhookUrl, {
        method: 'POST',
        headers:
          token === undefined
            ? { 'content-type': 'application/json' }
            : { 'content-type': 'application/json', 'x-o-token': token },
        body,
      })
    expect((await post()).status).toBe(401)
    expect((await post('wrong')).status).toBe(401)
    const ok = await post(TOKEN)
    expect(ok.status).toBe(200)
    expect(await ok.text()).toBe('')
    const badType = await fetch(sb.info.activityWebhookUrl, {
      method: 'POST',
      headers: { ...JSON_TYPE, 'x-o-token': TOKEN },
      body: JSON.stringify({ lead_id: 1, activities: [{ title: 't', activity_date: 1, activity_type: 'LUNCH' }] }),
    })
    expect(await json(badType)).toMatchObject({ field: 'activities[0].activity_type' })
  })

  it('records an Idempotency-Key on the lead and on each activity, and stores a repeat of it again', async () => {
    const createLead = (headers: Record<string, string>) =>
      fetch(sb.info.leadWebhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"name":"db-1 outage"}',
      })
    const first = await json(await createLead({ 'idempotency-key': 'item-7:lead' }))
    // The same key again: a resend. The sandbox does not know what the real service does with it,
    // so it records both rather than assume a dedupe.
    const again = await json(await createLead({ 'idempotency-key': 'item-7:lead' }))
    await createLead({})
    expect(again.lead_id).not.toBe(first.lead_id)
    const activities = await fetch(sb.info.activityWebhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-o-token': TOKEN, 'idempotency-key': 'item-7:activity' },
      body: JSON.stringify({
        lead_id: Number(first.lead_id),
        activities: [
          { title: 'fired', activity_date: 1_700_000_000, activity_type: 'NOTE' },
          { title: 'paged', activity_date: 1_700_000_001, activity_type: 'MESSAGE' },
        ],
      }),
    })
    expect(activities.status).toBe(200)
    const listed = await json(await fetch(`${sb.info.controlUrl}records?kind=lead,activity`))
    const byKind = (kind: string) =>
      (listed.records as { seq: number; kind: string; record: Record<string, unknown> }[])
        .filter((r) => r.kind === kind)
        .sort((x, y) => x.seq - y.seq)
        .map((r) => r.record)
    expect(byKind('lead').map((r) => r.idempotency_key)).toEqual(['item-7:lead', 'item-7:lead', undefined])
    expect(byKind('lead')[2]).not.toHaveProperty('idempotency_key')
    expect(byKind('activity').map((r) => [r.title, r.idempotency_key])).toEqual([
      ['fired', 'item-7:activity'],
      ['paged', 'item-7:activity'],
    ])
  })
})

describe('control API', () => {
  it('adds, lists, validates and removes faults at run time', async () => {
    const added = await json(await control('faults', 'POST', { kind: 'error', status: 503, route: 'sms_record' }))
    expect(added.fault.id).toBeTruthy()
    expect((await api('apirequest=sms_record')).status).toBe(503)
    expect((await api('apirequest=mail_record')).status).toBe(200)
    expect((await json(await control('faults'))).faults).toHaveLength(1)
    const bad = await control('faults', 'POST', { kind: 'error', status: 200 })
    expect(bad.status).toBe(400)
    expect(await json(bad)).toMatchObject({ field: 'fault.status' })
    expect((await control(`faults/${added.fault.id}`, 'DELETE')).status).toBe(200)
    expect((await api('apirequest=sms_record')).status).toBe(200)
  })

  it('replaces the fault list; rate-limit sends Retry-After; times expires a rule', async () => {
    await control('faults', 'PUT', { faults: [{ kind: 'rate-limit', retryAfterSeconds: 7, times: 1 }] })
    const limited = await api('apirequest=sms_record')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect((await api('apirequest=sms_record')).status).toBe(200)
  })

  it('drops connections and garbles bodies on demand', async () => {
    await control('faults', 'PUT', [{ kind: 'drop', route: 'sms_record', times: 1 }])
    await expect(api('apirequest=sms_record')).rejects.toThrow()
    await control('faults', 'PUT', [{ kind: 'malformed', body: 'truncated-json', route: 'sms_record', times: 1 }])
    const garbled = await api('apirequest=sms_record')
    expect(garbled.status).toBe(200)
    await expect(json(garbled)).rejects.toThrow()
  })

  it('seeds lookup records and resets to the defaults', async () => {
    const seeded = await control('seed', 'POST', { kind: 'missed', records: [{ caller: '1', called: '2' }] })
    expect(await json(seeded)).toEqual({ added: 1 })
    const missed = await json(await api('apirequest=missed_record'))
    expect(missed.data[0]).toMatchObject({ caller: '1', called: '2' })
    expect((await control('seed', 'POST', { kind: 'nope', records: [] })).status).toBe(400)
    await api('apirequest=send_sms', { body: sms() })
    await control('faults', 'POST', { kind: 'latency', ms: 1 })
    await control('reset', 'POST')
    expect((await json(await api('apirequest=sms_record'))).total).toBe(0)
    expect((await json(await control('faults'))).faults).toEqual([])
    expect((await json(await api('apirequest=get_instance_id'))).total).toBe(1)
  })

  it('streams new inbox records as server-sent events', async () => {
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
    await api('apirequest=send_sms', { body: sms({ sms: 'live one' }) })
    await readUntil('live one')
    expect(text).toMatch(/event: record\ndata: \{"seq":\d+,"kind":"sms"/)
    controller.abort()
  })
})

describe('storage', () => {
  it('keeps records in a data directory across restarts, tolerating a torn last line', async () => {
    const dir = tempDir('sandbox')
    const first = await startSandbox({ dataDir: dir })
    const headers = { apikey: first.apiKey, 'content-type': 'application/json' }
    await fetch(`${first.info.apiUrl}?apirequest=send_sms`, {
      method: 'POST',
      headers,
      body: JSON.stringify(sms({ sms: 'kept' })),
    })
    const lead = await json(
      await fetch(first.info.leadWebhookUrl, { method: 'POST', headers: JSON_TYPE, body: '{"name":"kept lead"}' }),
    )
    await first.close()
    appendFileSync(join(dir, 'records.jsonl'), '{"seq": 99, "kind": "sms", "rec')

    const second = await startSandbox({ dataDir: dir })
    const list = await json(await fetch(`${second.info.apiUrl}?apirequest=sms_record`, { headers }))
    expect(list.data.map((r: { sms: string }) => r.sms)).toEqual(['kept'])
    expect(second.store.count('instance')).toBe(1)
    // Lead ids continue after a restart instead of colliding.
    const next = await json(
      await fetch(second.info.leadWebhookUrl, { method: 'POST', headers: JSON_TYPE, body: '{"name":"n"}' }),
    )
    expect(Number(next.lead_id)).toBeGreaterThan(Number(lead.lead_id))
    await second.close()
    expect(readFileSync(join(dir, 'records.jsonl'), 'utf8')).toContain('kept lead')
  })

  it('caps records per kind at the retention limit, oldest first out', async () => {
    const small = await startSandbox({ retention: 3 })
    const headers = { apikey: small.apiKey, 'content-type': 'application/json' }
    for (let i = 1; i <= 5; i++) {
      await fetch(`${small.info.apiUrl}?apirequest=send_sms`, {
        method: 'POST',
        headers,
        body: JSON.stringify(sms({ sms: `r${i}` })),
      })
    }
    const list = await json(await fetch(`${small.info.apiUrl}?apirequest=sms_record`, { headers }))
    expect(list.data.map((r: { sms: string }) => r.sms)).toEqual(['r5', 'r4', 'r3'])
    await small.close()
  })

  it('rejects bad options naming them', async () => {
    await expect(startSandbox({ retention: 0 })).rejects.toMatchObject({
      code: 'LOGX_SANDBOX_ERR_INVALID_OPTION',
      path: 'retention',
    })
    await expect(startSandbox({ faults: [{ kind: 'boom' }] })).rejects.toMatchObject({ path: 'faults[0].kind' })
  })
})
