// The otel option: the active OpenTelemetry span's ids on every line. pino gets them from
// @opentelemetry/instrumentation-pino, which patches pino as it is required and so misses an app
// that imports it as ESM; here the logger asks @opentelemetry/api itself, whose active context is
// global (shared by every copy of the API in the process), however the app loaded anything.
// @opentelemetry/api is an optional peer dependency: required once, by the first logger that wants
// it; a logger that does not never loads it. Without the option (the default) a logger wants it when
// an OpenTelemetry SDK has registered a context manager before the logger was made, as an SDK started
// with `--require`/`--import` has: only then can a span be active, so a process without OpenTelemetry
// pays nothing per line and loads nothing. `otel: true` wants it always (and warns when it is not
// installed), `otel: false` never.
import { LogxError, LogxErrorCodes } from './errors'

export interface OtelOptions {
  /** Keys of the three fields; the defaults are instrumentation-pino's. */
  logKeys?: { traceId?: string; spanId?: string; traceFlags?: string }
}

interface SpanContextLike {
  traceId: string
  spanId: string
  traceFlags: number
}

/** The part of @opentelemetry/api this file uses. */
interface OtelApi {
  trace: { getSpanContext(context: unknown): SpanContextLike | undefined }
  context: { active(): unknown }
  isSpanContextValid(spanContext: SpanContextLike): boolean
}

let loaded: OtelApi | null | undefined

/** Where @opentelemetry/api 1.x keeps what an SDK registered (a context manager under `context`). */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1')

/** Has an OpenTelemetry SDK registered a context manager in this process? Reads one global, loads nothing. */
export function otelContextRegistered(): boolean {
  const registered = (globalThis as Record<symbol, { context?: unknown } | undefined>)[OTEL_GLOBAL]
  return registered !== undefined && registered !== null && registered.context !== undefined
}

function loadOtelApi(quiet: boolean): OtelApi | null {
  if (loaded !== undefined) return loaded
  try {
    loaded = require('@opentelemetry/api') as OtelApi
  } catch (err) {
    loaded = null
    if (quiet) return loaded
    const reason =
      (err as { code?: unknown }).code === 'MODULE_NOT_FOUND' ? 'it is not installed' : (err as Error).message
    process.emitWarning(
      `logx: the otel option needs @opentelemetry/api, which could not be loaded (${reason}); lines carry no trace ids`,
      {
        code: 'LOGX_OTEL_API_MISSING',
      },
    )
  }
  return loaded
}

export function assertOtelOptions(value: unknown): void {
  if (value === undefined || typeof value === 'boolean') return
  const fail = (path: string, message: string): never => {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${path}: ${message}`, path)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('otel', 'expected true, false or { logKeys }')
  const { logKeys } = value as OtelOptions
  if (logKeys === undefined) return
  if (typeof logKeys !== 'object' || logKeys === null) fail('otel.logKeys', 'expected { traceId, spanId, traceFlags }')
  for (const key of ['traceId', 'spanId', 'traceFlags'] as const) {
    const name = (logKeys as Record<string, unknown>)[key]
    if (name !== undefined && (typeof name !== 'string' || name === ''))
      fail(`otel.logKeys.${key}`, 'expected a non-empty string')
  }
}

/** `() => ',"trace_id":"…","span_id":"…","trace_flags":"01"'` for the active span, or undefined without the API. */
export function createOtelBindings(options: true | OtelOptions, quiet = false): (() => string) | undefined {
  const api = loadOtelApi(quiet)
  if (api === null) return undefined
  const keys = options === true ? undefined : options.logKeys
  const traceIdPrefix = ',' + JSON.stringify(keys?.traceId ?? 'trace_id') + ':"'
  const spanIdPrefix = '",' + JSON.stringify(keys?.spanId ?? 'span_id') + ':"'
  const flagsPrefix = '",' + JSON.stringify(keys?.traceFlags ?? 'trace_flags') + ':"'
  const { trace, context, isSpanContextValid } = api
  const fragmentOf = (spanContext: SpanContextLike | undefined): string => {
    if (spanContext === undefined || !isSpanContextValid(spanContext)) return ''
    // A valid span context holds hex ids only, so they need no escaping.
    const flags = spanContext.traceFlags
    return (
      traceIdPrefix +
      spanContext.traceId +
      spanIdPrefix +
      spanContext.spanId +
      flagsPrefix +
      (flags < 16 ? '0' : '') +
      flags.toString(16) +
      '"'
    )
  }
  // Lines of one context follow each other, and contexts and span contexts are immutable
  // (OpenTelemetry's rule): the last fragment is kept, keyed by both, and only once it was built
  // (a malformed span context that throws must not leave the previous span's ids in place).
  let lastContext: unknown = {}
  let lastSpanContext: SpanContextLike | undefined
  let lastFragment = ''
  return () => {
    const active = context.active()
    if (active !== lastContext) {
      const spanContext = trace.getSpanContext(active)
      if (spanContext !== lastSpanContext) {
        lastFragment = fragmentOf(spanContext)
        lastSpanContext = spanContext
      }
      lastContext = active
    }
    return lastFragment
  }
}
