import { describe, expect, it } from 'vitest'
import { detectOutcome, parseBody } from '../../../agent/messaging/outcome'

describe('detectOutcome', () => {
  it('accepts a 2xx JSON body without an error', () => {
    const o = detectOutcome(200, '{"status":"success","data":{"id":"sms-1"}}', 'application/json')
    expect(o.ok).toBe(true)
  })

  it('accepts an empty 2xx body (the activity webhook answers with none)', () => {
    expect(detectOutcome(200, '', undefined)).toMatchObject({ ok: true, body: { type: 'empty' } })
  })

  it('accepts plain text that does not read as an error', () => {
    expect(detectOutcome(200, 'Message queued', 'text/plain')).toMatchObject({ ok: true, body: { type: 'text' } })
  })

  it.each([
    ['{"error":"invalid number"}', 'invalid number'],
    ['{"success":false,"message":"quota exceeded"}', 'quota exceeded'],
    ['{"status":"error","msg":"bad route"}', 'bad route'],
    ['{"status":"FAILED"}', undefined],
    ['{"error":{"message":"nested reason"}}', 'nested reason'],
  ])('reports a 200 carrying an error: %s', (text, message) => {
    const o = detectOutcome(200, text, 'application/json')
    expect(o).toMatchObject({ ok: false, reason: 'error-body', message })
  })

  it('reports plain text that starts like an error', () => {
    expect(detectOutcome(200, 'ERROR: invalid apikey', 'text/plain')).toMatchObject({ ok: false, reason: 'error-body' })
  })

  it('treats error: null / false / "" as no error', () => {
    expect(detectOutcome(200, '{"error":null,"status":"success"}', 'application/json').ok).toBe(true)
    expect(detectOutcome(200, '{"error":false}', 'application/json').ok).toBe(true)
    expect(detectOutcome(200, '{"error":""}', 'application/json').ok).toBe(true)
  })

  it('calls declared JSON that does not parse, and HTML, malformed', () => {
    expect(detectOutcome(200, '{"status":"succ', 'application/json')).toMatchObject({ ok: false, reason: 'malformed' })
    expect(detectOutcome(200, '<html><body>hi</body></html>', 'text/html')).toMatchObject({
      ok: false,
      reason: 'malformed',
    })
  })

  it('reports non-2xx by status, with the body message and field', () => {
    const o = detectOutcome(
      400,
      '{"status":"error","error":"sms: must not be empty","field":"sms"}',
      'application/json',
    )
    expect(o).toMatchObject({ ok: false, reason: 'status', message: 'sms: must not be empty', field: 'sms' })
  })

  it('parses JSON sent without a JSON content type, and keeps brace-led text as text', () => {
    expect(parseBody('{"a":1}', 'text/plain')).toEqual({ type: 'json', value: { a: 1 } })
    expect(parseBody('{not json', 'text/plain')).toEqual({ type: 'text', value: '{not json' })
  })
})
