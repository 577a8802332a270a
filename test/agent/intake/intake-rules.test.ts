// The intake framework's pure rules, one test per numbered rule: rate-limit.ts, request-access.ts,
// http-intake.ts; and the sink's busy rule (intake-sink.ts rule 1).
import { describe, expect, it } from 'vitest'
import { createSecret } from '../../../agent/config/values/secret'
import { IntakeBusyError, IntakeError } from '../../../agent/intake/errors'
import { decodeHttpBody } from '../../../agent/intake/http-intake'
import { createIntakeSink } from '../../../agent/intake/intake-sink'
import { createRateLimiter } from '../../../agent/intake/rate-limit'
import { requestAccess } from '../../../agent/intake/request-access'
import type { AlertPipeline } from '../../../agent/delivery/types'
import type { IncidentState } from '../../../agent/incidents/incident-state'

describe('rate-limit', () => {
  const limit = { requests: 2, perMs: 10_000 }
  it('rule 1: requests in a window are counted per client', () => {
    const limiter = createRateLimiter(limit)
    expect(limiter.take('a', 0).allowed).toBe(true)
    expect(limiter.take('b', 0).allowed).toBe(true)
    expect(limiter.take('a', 1).allowed).toBe(true)
  })
  it('rule 2: past the limit, refused with the seconds left (at least 1), and not counted', () => {
    const limiter = createRateLimiter(limit)
    limiter.take('a', 0)
    limiter.take('a', 0)
    expect(limiter.take('a', 2_500)).toEqual({ allowed: false, retryAfterSeconds: 8 })
    expect(limiter.take('a', 9_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
  })
  it('rule 3: once the window is over a new one opens', () => {
    const limiter = createRateLimiter(limit)
    limiter.take('a', 0)
    limiter.take('a', 0)
    expect(limiter.take('a', 10_000).allowed).toBe(true)
  })
  it('rule 4: the table is bounded; the oldest client is dropped and starts afresh', () => {
    const limiter = createRateLimiter({ requests: 1, perMs: 10_000 }, 2)
    limiter.take('a', 0)
    limiter.take('b', 1)
    limiter.take('c', 2)
    expect(limiter.take('a', 3).allowed).toBe(true)
    expect(limiter.take('c', 3).allowed).toBe(false)
  })
})

describe('request-access', () => {
  const token = createSecret('s3cret-token')
  it('rule 1: a missing or wrong token is 401', () => {
    expect(requestAccess(token, {})).toMatchObject({ allowed: false, status: 401 })
    expect(requestAccess(token, { authorization: 'Bearer nope' })).toMatchObject({ allowed: false, status: 401 })
    expect(requestAccess(token, { authorization: 'Bearer s3cret-token' })).toEqual({ allowed: true })
  })
  it('rule 2: a source without a token takes any request', () => {
    expect(requestAccess(undefined, {})).toEqual({ allowed: true })
  })
  it('rule 3: the scheme in any case, the token exactly', () => {
    expect(requestAccess(token, { authorization: 'bEaReR s3cret-token' })).toEqual({ allowed: true })
    expect(requestAccess(token, { authorization: 'Bearer S3CRET-TOKEN' }).allowed).toBe(false)
  })
})

describe('type: http decoding', () => {
  const decode = (text: string) => decodeHttpBody(Buffer.from(text), 'api')
  const problem = (text: string): string => {
    try {
      decode(text)
    } catch (err) {
      expect(err).toBeInstanceOf(IntakeError)
      return (err as IntakeError).message
    }
    throw new Error('no error')
  }
  it('rule 1: a body starting with [ is an array, any other is NDJSON with blank lines skipped', () => {
    expect(decode('  [{"msg":"a"},{"msg":"b"}]')).toHaveLength(2)
    expect(decode('{"msg":"a"}\n\n{"msg":"b"}\n')).toHaveLength(2)
  })
  it('rule 2: an object is a JSON log line, a string a text line', () => {
    const [json, text] = decode('[{"level":"error","msg":"db down","host":"h1"},"ERROR plain down"]')
    expect(json?.line).toMatchObject({ json: true, level: 50, msg: 'db down', source: 'api' })
    expect(json?.line.record.host).toBe('h1')
    expect(text?.line).toMatchObject({ json: false, level: 50, source: 'api' })
    expect(decode('"a text line"')[0]?.line.json).toBe(false)
  })
  it('rule 3: a bad item refuses the whole body, naming it', () => {
    expect(problem('[{"msg":"ok"},{"msg":3}]')).toBe('[1].msg: expected a string')
    expect(problem('[{"msg":"ok"},{"level":"loud"}]')).toMatch(/^\[1\]\.level: expected a level/)
    expect(problem('[1]')).toMatch(/^\[0\]: expected an object/)
    expect(problem('{"msg":"ok"}\n{oops')).toBe('line 2: not a JSON object')
    expect(problem('{"msg":"ok"}\n42')).toMatch(/^line 2: expected a JSON object/)
    expect(problem('[{"msg":"a"}')).toMatch(/^\(body\): not JSON/)
  })
})

describe('intake sink', () => {
  const fake = (depth: number) => {
    const ingested: string[] = []
    let synced = 0
    const sink = createIntakeSink({
      pipeline: {
        ingest: (line: { msg: string }) => void ingested.push(line.msg),
        countLines: () => {},
      } as unknown as AlertPipeline,
      dispatcher: {
        stats: () => ({ sent: {}, failed: {}, retried: 0, dead: 0, depth }),
        syncAsync: async () => {
          synced++
        },
      },
      state: {} as IncidentState,
      now: () => 0,
      maxQueued: 10,
      retryAfterSeconds: 7,
    })
    return { sink, ingested, synced: () => synced }
  }
  const event = { line: decodeHttpBody(Buffer.from('{"msg":"x"}'), 'api')[0]!.line }
  it('rule 1: past the bound it takes nothing and says when to retry', async () => {
    const { sink, ingested } = fake(10)
    expect(sink.busy()).toBe(true)
    await expect(sink.accept([event])).rejects.toBeInstanceOf(IntakeBusyError)
    await expect(sink.accept([event])).rejects.toMatchObject({ status: 503, retryAfterSeconds: 7 })
    expect(ingested).toEqual([])
  })
  it('rules 2 and 3: events through the pipeline in order, then one fsync before it resolves', async () => {
    const { sink, ingested, synced } = fake(0)
    await sink.accept([event, event])
    expect(ingested).toEqual(['x', 'x'])
    expect(synced()).toBe(1)
  })
})
