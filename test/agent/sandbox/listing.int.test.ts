// The `*_record` listings served from the listing cache, over HTTP: the same bytes as the page
// object would serialize to, and never a stale page after the store changes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type StoredKind } from '../../../agent/sandbox'

const KEY = 'k-listing-test'
let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ apiKey: KEY })
})

afterEach(async () => {
  await fetch(`${sb.info.controlUrl}reset`, { method: 'POST' })
})

afterAll(async () => {
  await sb.close()
})

const sms = (text: string) => ({
  route: 'T1',
  senderi_d: 'LOGX',
  message_format: 'groups',
  message_type: 'Text',
  numbers: [15550100],
  sms: text,
  template_id: '',
  smstype: 'flash',
  schedule_time: '',
})

function send(text: string): Promise<Response> {
  return fetch(`${sb.info.apiUrl}?apirequest=send_sms`, {
    method: 'POST',
    headers: { apikey: KEY, 'content-type': 'application/json' },
    body: JSON.stringify(sms(text)),
  })
}

function list(query: string): Promise<Response> {
  return fetch(`${sb.info.apiUrl}?${query}`, { headers: { apikey: KEY } })
}

async function texts(query: string): Promise<{ texts: string[]; total: number }> {
  const body = (await (await list(query)).json()) as { data: { sms: string }[]; total: number }
  return { texts: body.data.map((r) => r.sms), total: body.total }
}

/** What the listing answered before it was cached: the page object, serialized whole per request. */
function pageText(kind: StoredKind, page: number, perPage: number, limit: number | undefined): string {
  const { records, total } = sb.store.page(kind, page, perPage, limit)
  return JSON.stringify({ status: 'success', data: records, page, per_page: perPage, total })
}

describe('record listings', () => {
  it('answer every *_record operation with the page object, byte for byte, and its length', async () => {
    // Non-ASCII text: content-length counts bytes, not characters.
    for (const text of ['café ☕ at 03:00', 'disk "full" \\ again', 'plain']) await send(text)
    await fetch(`${sb.info.apiUrl}?apirequest=social_search&keyword=ops`, { headers: { apikey: KEY } })
    const cases: [string, StoredKind, number, number, number | undefined][] = [
      ['apirequest=sms_record', 'sms', 1, 20, undefined],
      ['apirequest=sms_record&per_page=2&page=2', 'sms', 2, 2, undefined],
      ['apirequest=sms_record&per_page=100&limit=2', 'sms', 1, 100, 2],
      ['apirequest=mail_record', 'mail', 1, 20, undefined],
      ['apirequest=chat_record', 'chat', 1, 20, undefined],
      ['apirequest=obd_record', 'voice', 1, 20, undefined],
      ['apirequest=missed_record&per_page=1', 'missed', 1, 1, undefined],
      ['apirequest=social_record', 'social', 1, 20, undefined],
      ['apirequest=get_instance_id&limit=5', 'instance', 1, 20, 5],
    ]
    for (const [query, kind, page, perPage, limit] of cases) {
      for (let round = 0; round < 2; round++) {
        const res = await list(query)
        const text = await res.text()
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
        expect(text).toBe(pageText(kind, page, perPage, limit))
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text))
      }
    }
    expect((await texts('apirequest=sms_record')).texts).toEqual(['plain', 'disk "full" \\ again', 'café ☕ at 03:00'])
  })

  it('shows a record sent after a page was served on the very next request', async () => {
    await send('first')
    expect(await texts('apirequest=sms_record&per_page=100&limit=100')).toEqual({ texts: ['first'], total: 1 })
    expect(await texts('apirequest=sms_record&per_page=100&limit=100')).toEqual({ texts: ['first'], total: 1 })
    await send('second')
    expect(await texts('apirequest=sms_record&per_page=100&limit=100')).toEqual({
      texts: ['second', 'first'],
      total: 2,
    })
  })

  it('moves later pages along when new records arrive, and keeps limit and paging apart per query', async () => {
    for (let i = 1; i <= 7; i++) await send(`m${i}`)
    expect((await texts('apirequest=sms_record&per_page=3&page=2')).texts).toEqual(['m4', 'm3', 'm2'])
    expect((await texts('apirequest=sms_record&per_page=3&page=2&limit=4')).texts).toEqual(['m4'])
    expect((await texts('apirequest=sms_record&per_page=3&page=1')).texts).toEqual(['m7', 'm6', 'm5'])
    await send('m8')
    expect(await texts('apirequest=sms_record&per_page=3&page=2')).toEqual({ texts: ['m5', 'm4', 'm3'], total: 8 })
    expect(await texts('apirequest=sms_record&per_page=3&page=2&limit=4')).toEqual({ texts: ['m5'], total: 4 })
    expect((await texts('apirequest=sms_record&per_page=3&page=1')).texts).toEqual(['m8', 'm7', 'm6'])
    // More distinct pages than the cache keeps per kind: each still answers its own page.
    for (let limit = 1; limit <= 20; limit++) {
      expect((await texts(`apirequest=sms_record&per_page=2&limit=${limit}`)).total).toBe(Math.min(limit, 8))
    }
    expect((await texts('apirequest=sms_record&per_page=3&page=3')).texts).toEqual(['m2', 'm1'])
  })

  it('forgets served pages on reset and on seeded records', async () => {
    await send('before reset')
    expect((await texts('apirequest=sms_record')).total).toBe(1)
    const missedBefore = (await (await list('apirequest=missed_record')).json()) as { total: number }
    await fetch(`${sb.info.controlUrl}reset`, { method: 'POST' })
    expect(await texts('apirequest=sms_record')).toEqual({ texts: [], total: 0 })
    await fetch(`${sb.info.controlUrl}seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'missed', records: [{ caller: '15550100777', called: '15550199999' }] }),
    })
    const missed = (await (await list('apirequest=missed_record')).json()) as {
      total: number
      data: { caller: string }[]
    }
    expect(missed.total).toBe(missedBefore.total + 1)
    expect(missed.data[0]?.caller).toBe('15550100777')
  })

  it('drops records past retention from a page already served', async () => {
    const small = await startSandbox({ retention: 3, apiKey: KEY })
    try {
      const headers = { apikey: KEY, 'content-type': 'application/json' }
      const poll = async () =>
        (
          (await (await fetch(`${small.info.apiUrl}?apirequest=sms_record`, { headers })).json()) as {
            data: { sms: string }[]
          }
        ).data.map((r) => r.sms)
      for (let i = 1; i <= 3; i++) {
        await fetch(`${small.info.apiUrl}?apirequest=send_sms`, {
          method: 'POST',
          headers,
          body: JSON.stringify(sms(`r${i}`)),
        })
      }
      expect(await poll()).toEqual(['r3', 'r2', 'r1'])
      await fetch(`${small.info.apiUrl}?apirequest=send_sms`, {
        method: 'POST',
        headers,
        body: JSON.stringify(sms('r4')),
      })
      expect(await poll()).toEqual(['r4', 'r3', 'r2'])
    } finally {
      await small.close()
    }
  })
})
