import { describe, expect, it } from 'vitest'
import { afterHandler, beforeHandler, malformedReply } from '../../../agent/sandbox/fault-replies'
import { json } from '../../../agent/sandbox/reply'

const handled = json(200, { status: 'success', data: { id: 'sms-1' } })

describe('what a planned fault does', () => {
  it('1: a drop before the handler destroys the socket without running it', () => {
    expect(beforeHandler({ kind: 'drop', phase: 'before' })).toEqual({ kind: 'drop' })
  })

  it('2: an error answers with its status and message, without the handler', () => {
    const before = beforeHandler({ kind: 'error', status: 502, message: 'bad gateway' })
    expect(before.kind).toBe('reply')
    expect(before.kind === 'reply' && before.reply.status).toBe(502)
  })

  it('3: a rate limit answers 429 with Retry-After in seconds, without the handler', () => {
    const before = beforeHandler({ kind: 'rate-limit', retryAfterSeconds: 3 })
    expect(before).toEqual({
      kind: 'reply',
      reply: json(429, { status: 'error', error: 'injected fault: rate limited' }, { 'retry-after': '3' }),
    })
  })

  it('4: a drop after the handler runs it, then destroys the socket', () => {
    const action = { kind: 'drop', phase: 'after' } as const
    expect(beforeHandler(action)).toEqual({ kind: 'run' })
    expect(afterHandler(action, handled)).toBeUndefined()
  })

  it('5: a malformed body runs the handler and replaces its reply', () => {
    const action = { kind: 'malformed', body: 'html' } as const
    expect(beforeHandler(action)).toEqual({ kind: 'run' })
    expect(afterHandler(action, handled)).toEqual(malformedReply('html'))
    expect(malformedReply('empty-json')).toMatchObject({ status: 200, body: '' })
  })

  it("6: without a fault the handler's reply goes out", () => {
    expect(beforeHandler(undefined)).toEqual({ kind: 'run' })
    expect(afterHandler(undefined, handled)).toBe(handled)
  })
})
