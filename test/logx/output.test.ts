import { describe, expect, it } from 'vitest'
import { hostname } from 'node:os'
import logx from 'logx'
import { createSink } from '../helpers/sink'

describe('line shape', () => {
  it('one JSON object per line, keys in order level, time, pid, hostname, name, bindings, object, msg', () => {
    const sink = createSink()
    const logger = logx({ name: 'svc' }, sink)
    logger.child({ reqId: 7 }).info({ user: 'ann' }, 'done')
    const line = sink.lines[0]!
    expect(line.endsWith('}\n')).toBe(true)
    expect(line.indexOf('\n')).toBe(line.length - 1)
    const record = JSON.parse(line)
    expect(Object.keys(record)).toEqual(['level', 'time', 'pid', 'hostname', 'name', 'reqId', 'user', 'msg'])
    expect(record.pid).toBe(process.pid)
    expect(record.hostname).toBe(hostname())
    expect(Math.abs(record.time - Date.now())).toBeLessThan(60_000)
  })

  it('base: undefined omits pid and hostname; base: custom replaces them', () => {
    const sink = createSink()
    logx({ base: undefined, timestamp: false }, sink).info('x')
    logx({ base: { app: 'a' }, timestamp: false }, sink).info('y')
    expect(sink.records()).toEqual([
      { level: 30, msg: 'x' },
      { level: 30, app: 'a', msg: 'y' },
    ])
  })

  it('base: null drops name too, base: undefined keeps it (pino)', () => {
    const sink = createSink()
    logx({ base: null, name: 'only-name', timestamp: false }, sink).info('x')
    logx({ base: undefined, name: 'only-name', timestamp: false }, sink).info('y')
    expect(sink.records()).toEqual([
      { level: 30, msg: 'x' },
      { level: 30, name: 'only-name', msg: 'y' },
    ])
    logx({}, sink).info('z')
    expect(sink.last()).toMatchObject({ pid: process.pid, hostname: hostname() })
  })

  it('timestamp: false, a function, and the standard time functions', () => {
    const sink = createSink()
    logx({ base: null, timestamp: false }, sink).info('a')
    logx({ base: null, timestamp: () => ',"time":"custom"' }, sink).info('b')
    logx({ base: null, timestamp: logx.stdTimeFunctions.isoTime }, sink).info('c')
    logx({ base: null, timestamp: logx.stdTimeFunctions.unixTime }, sink).info('d')
    logx({ base: null, timestamp: logx.stdTimeFunctions.nullTime }, sink).info('e')
    const [a, b, c, d, e] = sink.records()
    expect(a).toEqual({ level: 30, msg: 'a' })
    expect(b!.time).toBe('custom')
    expect(c!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(Math.abs(d!.time - Date.now() / 1000)).toBeLessThan(60)
    expect(e).toEqual({ level: 30, msg: 'e' })
    expect(logx.stdTimeFunctions.epochTime()).toMatch(/^,"time":\d{13}$/)
  })

  it('the message key is written twice when the object carries one, the argument last (pino)', () => {
    const sink = createSink()
    logx({ base: null, timestamp: false }, sink).info({ msg: 'object' }, 'argument')
    expect(sink.lines[0]).toBe('{"level":30,"msg":"object","msg":"argument"}\n')
    expect(sink.last().msg).toBe('argument')
  })

  it('lone surrogates are written as pino writes them: escaped only beside a control character', () => {
    const sink = createSink()
    logx({ base: null, timestamp: false }, sink).info({ s: 'a\ud800b', c: '\u0001\ud800' }, '\udc00')
    expect(sink.last()).toEqual({ level: 30, s: 'a\ud800b', c: '\u0001\ud800', msg: '\udc00' })
    expect(sink.lines[0]).toBe('{"level":30,"s":"a\ud800b","c":"\\u0001\\ud800","msg":"\udc00"}\n')
  })
})

describe('hard values never break a line', () => {
  const quiet = { base: null, timestamp: false }

  it('circular structures, within depthLimit and edgeLimit', () => {
    const sink = createSink()
    const a: any = { name: 'a', list: [] }
    a.self = a
    a.list.push(a, 1)
    logx(quiet, sink).info({ a })
    expect(sink.last().a).toEqual({ name: 'a', list: ['[Circular]', 1], self: '[Circular]' })
  })

  it('depthLimit cuts deep circular objects with [Object] and [Array]', () => {
    const sink = createSink()
    const deep: any = { l1: { l2: { l3: { arr: [[1]] } } } }
    deep.loop = deep
    logx({ ...quiet, depthLimit: 3 }, sink).info({ deep })
    expect(sink.last().deep).toEqual({ l1: { l2: { l3: '[Object]' } }, loop: '[Circular]' })
  })

  it('edgeLimit bounds keys and items, and says how many were left out', () => {
    const sink = createSink()
    const wide: any = { a: 1, b: 2, c: 3, d: 4, list: [1, 2, 3, 4, 5] }
    wide.loop = wide
    logx({ ...quiet, edgeLimit: 5 }, sink).info({ wide })
    expect(sink.last().wide).toEqual({ a: 1, b: 2, c: 3, d: 4, list: [1, 2, 3, 4, 5], '...': '1 item not stringified' })
    const sink2 = createSink()
    const list: any[] = [1, 2, 3, 4, 5, 6]
    list.push(list)
    logx({ ...quiet, edgeLimit: 3 }, sink2).info({ list })
    // pino's count: one item fewer than it left out.
    expect(sink2.last().list).toEqual([1, 2, 3, '... 3 items not stringified'])
  })

  it("a value with a throwing getter or toJSON inside is replaced whole, with pino's placeholder", () => {
    const sink = createSink()
    const obj = {
      ok: 1,
      get bad(): never {
        throw new Error('getter exploded')
      },
    }
    const nested = { inner: obj }
    logx(quiet, sink).info(
      {
        nested,
        top: {
          toJSON: () => {
            throw new Error('toJSON exploded')
          },
        },
      },
      'still logged',
    )
    const record = sink.last()
    expect(record.msg).toBe('still logged')
    expect(record.nested).toBe('[unable to serialize, circular reference is too complex to analyze]')
    expect(record.top).toBe('[unable to serialize, circular reference is too complex to analyze]')
  })

  it('BigInt anywhere, symbols skipped', () => {
    const sink = createSink()
    logx(quiet, sink).info({ n: 1n, deep: { n: 2n }, [Symbol('s')]: 1, s: Symbol('x') })
    expect(sink.lines[0]).toBe('{"level":30,"n":1,"deep":{"n":2}}\n')
  })

  it('a serializer or formatter that throws does not throw from the log call, and the line says why', () => {
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        serializers: {
          user: () => {
            throw new Error('serializer broke')
          },
        },
      },
      sink,
    )
    expect(() => logger.info({ user: 1 }, 'kept message')).not.toThrow()
    expect(sink.last()).toEqual({ level: 30, user: '[unable to serialize: serializer broke]', msg: 'kept message' })
    const mixinLogger = logx(
      {
        ...quiet,
        mixin: () => {
          throw new Error('mixin broke')
        },
      },
      sink,
    )
    expect(() => mixinLogger.warn('m')).not.toThrow()
    expect(sink.last().logxError).toContain('mixin broke')
  })

  it('a destination whose write throws does not throw from the log call', () => {
    const logger = logx({}, {
      write() {
        throw new Error('disk on fire')
      },
    } as any)
    expect(() => logger.error('x')).not.toThrow()
    expect(() => logger.fatal('x')).not.toThrow()
  })

  it('a hook that throws does not throw from the log call, and the call still writes its line', () => {
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        hooks: {
          logMethod() {
            throw new Error('hook broke')
          },
        },
      },
      sink,
    )
    expect(() => logger.warn('kept')).not.toThrow()
    expect(sink.last()).toEqual({ level: 40, msg: 'kept', logxError: 'line could not be serialized: hook broke' })
  })
})
