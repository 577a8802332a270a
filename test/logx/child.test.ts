import { describe, expect, it, vi } from 'vitest'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const quiet = { base: null, timestamp: false }

describe('child loggers', () => {
  it('pin bindings to every line and share the parent destination', () => {
    const sink = createSink()
    const root = logx(quiet, sink)
    const child = root.child({ reqId: 1 })
    const grandchild = child.child({ user: 'ann' })
    root.info('r')
    child.info('c')
    grandchild.info('g')
    expect(sink.records()).toEqual([
      { level: 30, msg: 'r' },
      { level: 30, reqId: 1, msg: 'c' },
      { level: 30, reqId: 1, user: 'ann', msg: 'g' },
    ])
  })

  it('bindings() returns a clone of all bindings, inherited ones included', () => {
    const child = logx({ name: 'n' }, createSink())
      .child({ a: 1 })
      .child({ b: { c: 2 } })
    const bindings = child.bindings()
    expect(bindings).toEqual({ name: 'n', a: 1, b: { c: 2 } })
    ;(bindings.b as any).c = 99
    expect(child.bindings()).toEqual({ name: 'n', a: 1, b: { c: 2 } })
  })

  it('options.level starts the child elsewhere and stays mutable', () => {
    const sink = createSink()
    const child = logx({ ...quiet, level: 'info' }, sink).child({}, { level: 'debug' })
    expect(child.level).toBe('debug')
    child.debug('d')
    child.level = 'error'
    child.warn('hidden')
    expect(sink.records()).toEqual([{ level: 20, msg: 'd' }])
  })

  it('options.serializers override the parent, which keeps its own; the symbol exposes the effective set', () => {
    const sink = createSink()
    const upper = (v: string) => v.toUpperCase()
    const root = logx({ ...quiet, serializers: { a: () => 'root' } }, sink)
    const child = root.child({}, { serializers: { a: upper, b: upper } })
    const plain = root.child({ x: 1 })
    child.info({ a: 'x', b: 'y' })
    root.info({ a: 'x', b: 'y' })
    expect(sink.records()).toEqual([
      { level: 30, a: 'X', b: 'Y' },
      { level: 30, a: 'root', b: 'y' },
    ])
    const serializersSym = Symbol.for('logx.serializers')
    expect((plain as any)[serializersSym]).toBe((root as any)[serializersSym])
    expect((child as any)[serializersSym].a).toBe(upper)
    expect(typeof (child as any)[serializersSym].err).toBe('function')
  })

  it('reserved binding keys are left out of the line and configure nothing (pino 10)', () => {
    const sink = createSink()
    const child = logx(quiet, sink).child({ level: 'debug', serializers: { a: () => 'S' }, keep: 1 } as any)
    child.debug('not written: the level stays info')
    child.info({ a: 1 }, 'x')
    expect(sink.records()).toEqual([{ level: 30, keep: 1, a: 1, msg: 'x' }])
  })

  it('child() without bindings is an error', () => {
    expect(() => (logx({}, createSink()) as any).child()).toThrow(
      expect.objectContaining({ code: 'LOGX_ERR_MISSING_BINDINGS' }),
    )
  })

  it('onChild is called with each new child, and what it throws is not caught', () => {
    const seen: unknown[] = []
    const root = logx({ onChild: (c) => seen.push(c) }, createSink())
    const child = root.child({ a: 1 })
    const grandchild = child.child({ b: 1 })
    expect(seen).toEqual([child, grandchild])
    const throwing = logx(
      {
        onChild: () => {
          throw new Error('from onChild')
        },
      },
      createSink(),
    )
    expect(() => throwing.child({})).toThrow('from onChild')
  })

  it('logger.onChild is readable and reassignable, as in pino, for the children made afterwards', () => {
    const root = logx(quiet, createSink())
    expect(typeof root.onChild).toBe('function')
    const early = root.child({ a: 1 })
    const seen: unknown[] = []
    root.onChild = (c) => seen.push(c)
    const child = root.child({ b: 1 })
    const withOptions = root.child({ c: 1 }, { level: 'warn' })
    // A child made before the change inherits the new callback too (pino: a plain inherited property).
    const fromEarly = early.child({ d: 1 })
    expect(seen).toEqual([child, withOptions, fromEarly])
    child.onChild = function (this: unknown) {
      seen.push(this === child ? 'own, called on its logger' : 'own')
    }
    child.child({})
    root.child({})
    expect(seen.slice(3)).toEqual(['own, called on its logger', expect.anything()])
    expect(() => {
      ;(root as any).onChild = 'nope'
    }).toThrow(logx.LogxError)
  })

  it('options.redact is accepted, and an empty array removes the inherited redaction', () => {
    const sink = createSink()
    const root = logx({ ...quiet, redact: ['secret'] }, sink)
    root.child({}, { redact: ['other'] }).info({ secret: 's', other: 'o' })
    root.child({}, { redact: [] }).info({ secret: 's' })
    root.child({}).info({ secret: 's' })
    root.child({}, { redact: [] }).info('%j', { secret: 'interpolated' })
    expect(sink.records()).toEqual([
      { level: 30, secret: 's', other: '[Redacted]' },
      { level: 30, secret: 's' },
      { level: 30, secret: '[Redacted]' },
      { level: 30, msg: '{"secret":"interpolated"}' },
    ])
  })

  it('options.formatters replace the parent formatters for that child', () => {
    const sink = createSink()
    const child = logx(quiet, sink).child(
      { a: 1 },
      { formatters: { level: (label) => ({ lvl: label }), bindings: (b) => ({ ...b, tagged: true }) } },
    )
    child.info('x')
    // As in pino, a child's level formatter shapes the level only when the child has its own levels.
    expect(sink.last()).toEqual({ level: 30, a: 1, tagged: true, msg: 'x' })
    logx(quiet, sink)
      .child({}, { customLevels: { notice: 35 }, formatters: { level: (label) => ({ lvl: label }) } })
      .info('y')
    expect(sink.last()).toEqual({ lvl: 'info', msg: 'y' })
  })

  it("the root's bindings formatter shapes base only, not the bindings of children (pino)", () => {
    const calls: unknown[] = []
    const sink = createSink()
    const root = logx(
      {
        ...quiet,
        base: { pid: 1 },
        formatters: {
          bindings: (b) => {
            calls.push(b)
            return { ...b, seen: calls.length }
          },
        },
      },
      sink,
    )
    root.child({ a: 1 }).info('x')
    expect(calls).toEqual([{ pid: 1 }])
    expect(sink.last()).toEqual({ level: 30, pid: 1, seen: 1, a: 1, msg: 'x' })
  })

  it('msgPrefix accumulates down the tree', () => {
    const sink = createSink()
    const child = logx({ ...quiet, msgPrefix: 'A ' }, sink).child({}, { msgPrefix: 'B ' })
    child.info('msg')
    expect(child.msgPrefix).toBe('A B ')
    expect(sink.last().msg).toBe('A B msg')
  })
})
