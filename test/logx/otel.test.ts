// The otel option: the active OpenTelemetry span's ids on every line, asked of @opentelemetry/api
// itself (an optional peer dependency), so it works in ESM apps where pino's module patching misses.
// Spans here are real ones from @opentelemetry/api, made active by a minimal context manager.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AsyncLocalStorage } from 'node:async_hooks'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import {
  context,
  trace,
  ROOT_CONTEXT,
  TraceFlags,
  INVALID_SPAN_CONTEXT,
  type Context,
  type ContextManager,
  type SpanContext,
} from '@opentelemetry/api'
import logx from 'logx'
import { createSink } from '../helpers/sink'
import { tempDir } from '../helpers/temp-dir'

const quiet = { base: null, timestamp: false }
const root = resolve(__dirname, '../..')
const traceId = '0af7651916cd43dd8448eb211c80319c'
const spanId = 'b7ad6b7169203331'

/** The least a context manager does: the active context follows async calls, via AsyncLocalStorage. */
class StorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>()
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.apply(thisArg, args))
  }
  bind<T>(_ctx: Context, target: T): T {
    return target
  }
  enable(): this {
    return this
  }
  disable(): this {
    this.storage.disable()
    return this
  }
}

/** Runs `fn` with a span of these ids active, as an instrumented server would during a request. */
function inSpan<T>(fn: () => T, flags: TraceFlags = TraceFlags.SAMPLED, ids = { traceId, spanId }): T {
  const span = trace.wrapSpanContext({ ...ids, traceFlags: flags })
  return context.with(trace.setSpan(context.active(), span), fn)
}

beforeAll(() => {
  expect(context.setGlobalContextManager(new StorageContextManager())).toBe(true)
})
afterAll(() => {
  context.disable()
})

/** Runs a script in a fresh node and returns stdout, stderr and the status. */
function runScript(
  name: string,
  source: string,
  args: string[] = [],
): { stdout: string; stderr: string; status: number | null } {
  const dir = tempDir('otel', { parent: root })
  const file = join(dir, name)
  writeFileSync(file, source)
  const result = spawnSync(process.execPath, [...args, file], { cwd: root, encoding: 'utf8' })
  return { stdout: result.stdout, stderr: result.stderr, status: result.status }
}

