import { describe, expect, it } from 'vitest'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const quiet = { base: null, timestamp: false }

describe('option validation names the option', () => {
  const cases: Array<[string, object, string, string]> = [
    ['level of the wrong type', { level: {} }, 'level', 'LOGX_ERR_INVALID_OPTION'],
    ['mixin not a function', { mixin: 'x' }, 'mixin', 'LOGX_ERR_INVALID_OPTION'],
    ['messageKey not a string', { messageKey: 1 }, 'messageKey', 'LOGX_ERR_INVALID_OPTION'],
    ['timestamp a string', { timestamp: 'now' }, 'timestamp', 'LOGX_ERR_INVALID_OPTION'],
    ['a formatter not a function', { formatters: { log: 1 } }, 'formatters.log', 'LOGX_ERR_INVALID_OPTION'],
    ['a serializer not a function', { serializers: { user: true } }, 'serializers.user', 'LOGX_ERR_INVALID_OPTION'],
    ['a hook not a function', { hooks: { logMethod: 'x' } }, 'hooks.logMethod', 'LOGX_ERR_INVALID_OPTION'],
    ['base an array', { base: [] }, 'base', 'LOGX_ERR_INVALID_OPTION'],
    ['prettyPrint (removed in pino 7)', { prettyPrint: true }, 'prettyPrint', 'LOGX_ERR_INVALID_OPTION'],
  ]
  for (const [title, options, path, code] of cases) {
    it(title, () => {
      let thrown: any
      try {
        logx(options as any, createSink())
      } catch (error) {
        thrown = error
      }
      expect(thrown, 'expected an error').toBeInstanceOf(logx.LogxError)
      expect(thrown.code).toBe(code)
      expect(thrown.path).toBe(path)
      expect(thrown.message).toContain(path)
    })
  }
})

describe('depthLimit and edgeLimit', () => {
  it("are refused with the errors pino's encoder throws, carrying logx's code and path", () => {
    const cases: Array<[object, ErrorConstructor, string, string]> = [
      [{ depthLimit: -1 }, RangeError, 'The "maximumDepth" argument must be >= 1', 'depthLimit'],
      [{ edgeLimit: 1.5 }, TypeError, 'The "maximumBreadth" argument must be an integer', 'edgeLimit'],
      [{ depthLimit: undefined }, TypeError, 'The "maximumDepth" argument must be of type number', 'depthLimit'],
    ]
    for (const [options, ErrorClass, message, path] of cases) {
      let thrown: any
      try {
        logx(options as any, createSink())
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(ErrorClass)
      expect(thrown).toMatchObject({ message, path, code: 'LOGX_ERR_INVALID_OPTION' })
    }
  })
})

describe('options', () => {
  it('enabled: false writes nothing', () => {
    const sink = createSink()
    const logger = logx({ enabled: false }, sink)
    logger.fatal('x')
    expect(logger.level).toBe('silent')
    expect(sink.lines).toEqual([])
  })

  it('nestedKey nests the merged object and the mixin output, not the message', () => {
    const sink = createSink()
    logx({ ...quiet, nestedKey: 'payload', mixin: () => ({ m: 1 }) }, sink).info({ a: 1 }, 'hi')
    expect(sink.last()).toEqual({ level: 30, payload: { m: 1, a: 1 }, msg: 'hi' })
  })

  it('mixin receives the merging object (or a fresh empty object) and the level number', () => {
    const calls: unknown[][] = []
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        mixin: (obj, level) => {
          calls.push([{ ...obj }, level])
          return { seq: calls.length }
        },
      },
      sink,
    )
    logger.info('a')
    logger.error({ x: 1 }, 'b')
    logger.debug('not called below the level')
    expect(calls).toEqual([
      [{}, 30],
      [{ x: 1 }, 50],
    ])
    expect(sink.records()).toEqual([
      { level: 30, seq: 1, msg: 'a' },
      { level: 50, seq: 2, x: 1, msg: 'b' },
    ])
  })

  it('formatters.log sees everything but the message', () => {
    const seen: unknown[] = []
    logx(
      {
        ...quiet,
        formatters: {
          log: (o) => {
            seen.push(o)
            return o
          },
        },
      },
      createSink(),
    ).info({ a: 1 }, 'm')
    expect(seen).toEqual([{ a: 1 }])
  })

  it('hooks.streamWrite sees the finished line', () => {
    const sink = createSink()
    logx({ ...quiet, hooks: { streamWrite: (line) => line.replace('secret', '******') } }, sink).info('the secret')
    expect(sink.last().msg).toBe('the ******')
  })

  it('the logMethod hook can add arguments that would otherwise be dropped', () => {
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        hooks: {
          logMethod(this: any, args, method, level) {
            if (args.length > 1 && typeof args[0] === 'string' && !args[0].includes('%'))
              args[0] = args.map(String).join(' ')
            expect(level).toBe(30)
            method.apply(this, args)
          },
        },
      },
      sink,
    )
    logger.info('joined', 'by', 'hook')
    expect(sink.last().msg).toBe('joined by hook')
  })

  it('the transport option and a destination together are an error', () => {
    expect(() => logx({ transport: { target: 'logx/file' } } as any, createSink())).toThrow(
      expect.objectContaining({ code: 'LOGX_ERR_TRANSPORT_AND_DESTINATION' }),
    )
  })

  it('the browser option is accepted and ignored in Node', () => {
    const sink = createSink()
    logx({ ...quiet, browser: { asObject: true } }, sink).info('node')
    expect(sink.last()).toEqual({ level: 30, msg: 'node' })
  })

  it('a destination that is not writable is an error', () => {
    expect(() => logx({}, {} as any)).toThrow(expect.objectContaining({ code: 'LOGX_ERR_INVALID_DESTINATION' }))
  })
})
