// Tests of apps (and pino's own) wrap a child logger's level methods with sinon: a spy or stub on
// one child must leave its parent and its siblings alone, and restore must give the method back.
import { afterEach, describe, expect, it } from 'vitest'
import sinon from 'sinon'
import pino from 'pino'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const quiet = { base: null, timestamp: false }
type AnyLogger = Record<string, any>

afterEach(() => {
  sinon.restore()
})

describe.each([
  ['pino', pino],
  ['logx', logx],
])('sinon on child loggers of %s', (_name, factory) => {
  function family(options: object = {}): {
    sink: ReturnType<typeof createSink>
    root: AnyLogger
    a: AnyLogger
    b: AnyLogger
  } {
    const sink = createSink()
    const root: AnyLogger = (factory as any)({ ...quiet, ...options }, sink)
    return { sink, root, a: root.child({ child: 'a' }), b: root.child({ child: 'b' }) }
  }

  it("a spy on one child sees only that child's calls, and the line is still written", () => {
    const { sink, root, a, b } = family()
    const spy = sinon.spy(a, 'info')
    a.info('from a')
    b.info('from b')
    root.info('from root')
    expect(spy.callCount).toBe(1)
    expect(spy.firstCall.args).toEqual(['from a'])
    expect(sink.records().map((r) => r.msg)).toEqual(['from a', 'from b', 'from root'])
    expect(root.info).not.toBe(a.info)
    expect(b.info).toBe(root.info)
  })

  it('stubs on two siblings are independent, and restore hands the methods back', () => {
    const { sink, root, a, b } = family()
    const stubA = sinon.stub(a, 'warn')
    const stubB = sinon.stub(b, 'warn')
    a.warn('a1')
    b.warn('b1')
    b.warn('b2')
    expect([stubA.callCount, stubB.callCount]).toEqual([1, 2])
    expect(sink.lines).toEqual([])
    sinon.restore()
    a.warn('a2')
    expect(sink.records()).toEqual([{ level: 40, child: 'a', msg: 'a2' }])
    expect(a.warn).toBe(root.warn)
  })

  it("works for a child with its own level, for fatal, and for a grandchild's parent", () => {
    const { root } = family()
    const debugChild = root.child({ c: 1 }, { level: 'debug' })
    const debugSpy = sinon.spy(debugChild, 'debug')
    debugChild.debug('d')
    expect(debugSpy.callCount).toBe(1)
    const fatalChild = root.child({ c: 2 })
    const fatalSpy = sinon.spy(fatalChild, 'fatal')
    root.child({ c: 3 }).fatal('another child')
    fatalChild.fatal('this one')
    expect(fatalSpy.callCount).toBe(1)
    const parent = root.child({ c: 4 })
    const grandchild = parent.child({ g: 1 })
    const parentSpy = sinon.spy(parent, 'error')
    grandchild.error('inherits the spy, as with any prototype')
    expect(parentSpy.callCount).toBe(1)
  })

  it("a spied child keeps its spy when the parent's level changes", () => {
    const { root, a } = family()
    const spy = sinon.spy(a, 'info')
    root.level = 'debug'
    a.info('still spied')
    expect(spy.callCount).toBe(1)
  })

  it('sinon.stub(child) replaces every method of that child only', () => {
    const { sink, root, a } = family()
    const stubbed = sinon.stub(a)
    a.error('stubbed')
    root.error('written')
    expect(stubbed.error.callCount).toBe(1)
    expect(sink.records()).toEqual([{ level: 50, msg: 'written' }])
  })
})
