// logx.symbols against pino.symbols, side by side: every key pino exposes exists, and reading or
// calling it on a logger gives what a pino logger gives. Then the same through pino's own symbols,
// which is how pino-http and fastify (they require pino themselves) reach into a logger handed to them.
import { describe, expect, it, vi } from 'vitest'
import { EventEmitter } from 'node:events'
import { inspect } from 'node:util'
import pino from 'pino'
import logx from 'logx'
import { createSink } from '../helpers/sink'

type AnyLogger = Record<string | symbol, any>
type Symbols = Record<string, symbol>

const fixed = { timestamp: false, base: { pid: 1, hostname: 'host' } }
const pinoSymbols = pino.symbols as unknown as Symbols
const logxSymbols = logx.symbols as unknown as Symbols

function pair(options: object = {}): {
  pino: AnyLogger
  logx: AnyLogger
  pinoSink: ReturnType<typeof createSink>
  logxSink: ReturnType<typeof createSink>
} {
  const pinoSink = createSink()
  const logxSink = createSink()
  return {
    pino: (pino as any)({ ...fixed, ...options }, pinoSink),
    logx: (logx as any)({ ...fixed, ...options }, logxSink),
    pinoSink,
    logxSink,
  }
}

/** Reads `key` on each logger: with the library's own symbols, or (foreign) with pino's on both. */
function read(loggers: { pino: AnyLogger; logx: AnyLogger }, key: string, foreign = false): [any, any] {
  return [loggers.pino[pinoSymbols[key]!], loggers.logx[(foreign ? pinoSymbols : logxSymbols)[key]!]]
}

describe('logx.symbols has every key of pino.symbols', () => {
  it('each one is a symbol, distinct, and the registered ones stay registered', () => {
    const keys = Object.keys(pinoSymbols)
    expect(keys.length).toBeGreaterThan(30)
    for (const key of keys) {
      expect(typeof logxSymbols[key], key).toBe('symbol')
      // Registered (Symbol.for) in pino means registered in logx, under logx's own name (the spec's).
      const pinoRegistered = Symbol.keyFor(pinoSymbols[key]!) !== undefined
      expect(Symbol.keyFor(logxSymbols[key]!) !== undefined, key).toBe(pinoRegistered)
    }
    expect(new Set(keys.map((key) => logxSymbols[key])).size).toBe(keys.length)
  })
})

