import { describe, expect, it } from 'vitest'
import { MAX_RESPONSE_BYTES, noResponse, readResponse, statusError } from '../../../agent/messaging/attempt-outcome'
import { HttpAttemptError, MessagingApiError, MessagingErrorCodes } from '../../../agent/messaging/errors'
import { CLIENT_CLOSED, type IncomingResponse } from '../../../agent/messaging/transport'
import type { CallSpec } from '../../../agent/messaging/types'

const redact = (text: string): string => text.replaceAll('sekret', '[redacted]')
const spec = (sends: boolean): CallSpec => ({
  operation: sends ? 'send_sms' : 'sms_record',
  method: sends ? 'POST' : 'GET',
  url: new URL('http://127.0.0.1:4010/api/v1/'),
  headers: {},
  secretUrl: false,
  sends,
})
const attemptError = (phase: 'setup' | 'connect' | 'connected', code?: string) =>
  new HttpAttemptError(`failed ${code ?? ''} sekret`, phase, code)
const response = (status: number, text: string, extra: Partial<IncomingResponse> = {}): IncomingResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  text,
  truncated: false,
  ...extra,
})
const thrown = (fn: () => unknown): MessagingApiError => {
  try {
    fn()
  } catch (err) {
    if (err instanceof MessagingApiError) return err
    throw err
  }
  throw new Error('expected a MessagingApiError')
}

describe('an attempt without a response', () => {
  it('1: aborted by the caller is ABORTED, ambiguous for a send only', () => {
    const signal = AbortSignal.abort()
    const send = noResponse(redact, spec(true), attemptError('connected'), 1_000, true, signal)
    expect(send.code).toBe(MessagingErrorCodes.ABORTED)
    expect(send.ambiguous).toBe(true)
    expect(noResponse(redact, spec(false), attemptError('connected'), 1_000, false, signal).ambiguous).toBe(false)
  })

  it('2: out of time is TIMEOUT, recoverable, ambiguous unless it was still connecting', () => {
    const connected = noResponse(redact, spec(true), attemptError('connected'), 1_000, true, undefined)
    expect(connected).toMatchObject({ code: MessagingErrorCodes.TIMEOUT, recoverable: true, ambiguous: true })
    const connecting = noResponse(redact, spec(true), attemptError('connect'), 1_000, true, undefined)
    expect(connecting).toMatchObject({ code: MessagingErrorCodes.TIMEOUT, recoverable: true, ambiguous: false })
  })

  it('3: a closed client is NETWORK, not recoverable', () => {
    const err = noResponse(redact, spec(true), attemptError('connect', CLIENT_CLOSED), 1_000, false, undefined)
    expect(err).toMatchObject({ code: MessagingErrorCodes.NETWORK, recoverable: false })
  })

  it('4: a request Node refused to build is INVALID_OPTION, not recoverable, its words redacted', () => {
    const err = noResponse(redact, spec(true), attemptError('setup', 'ERR_INVALID_CHAR'), 1_000, false, undefined)
    expect(err).toMatchObject({ code: MessagingErrorCodes.INVALID_OPTION, recoverable: false })
    expect(err.message).not.toContain('sekret')
  })

  it('5: any other failure is NETWORK, recoverable, ambiguous only once connected past the connect codes', () => {
    const reset = noResponse(redact, spec(true), attemptError('connected', 'ECONNRESET'), 1_000, false, undefined)
    expect(reset).toMatchObject({ code: MessagingErrorCodes.NETWORK, recoverable: true, ambiguous: true })
    const refused = noResponse(redact, spec(true), attemptError('connected', 'ECONNREFUSED'), 1_000, false, undefined)
    expect(refused.ambiguous).toBe(false)
    const early = noResponse(redact, spec(true), attemptError('connect', 'ECONNRESET'), 1_000, false, undefined)
    expect(early.ambiguous).toBe(false)
  })
})

describe('an attempt with a response', () => {
  it(`6: a 2xx cut at ${MAX_RESPONSE_BYTES} bytes is MALFORMED_RESPONSE, not recoverable, ambiguous`, () => {
    const err = thrown(() => readResponse(redact, spec(true), response(200, '{"a":', { truncated: true })))
    expect(err).toMatchObject({ code: MessagingErrorCodes.MALFORMED_RESPONSE, recoverable: false, ambiguous: true })
  })

  it('7: a failing status is classed by its status', () => {
    const err = thrown(() => readResponse(redact, spec(true), response(401, '{"message":"bad sekret"}')))
    expect(err.code).toBe(MessagingErrorCodes.UNAUTHORIZED)
    expect(err.message).not.toContain('sekret')
    const cases: [number, string, boolean, boolean][] = [
      [403, MessagingErrorCodes.FORBIDDEN, false, false],
      [422, MessagingErrorCodes.BAD_REQUEST, false, false],
      [404, MessagingErrorCodes.NOT_FOUND, false, false],
      [429, MessagingErrorCodes.RATE_LIMITED, true, false],
      [408, MessagingErrorCodes.CLIENT_STATUS, true, false],
      [500, MessagingErrorCodes.SERVER, true, true],
      [503, MessagingErrorCodes.SERVER, true, false],
      [418, MessagingErrorCodes.CLIENT_STATUS, false, false],
    ]
    for (const [status, code, recoverable, ambiguous] of cases) {
      expect(statusError('send_sms', status, '', undefined, undefined, undefined, redact)).toMatchObject({
        code,
        recoverable,
        ambiguous,
      })
    }
    expect(statusError('send_sms', 503, '', undefined, undefined, '7', redact).retryAfterMs).toBe(7_000)
  })

  it('8: a 2xx body neither JSON nor text is MALFORMED_RESPONSE, recoverable, ambiguous', () => {
    const html = response(200, '<html>gateway</html>', { headers: { 'content-type': 'text/html' } })
    const err = thrown(() => readResponse(redact, spec(true), html))
    expect(err).toMatchObject({ code: MessagingErrorCodes.MALFORMED_RESPONSE, recoverable: true, ambiguous: true })
  })

  it('9: a 2xx whose body reports failure is REJECTED; otherwise it is success', () => {
    const err = thrown(() => readResponse(redact, spec(true), response(200, '{"status":"error","message":"no"}')))
    expect(err.code).toBe(MessagingErrorCodes.REJECTED)
    expect(readResponse(redact, spec(true), response(200, '{"status":"ok"}'))).toEqual({
      status: 200,
      body: { type: 'json', value: { status: 'ok' } },
    })
  })
})
