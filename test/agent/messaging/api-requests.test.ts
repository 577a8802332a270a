import { describe, expect, it } from 'vitest'
import { operationUrl, pagingValues, requestHeaders, sendResult } from '../../../agent/messaging/api-requests'
import { OPERATIONS } from '../../../agent/messaging/wire'

const json = (value: unknown) => ({ type: 'json' as const, value })

describe('operation URLs', () => {
  it("1: resolves the operation's path under the base's path, dropping the base's query", () => {
    const url = operationUrl(new URL('https://api.example/prefix?x=1'), 'send_chat', {})
    expect(url.pathname).toBe(`/prefix/${(OPERATIONS.send_chat.path ?? '/').replace(/^\//, '')}`)
    expect(url.searchParams.has('x')).toBe(false)
    expect(operationUrl(new URL('https://api.example/prefix/'), 'send_chat', {}).pathname).toBe(url.pathname)
  })

  it('2: names the apirequest first, then the call values', () => {
    const url = operationUrl(new URL('http://127.0.0.1:4010'), 'sms_record', { page: '2' })
    expect([...url.searchParams.keys()]).toEqual(['apirequest', 'page'])
    expect(url.searchParams.get('apirequest')).toBe('sms_record')
  })

  it('3: leaves out values that are undefined', () => {
    const url = operationUrl(new URL('http://127.0.0.1:4010'), 'sms_record', { page: undefined, limit: '5' })
    expect(url.searchParams.has('page')).toBe(false)
    expect(url.searchParams.get('limit')).toBe('5')
  })
})

describe('request headers', () => {
  it('4: always the key; JSON with a body; the idempotency key when there is one', () => {
    expect(requestHeaders('k', false, undefined)).toEqual({ apikey: 'k' })
    expect(requestHeaders('k', true, undefined)).toEqual({ apikey: 'k', 'content-type': 'application/json' })
    expect(requestHeaders('k', true, 'lx-1')).toEqual({
      apikey: 'k',
      'content-type': 'application/json',
      'idempotency-key': 'lx-1',
    })
  })
})

describe("an accepted send's answer", () => {
  it('5: takes the id from data, then the body (id, request_id, message_id), as text', () => {
    expect(sendResult(json({ data: { id: 7 }, id: 'outer' })).id).toBe('7')
    expect(sendResult(json({ data: 'text', request_id: 'r-1' })).id).toBe('r-1')
    expect(sendResult(json({ message_id: 'm-1' })).id).toBe('m-1')
    expect(sendResult(json({ id: { nested: true } })).id).toBeUndefined()
  })

  it("6: takes the status from data, then the body's, when it is a string", () => {
    expect(sendResult(json({ data: { status: 'queued' }, status: 'ok' })).status).toBe('queued')
    expect(sendResult(json({ data: {}, status: 'ok' })).status).toBe('ok')
    expect(sendResult(json({ status: 200 })).status).toBeUndefined()
  })

  it('7: names neither for a body that is not a JSON object', () => {
    const text = { type: 'text' as const, value: 'id=3' }
    expect(sendResult(text)).toEqual({ id: undefined, status: undefined, body: text })
    expect(sendResult(json(null))).toEqual({ id: undefined, status: undefined, body: json(null) })
  })
})

describe('paging values', () => {
  it('8: sends per_page, limit and page as text, only those set', () => {
    expect(pagingValues({ perPage: 50, page: 2 })).toEqual({ per_page: '50', limit: undefined, page: '2' })
    expect(pagingValues({})).toEqual({ per_page: undefined, limit: undefined, page: undefined })
  })
})