describe.each([
  ['logx.symbols', false],
  ["pino's own symbols (as pino-http and fastify use them)", true],
])('a logx logger read through %s behaves like a pino logger', (_title, foreign) => {
  it('stringifySym stringifies like pino, circular values included (pino-http customProps)', () => {
    const loggers = pair()
    const [pinoStringify, logxStringify] = read(loggers, 'stringifySym', foreign)
    const circular: Record<string, unknown> = { a: 1 }
    circular.self = circular
    for (const value of [{ user: 'ann', n: 1 }, 'text', [1, { b: 2 }], circular]) {
      expect(logxStringify.call(loggers.logx, value)).toBe(pinoStringify.call(loggers.pino, value))
    }
    // With a safe stringifier passed in, as pino's own asChindings does.
    const safe = (): string => '"safe"'
    expect(logxStringify.call(loggers.logx, circular, safe)).toBe(pinoStringify.call(loggers.pino, circular, safe))
  })

  it('chindingsSym, lsCacheSym, endSym, timeSliceIndexSym, the key symbols and nestedKeyStrSym hold the same values', () => {
    const loggers = pair({ nestedKey: 'payload', messageKey: 'message', errorKey: 'error', msgPrefix: '[p] ' })
    const children = {
      pino: loggers.pino.child({ a: 'property', n: 2 }),
      logx: loggers.logx.child({ a: 'property', n: 2 }),
    }
    for (const key of [
      'chindingsSym',
      'endSym',
      'timeSliceIndexSym',
      'messageKeySym',
      'errorKeySym',
      'nestedKeySym',
      'nestedKeyStrSym',
      'msgPrefixSym',
      'useOnlyCustomLevelsSym',
    ]) {
      const [expected, actual] = read(children, key, foreign)
      expect(actual, key).toEqual(expected)
    }
    const [pinoCache, logxCache] = read(children, 'lsCacheSym', foreign)
    for (const level of [10, 20, 30, 40, 50, 60]) expect(logxCache[level]).toBe(pinoCache[level])
  })

  it('getLevelSym, setLevelSym, levelValSym and levelCompSym', () => {
    const loggers = pair()
    for (const [logger, symbols] of [
      [loggers.pino, pinoSymbols],
      [loggers.logx, foreign ? pinoSymbols : logxSymbols],
    ] as const) {
      logger[symbols.setLevelSym!]('warn')
      expect(logger.level).toBe('warn')
      expect(logger[symbols.getLevelSym!]()).toBe('warn')
      expect(logger[symbols.levelValSym!]).toBe(40)
      expect(logger[symbols.levelCompSym!](50, 40)).toBe(true)
      expect(logger[symbols.levelCompSym!](30, 40)).toBe(false)
    }
  })

  it('asJsonSym builds the same line, writeSym writes it, timeSym gives the time fragment', () => {
    const loggers = pair()
    const [pinoAsJson, logxAsJson] = read(loggers, 'asJsonSym', foreign)
    const time = ',"time":1700000000000'
    expect(logxAsJson.call(loggers.logx, { a: 1 }, 'hello', 30, time)).toBe(
      pinoAsJson.call(loggers.pino, { a: 1 }, 'hello', 30, time),
    )
    const [pinoWrite, logxWrite] = read(loggers, 'writeSym', foreign)
    pinoWrite.call(loggers.pino, { b: 2 }, 'written', 40)
    logxWrite.call(loggers.logx, { b: 2 }, 'written', 40)
    expect(loggers.logxSink.lines).toEqual(loggers.pinoSink.lines)
    const [, logxTime] = read(pair({ timestamp: true }), 'timeSym', foreign)
    expect(logxTime()).toMatch(/^,"time":\d+$/)
  })

  it("streamSym is the destination; stringifySafeSym, formatOptsSym and stringifiersSym have pino's shapes", () => {
    const loggers = pair()
    expect(read(loggers, 'streamSym', foreign)).toEqual([loggers.pinoSink, loggers.logxSink])
    const circular: Record<string, unknown> = { a: 1 }
    circular.self = circular
    const [pinoSafe, logxSafe] = read(loggers, 'stringifySafeSym', foreign)
    expect(JSON.parse(logxSafe(circular))).toEqual(JSON.parse(pinoSafe(circular)))
    const [pinoFormatOpts, logxFormatOpts] = read(loggers, 'formatOptsSym', foreign)
    expect(logxFormatOpts.stringify({ a: 1 })).toBe(pinoFormatOpts.stringify({ a: 1 }))
    // Without redaction pino's stringifiers are an empty object (never null).
    const [pinoStringifiers, logxStringifiers] = read(loggers, 'stringifiersSym', foreign)
    expect(typeof logxStringifiers).toBe('object')
    expect(logxStringifiers).not.toBeNull()
    expect(Object.keys(logxStringifiers)).toEqual(Object.keys(pinoStringifiers))
  })

  it('with redaction, stringifiersSym holds the redactor under redactFmtSym and wildcardFirstSym for `*.x` paths', () => {
    const loggers = pair({ redact: ['secret', '*.token'] })
    const [pinoStringifiers, logxStringifiers] = read(loggers, 'stringifiersSym', foreign)
    const value = { secret: 's3cr3t', nested: { token: 't0k3n', keep: 1 } }
    // The keys inside the redaction object are each library's own symbols (no package reads them).
    const pinoOut = JSON.parse(pinoStringifiers[pinoSymbols.redactFmtSym!](value))
    const logxOut = JSON.parse(logxStringifiers[logxSymbols.redactFmtSym!](value))
    expect(logxOut).toEqual(pinoOut)
    expect(JSON.stringify(logxOut)).not.toContain('s3cr3t')
    expect(typeof logxStringifiers[logxSymbols.wildcardFirstSym!]).toBe(
      typeof pinoStringifiers[pinoSymbols.wildcardFirstSym!],
    )
  })

  it('mixinSym, mixinMergeStrategySym, serializersSym, formattersSym and hooksSym hold what was configured', () => {
    const mixin = (): object => ({ m: 1 })
    const mixinMergeStrategy = (a: object, b: object): object => ({ ...a, ...b })
    const user = (u: { id: number }): number => u.id
    const level = (label: string): object => ({ severity: label })
    const logMethod = function (this: any, args: unknown[], method: (...a: unknown[]) => void): void {
      method.apply(this, args)
    }
    const loggers = pair({
      mixin,
      mixinMergeStrategy,
      serializers: { user },
      formatters: { level },
      hooks: { logMethod },
    })
    expect(read(loggers, 'mixinSym', foreign)).toEqual([mixin, mixin])
    expect(read(loggers, 'mixinMergeStrategySym', foreign)).toEqual([mixinMergeStrategy, mixinMergeStrategy])
    const [pinoSerializers, logxSerializers] = read(loggers, 'serializersSym', foreign)
    expect(Object.keys(logxSerializers).sort()).toEqual(Object.keys(pinoSerializers).sort())
    expect(logxSerializers.user).toBe(user)
    const [pinoFormatters, logxFormatters] = read(loggers, 'formattersSym', foreign)
    expect(Object.keys(logxFormatters).sort()).toEqual(Object.keys(pinoFormatters).sort())
    expect(logxFormatters.level).toBe(level)
    const [pinoHooks, logxHooks] = read(loggers, 'hooksSym', foreign)
    expect([logxHooks.logMethod, logxHooks.streamWrite]).toEqual([pinoHooks.logMethod, pinoHooks.streamWrite])
  })

  it('writing through a symbol changes the logger as in pino (instrumentation-pino sets mixinSym this way)', () => {
    const loggers = pair()
    for (const [logger, symbols] of [
      [loggers.pino, pinoSymbols],
      [loggers.logx, foreign ? pinoSymbols : logxSymbols],
    ] as const) {
      logger[symbols.mixinSym!] = () => ({ trace_id: 'abc' })
      logger.info('mixed')
    }
    expect(loggers.logxSink.lines).toEqual(loggers.pinoSink.lines)
    expect(loggers.logxSink.last().trace_id).toBe('abc')
  })
})

