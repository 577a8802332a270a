import { describe, expect, it, vi } from 'vitest'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const quiet = { base: null, timestamp: false }

describe('levels', () => {
  it('exposes the levels table on the factory and the logger', () => {
    const logger = logx(quiet, createSink())
    expect(logger.levels.values).toEqual({ trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 })
    expect(logger.levels.labels[40]).toBe('warn')
    expect(logger.levels.values.silent).toBe(Infinity)
    expect(logx.levels.values.fatal).toBe(60)
  })

  it('level getter/setter and levelVal', () => {
    const sink = createSink()
    const logger = logx({ ...quiet, level: 'warn' }, sink)
    expect(logger.level).toBe('warn')
    expect(logger.levelVal).toBe(40)
    logger.info('hidden')
    logger.level = 'debug'
    logger.debug('shown')
    expect(logger.levelVal).toBe(20)
    expect(sink.records()).toEqual([{ level: 20, msg: 'shown' }])
    expect(() => {
      ;(logger as any).levelVal = 10
    }).toThrow(/read-only/)
  })

  it('level names are case-insensitive for the built-in levels at construction', () => {
    expect(logx({ level: 'WARN' }, createSink()).level).toBe('warn')
  })

  it('isLevelEnabled answers for known and unknown levels', () => {
    const logger = logx({ level: 'info', customLevels: { notice: 35 } }, createSink())
    expect(logger.isLevelEnabled('info')).toBe(true)
    expect(logger.isLevelEnabled('notice')).toBe(true)
    expect(logger.isLevelEnabled('debug')).toBe(false)
    expect(logger.isLevelEnabled('nope')).toBe(false)
  })

  it('silent disables everything and silent() is a no-op', () => {
    const sink = createSink()
    const logger = logx({ level: 'silent' }, sink)
    logger.fatal('x')
    logger.silent('x')
    expect(sink.lines).toEqual([])
    expect(logger.isLevelEnabled('fatal')).toBe(false)
  })

  it('an unknown level is a clear error with a stable code', () => {
    expect(() => logx({ level: 'loud' }, createSink())).toThrow(
      expect.objectContaining({
        code: 'LOGX_ERR_DEFAULT_LEVEL_NOT_FOUND',
        message: expect.stringContaining('default level:loud must be included in custom levels'),
      }),
    )
    const logger = logx({}, createSink())
    expect(() => {
      logger.level = 'loud'
    }).toThrow(
      expect.objectContaining({
        code: 'LOGX_ERR_UNKNOWN_LEVEL',
        message: expect.stringContaining('unknown level loud'),
      }),
    )
    expect(logger.level).toBe('info')
  })

  it('custom levels add methods and can be the threshold', () => {
    const sink = createSink()
    const logger = logx({ ...quiet, customLevels: { notice: 35 }, level: 'notice' }, sink)
    logger.info('no')
    logger.notice('yes')
    expect(sink.records()).toEqual([{ level: 35, msg: 'yes' }])
    expect(logger.levels.labels[35]).toBe('notice')
  })

  it('the root may renumber a built-in level, whose method keeps its number (pino)', () => {
    const sink = createSink()
    const logger = logx({ ...quiet, customLevels: { trace: 1 }, level: 'trace' }, sink)
    logger.trace('t')
    expect(logger.levelVal).toBe(1)
    expect(sink.records()).toEqual([{ level: 10, msg: 't' }])
  })

  it("a child's custom levels may not override a level name or reuse a value", () => {
    const logger = logx({ customLevels: { notice: 35 } }, createSink())
    expect(() => logger.child({}, { customLevels: { shout: 30 } })).toThrow(/pre-existing level values/)
    expect(() => logger.child({}, { customLevels: { warn: 45 } })).toThrow(/levels cannot be overridden/)
    expect(() => logx({ customLevels: { bad: 'x' as any } }, createSink())).toThrow(
      expect.objectContaining({ code: 'LOGX_ERR_INVALID_OPTION', path: 'customLevels.bad' }),
    )
  })

  it('useOnlyCustomLevels removes the built-in methods', () => {
    const logger = logx({ customLevels: { low: 1, high: 2 }, useOnlyCustomLevels: true, level: 'low' }, createSink())
    expect((logger as any).info).toBeUndefined()
    expect(() => (logger as any).info('x')).toThrow(TypeError)
    expect(() => logx({ useOnlyCustomLevels: true }, createSink())).toThrow(/customLevels is required/)
    expect(() => logx({ customLevels: { low: 1 }, useOnlyCustomLevels: true }, createSink())).toThrow(
      /default level:info must be included/,
    )
  })

  it("a child's custom levels replace its parent's custom levels (pino)", () => {
    const sink = createSink()
    const logger = logx({ ...quiet, customLevels: { notice: 35 } }, sink)
    const child = logger.child({ c: 1 }, { customLevels: { audit: 45 } })
    child.audit('a')
    expect(child.levels.values.notice).toBeUndefined()
    child.info('i')
    expect(sink.records()).toEqual([
      { level: 45, c: 1, msg: 'a' },
      { level: 30, c: 1, msg: 'i' },
    ])
    const notice = logx({ ...quiet, customLevels: { notice: 35 }, level: 'notice' }, sink)
    expect(() => notice.child({}, { customLevels: { audit: 45 } })).toThrow('unknown level notice')
  })

  it('levelComparison DESC inverts the order', () => {
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        levelComparison: 'DESC',
        customLevels: { top: 1, low: 100 },
        useOnlyCustomLevels: true,
        level: 'top',
      },
      sink,
    )
    logger.low('no')
    logger.top('yes')
    expect(sink.records()).toEqual([{ level: 1, msg: 'yes' }])
  })
})

describe('level-change event', () => {
  it('fires with label, value, previous label, previous value and the logger', () => {
    const logger = logx({}, createSink())
    const listener = vi.fn()
    logger.on('level-change', listener)
    logger.level = 'error'
    expect(listener).toHaveBeenCalledWith('error', 50, 'info', 30, logger)
  })

  it('fires for a child only when the child gets a level of its own (pino 10)', () => {
    const logger = logx({}, createSink())
    const seen: unknown[][] = []
    logger.on('level-change', (...args: unknown[]) => seen.push(args))
    const child = logger.child({ a: 1 })
    const debugChild = logger.child({ b: 1 }, { level: 'debug' })
    logger.child({ c: 1 }, { level: 'info' })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toEqual(['debug', 20, 'info', 30, debugChild])
    expect(seen[0]![4]).toBe(debugChild)
    void child
    // A listener interested in its own logger only compares the last argument.
    expect(seen.filter((args) => args[4] === logger)).toHaveLength(0)
  })

  it('a child level changes independently of the parent', () => {
    const sink = createSink()
    const logger = logx(quiet, sink)
    const child = logger.child({ c: 1 })
    child.level = 'error'
    logger.info('parent still info')
    child.info('child hidden')
    expect(logger.level).toBe('info')
    expect(sink.records()).toEqual([{ level: 30, msg: 'parent still info' }])
  })
})