describe('otel', () => {
  it("writes trace_id, span_id and trace_flags of the active span, after the logger's bindings", async () => {
    const sink = createSink()
    const logger = logx({ ...quiet, base: {}, name: 'api', otel: true }, sink)
    await inSpan(async () => {
      logger.info('in the span')
      await new Promise((resolve) => setImmediate(resolve))
      logger.child({ module: 'db' }).warn({ rows: 1 }, 'after an await')
    })
    logger.info('no span')
    expect(sink.lines).toEqual([
      `{"level":30,"name":"api","trace_id":"${traceId}","span_id":"${spanId}","trace_flags":"01","msg":"in the span"}\n`,
      `{"level":40,"name":"api","module":"db","trace_id":"${traceId}","span_id":"${spanId}","trace_flags":"01","rows":1,"msg":"after an await"}\n`,
      '{"level":30,"name":"api","msg":"no span"}\n',
    ])
  })

  it('an unsampled span gives trace_flags "00"; an invalid span context gives nothing', () => {
    const sink = createSink()
    const logger = logx({ ...quiet, otel: true }, sink)
    inSpan(() => logger.info('unsampled'), TraceFlags.NONE)
    inSpan(() => logger.info('invalid'), TraceFlags.SAMPLED, INVALID_SPAN_CONTEXT)
    expect(sink.records()).toEqual([
      { level: 30, trace_id: traceId, span_id: spanId, trace_flags: '00', msg: 'unsampled' },
      { level: 30, msg: 'invalid' },
    ])
  })

  it("lines of different spans, interleaved, each carry their own span's ids", () => {
    const sink = createSink()
    const logger = logx({ ...quiet, otel: true }, sink)
    const other = { traceId: 'f'.repeat(32), spanId: '1'.repeat(16) }
    inSpan(() => logger.info('a'))
    inSpan(() => logger.info('b'), TraceFlags.SAMPLED, other)
    logger.info('none')
    inSpan(() => logger.info('a again'))
    expect(sink.records().map((r) => [r.msg, r.span_id])).toEqual([
      ['a', spanId],
      ['b', other.spanId],
      ['none', undefined],
      ['a again', spanId],
    ])
  })

  it("a malformed span context costs its own lines their ids, never gives them the previous span's", () => {
    const sink = createSink()
    const logger = logx({ ...quiet, otel: true }, sink)
    inSpan(() => logger.info('a'))
    // Valid ids, but traceFlags missing (a broken SDK): the fragment cannot be built.
    const other = { traceId: 'f'.repeat(32), spanId: '1'.repeat(16) }
    const broken = trace.wrapSpanContext({ ...other } as SpanContext)
    context.with(trace.setSpan(context.active(), broken), () => {
      logger.info('b1')
      logger.info('b2')
    })
    inSpan(() => logger.info('a again'))
    expect(sink.records().map((r) => [r.msg, r.span_id])).toEqual([
      ['a', spanId],
      ['b1', undefined],
      ['b2', undefined],
      ['a again', spanId],
    ])
  })

  it('a span started by a tracer inside the active one carries the trace on', () => {
    const sink = createSink()
    const logger = logx({ ...quiet, otel: true }, sink)
    inSpan(() =>
      trace.getTracer('test').startActiveSpan('inner', (span) => {
        logger.info('inner')
        span.end()
      }),
    )
    expect(sink.last()).toMatchObject({ trace_id: traceId, span_id: spanId })
  })

  it('logKeys renames the fields; asyncContext bindings follow them', () => {
    const storage = new AsyncLocalStorage<Record<string, unknown>>()
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        otel: { logKeys: { traceId: 'traceId', spanId: 'spanId', traceFlags: 'flags' } },
        asyncContext: { storage },
      },
      sink,
    )
    storage.run({ reqId: 'r-1' }, () => inSpan(() => logger.info('both')))
    expect(sink.lines[0]).toBe(
      `{"level":30,"traceId":"${traceId}","spanId":"${spanId}","flags":"01","reqId":"r-1","msg":"both"}\n`,
    )
  })

  it('without the option, ids come once an SDK has registered a context manager; otel: false writes none', () => {
    const sink = createSink()
    inSpan(() => {
      logx({ ...quiet, otel: false }, sink).info('off')
      logx(quiet, sink).info('default')
    })
    expect(sink.records()).toEqual([
      { level: 30, msg: 'off' },
      { level: 30, trace_id: traceId, span_id: spanId, trace_flags: '01', msg: 'default' },
    ])
  })

  it('without the option and without an SDK, nothing is loaded and lines carry no ids', () => {
    const { stdout, stderr, status } = runScript(
      'no-sdk.js',
      `const logx = require(${JSON.stringify(join(root, 'dist/logx/index.js'))})
logx({ base: null, timestamp: false }).info('plain')
process.stderr.write('otel modules: ' + Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length)`,
    )
    // The count goes to stderr: the logger's asynchronous stdout and a synchronous write to the same pipe
    // may land in either order (pino's too).
    expect(status).toBe(0)
    expect(stdout).toBe('{"level":30,"msg":"plain"}\n')
    expect(stderr).toBe('otel modules: 0')
  })

  it('refuses a malformed option, naming it', () => {
    expect(() => logx({ otel: 'yes' as any })).toThrow('otel: expected true, false or { logKeys }')
    expect(() => logx({ otel: { logKeys: { traceId: '' } } })).toThrow(
      'otel.logKeys.traceId: expected a non-empty string',
    )
  })

  it('loads @opentelemetry/api only for a logger that asks for it', () => {
    const probe = `
      const logx = require('logx')
      const loaded = () => Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length
      logx({}, { write() {} }).info('x')
      const before = loaded()
      logx({ otel: true }, { write() {} }).info('x')
      process.stdout.write(JSON.stringify([before, loaded() > 0]))`
    const { stdout, status } = runScript('probe.cjs', probe)
    expect(status).toBe(0)
    expect(JSON.parse(stdout)).toEqual([0, true])
  })

  it('without @opentelemetry/api installed, lines carry no ids and one warning says why', () => {
    // Resolution of the package fails, as in an app that does not depend on it.
    const hide = `
      const Module = require('node:module')
      const resolveFilename = Module._resolveFilename
      Module._resolveFilename = function (request, ...rest) {
        if (request === '@opentelemetry/api') throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' })
        return resolveFilename.call(this, request, ...rest)
      }`
    const dir = tempDir('otel-hide', { parent: root })
    writeFileSync(join(dir, 'hide.cjs'), hide)
    const app = `
      const logx = require('logx')
      const a = logx({ base: null, timestamp: false, otel: true })
      const b = logx({ base: null, timestamp: false, otel: true })
      a.info('first'); b.info('second')
      process.on('exit', () => process.stderr.write('otel modules: ' + Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length))`
    const { stdout, stderr, status } = runScript('app.cjs', app, ['--require', join(dir, 'hide.cjs')])
    expect(status).toBe(0)
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { level: 30, msg: 'first' },
      { level: 30, msg: 'second' },
    ])
    expect(stderr.match(/LOGX_OTEL_API_MISSING/g)).toHaveLength(1)
    expect(stderr).toContain('it is not installed')
    expect(stderr).toContain('otel modules: 0')
  })

  it('works in an ESM app that imports @opentelemetry/api itself (its ESM build; logx requires the CJS one)', () => {
    const app = `
      import { AsyncLocalStorage } from 'node:async_hooks'
      import { context, trace, ROOT_CONTEXT, TraceFlags } from '@opentelemetry/api'
      import logx from 'logx'
      const storage = new AsyncLocalStorage()
      context.setGlobalContextManager({
        active: () => storage.getStore() ?? ROOT_CONTEXT,
        with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.apply(thisArg, args)),
        bind: (ctx, target) => target,
        enable() { return this },
        disable() { return this },
      })
      const logger = logx({ base: null, timestamp: false, otel: true })
      const span = trace.wrapSpanContext({ traceId: '${traceId}', spanId: '${spanId}', traceFlags: TraceFlags.SAMPLED })
      await context.with(trace.setSpan(ROOT_CONTEXT, span), async () => {
        await new Promise((resolve) => setTimeout(resolve, 1))
        logger.info('from esm')
      })`
    const { stdout, stderr, status } = runScript('app.mjs', app)
    expect(stderr).toBe('')
    expect(status).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      level: 30,
      trace_id: traceId,
      span_id: spanId,
      trace_flags: '01',
      msg: 'from esm',
    })
  })
})