describe("pino's symbols on a logx logger", () => {
  it('are answered for any copy of pino, recognised by their description, also with `in`', () => {
    const logger: AnyLogger = logx(fixed as any, createSink()).child({ a: 1 })
    const anotherCopy = Symbol('pino.chindings')
    expect(logger[anotherCopy]).toBe(logger[logx.symbols.chindingsSym])
    expect(anotherCopy in logger).toBe(true)
    expect(Symbol('pino.notASymbolOfPino') in logger).toBe(false)
    expect(logger[Symbol('pino.notASymbolOfPino')]).toBeUndefined()
    // A registered symbol with a pino description is not one of pino's private ones.
    expect(logger[Symbol.for('pino.chindings')]).toBeUndefined()
  })

  it('leave the logger an EventEmitter whose listeners and level-change work', () => {
    const logger: AnyLogger = logx(fixed as any, createSink())
    expect(logger).toBeInstanceOf(EventEmitter)
    const listener = vi.fn()
    logger.on('level-change', listener)
    logger.level = 'debug'
    expect(listener).toHaveBeenCalledWith('debug', 20, 'info', 30, logger)
    expect(Object.prototype.toString.call(logger)).toBe('[object Logx]')
  })

  it('leave lookups of what a logger lacks as on a plain object: await, then, iterators, inspect', async () => {
    const { pino: pinoLogger, logx: logger } = pair()
    for (const candidate of [pinoLogger, logger]) {
      // Promise resolution reads `then`: a logger must resolve to itself, not hang or throw.
      expect(await candidate).toBe(candidate)
      expect('then' in candidate).toBe(false)
      expect(candidate.foo).toBeUndefined()
      for (const key of [
        Symbol.iterator,
        Symbol.asyncIterator,
        Symbol.toPrimitive,
        inspect.custom,
        Symbol('pino.notOneOfPinos'),
      ]) {
        expect(candidate[key], String(key)).toBeUndefined()
        expect(key in candidate, String(key)).toBe(false)
      }
      expect(() => [...(candidate as any)]).toThrow(TypeError)
      expect(JSON.stringify(candidate)).toBe(JSON.stringify({ levels: candidate.levels }))
      expect(inspect(candidate)).toMatch(/^EventEmitter \[(Pino|Logx)\] \{/)
      candidate.custom = 1
      expect(Object.hasOwn(candidate, 'custom')).toBe(true)
    }
    expect(Object.keys({ ...logger })).toEqual(Object.keys(logger))
  })
})

describe('the stream-side symbols', () => {
  it("a destination flagged with pino's metadata symbol gets lastLevel and friends (pino.multistream routes on them)", () => {
    const run = (factory: any): string[][] => {
      const info = createSink()
      const errors = createSink()
      const multi = pino.multistream([
        { stream: info as any, level: 'info' },
        { stream: errors as any, level: 'error' },
      ])
      const logger = factory({ ...fixed, level: 'debug' }, multi)
      logger.debug('dropped')
      logger.info('to info')
      logger.error('to both')
      return [info.lines, errors.lines]
    }
    const expected = run(pino)
    expect(expected[1]).toHaveLength(1)
    expect(run(logx)).toEqual(expected)
  })

  it('a stream flagged as a multi-target transport warns about a non-numeric level formatter, as pino does', async () => {
    for (const flag of [Symbol.for('pino.transport.usesMultistream'), logx.symbols.transportUsesMultistreamSym]) {
      const warnings: string[] = []
      const onWarning = (warning: Error & { code?: string }): void => {
        warnings.push(String(warning.code))
      }
      process.on('warning', onWarning)
      try {
        const stream = Object.assign(createSink(), { [flag]: true })
        logx({ formatters: { level: (label: string) => ({ level: label }) } } as any, stream as any)
        logx({ formatters: { level: (_label: string, value: number) => ({ level: value }) } } as any, stream as any)
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve))
      } finally {
        process.off('warning', onWarning)
      }
      expect(warnings).toEqual(['LOGX_TRANSPORT_MULTI_TARGETS_LEVEL_FORMATTER'])
    }
  })
})
