import { describe, expect, it } from 'vitest'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import logx from 'logx'
import pino from 'pino'
import { createSink } from '../helpers/sink'

const quiet = { base: null, timestamp: false }
const { err, errWithCause, req, res, wrapErrorSerializer, wrapRequestSerializer, wrapResponseSerializer } =
  logx.stdSerializers

describe('stdSerializers.err', () => {
  it('type, message, stack and own fields; raw is reachable but not serialized', () => {
    const error: any = new RangeError('out of range')
    error.code = 'E_RANGE'
    const out: any = err(error)
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      type: 'RangeError',
      message: 'out of range',
      stack: error.stack,
      code: 'E_RANGE',
    })
    expect(out.raw).toBe(error)
  })

  it('folds the cause chain into message and stack', () => {
    const root = new Error('disk full')
    const mid = new Error('write failed', { cause: root })
    const top = new Error('save failed', { cause: mid })
    const out: any = err(top)
    expect(out.message).toBe('save failed: write failed: disk full')
    expect(out.stack).toContain('\ncaused by: Error: write failed')
    expect(out.stack).toContain('\ncaused by: Error: disk full')
  })

  it('survives a cause cycle', () => {
    const a: any = new Error('a')
    const b: any = new Error('b', { cause: a })
    a.cause = b
    const out: any = err(a)
    expect(out.message).toBe('a: b: a: ...')
    expect(out.stack).toContain('causes have become circular...')
  })

  it('serializes aggregate errors', () => {
    const out: any = err(new AggregateError([new Error('one'), new TypeError('two')], 'both failed'))
    expect(out.aggregateErrors.map((e: any) => [e.type, e.message])).toEqual([
      ['Error', 'one'],
      ['TypeError', 'two'],
    ])
  })

  it('errWithCause keeps causes nested', () => {
    const out: any = JSON.parse(JSON.stringify(errWithCause(new Error('top', { cause: new Error('bottom') }))))
    expect(out.message).toBe('top')
    expect(out.cause).toMatchObject({ type: 'Error', message: 'bottom' })
  })

  it('leaves non-errors alone and handles frozen errors', () => {
    expect(err('text')).toBe('text')
    const frozen = Object.freeze(new Error('frozen'))
    expect((err(frozen) as any).message).toBe('frozen')
  })

  it('is the default serializer for the error key', () => {
    const sink = createSink()
    logx(quiet, sink).error({ err: new Error('x', { cause: new Error('y') }) })
    expect(sink.last().err.message).toBe('x: y')
    expect(sink.last().msg).toBe('x')
  })

  it('wrapErrorSerializer runs a custom serializer on the standard output', () => {
    const custom = wrapErrorSerializer((e: any) => ({ kind: e.type }))
    expect(custom(new TypeError('t'))).toEqual({ kind: 'TypeError' })
  })
})

describe('stdSerializers.req and res on a real HTTP exchange', () => {
  it('logging req and res objects as merging objects maps them like pino does', async () => {
    const sink = createSink()
    const logger = logx(quiet, sink)
    let responded!: () => void
    const responseLogged = new Promise<void>((resolve) => (responded = resolve))
    const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
      logger.info(incoming, 'request')
      outgoing.setHeader('x-test', '1')
      outgoing.end('ok', () => {
        logger.info(outgoing, 'response')
        responded()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/items?q=1', headers: { 'x-req': 'r' }, agent: false }, (response) => {
        response.resume()
        response.on('end', resolve)
      })
        .on('error', reject)
        .end()
    })
    await responseLogged
    await new Promise((resolve) => server.close(resolve))
    const [reqLine, resLine] = sink.records()
    expect(reqLine!.req).toMatchObject({
      method: 'GET',
      url: '/items?q=1',
      headers: { 'x-req': 'r' },
      remoteAddress: '127.0.0.1',
    })
    expect(typeof reqLine!.req.remotePort).toBe('number')
    expect(resLine!.res).toEqual({ statusCode: 200, headers: { 'x-test': '1' } })
  })

  it('req/res serializers and their wrappers', () => {
    const fakeReq: any = {
      method: 'POST',
      url: '/x',
      headers: { a: 1 },
      socket: { remoteAddress: '::1', remotePort: 5 },
      id: () => 'req-1',
    }
    expect(JSON.parse(JSON.stringify(req(fakeReq)))).toEqual({
      id: 'req-1',
      method: 'POST',
      url: '/x',
      headers: { a: 1 },
      remoteAddress: '::1',
      remotePort: 5,
    })
    expect((req(fakeReq) as any).raw).toBe(fakeReq)
    const fakeRes: any = { statusCode: 404, headersSent: false, getHeaders: () => ({ b: 2 }) }
    expect(JSON.parse(JSON.stringify(res(fakeRes)))).toEqual({ statusCode: null, headers: { b: 2 } })
    expect(wrapRequestSerializer((r: any) => r.method)(fakeReq)).toBe('POST')
    expect(wrapResponseSerializer((r: any) => r.headers)(fakeRes)).toEqual({ b: 2 })
  })
})

describe('turning the default error serializer off', () => {
  // pino's documented way: a serializer given as undefined or null is no serializer.
  const scenarios: Array<[string, (factory: any, sink: object) => void]> = [
    [
      'err: undefined at the root',
      (factory, sink) => factory({ ...quiet, serializers: { err: undefined } }, sink).error(new Error('plain')),
    ],
    [
      'err: null at the root',
      (factory, sink) =>
        factory({ ...quiet, serializers: { err: null } }, sink).error({ err: new Error('under err') }, 'm'),
    ],
    [
      'err: null with another errorKey',
      (factory, sink) => factory({ ...quiet, errorKey: 'e', serializers: { err: null } }, sink).error(new Error('e')),
    ],
    [
      'err: null in a child',
      (factory, sink) =>
        factory(quiet, sink)
          .child({}, { serializers: { err: null } })
          .error(new Error('child')),
    ],
    [
      "a child keeps the parent's other serializers",
      (factory, sink) =>
        factory({ ...quiet, serializers: { user: (u: any) => u.id } }, sink)
          .child({}, { serializers: { err: undefined } })
          .error({ err: new Error('x'), user: { id: 7 } }),
    ],
  ]
  for (const [title, scenario] of scenarios) {
    it(`${title}: no throw, and the line pino writes`, () => {
      const expected = createSink()
      const actual = createSink()
      scenario(pino, expected)
      expect(() => scenario(logx, actual)).not.toThrow()
      expect(actual.lines).toEqual(expected.lines)
    })
  }

  it('the serializers in effect no longer list err', () => {
    const logger: any = logx({ serializers: { err: null } } as any, createSink())
    expect(Object.keys(logger[logx.symbols.serializersSym])).toEqual([])
  })

  it('anything else that is not a function is still refused, naming the key', () => {
    expect(() => logx({ serializers: { err: 'no' as any } }, createSink())).toThrow(
      'serializers.err: expected a function, or null to turn it off',
    )
  })
})
