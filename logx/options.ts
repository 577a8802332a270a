// Factory arguments: (options?, destination?) in every shape pino accepts, validated with errors
// that name the option, then normalized into one fully-defaulted object.
import { hostname } from 'node:os'
import { LogxError, LogxErrorCodes } from './errors'
import { err as errSerializer } from './serializers'
import { epochTime, nullTime, type TimeFn } from './time'
import { DEFAULT_LEVELS, assertCustomLevels, assertNoLevelCollisions, createLevelMapping, type LevelComparison } from './levels'
import type { LogMethodHook } from './log-method'
import type { TransportOptions } from './transport'
import { assertAsyncContextOptions, type AsyncContextOptions } from './async-context'
import { assertOtelOptions, type OtelOptions } from './otel'

export type Serializer = (value: any) => unknown
export type Bindings = Record<string, unknown>

export interface Formatters {
  level?: (label: string, value: number) => object
  bindings?: (bindings: Bindings) => Bindings
  log?: (object: Record<string, unknown>) => Record<string, unknown>
}

export interface Hooks {
  logMethod?: LogMethodHook
  streamWrite?: (line: string) => string
}

export interface LoggerOptions {
  name?: string
  level?: string
  customLevels?: Record<string, number>
  useOnlyCustomLevels?: boolean
  levelComparison?: LevelComparison
  depthLimit?: number
  edgeLimit?: number
  mixin?: (mergeObject: object, level: number, logger: unknown) => object
  mixinMergeStrategy?: (mergeObject: object, mixinObject: object) => object
  redact?: string[] | { paths: string[]; censor?: string | ((value: unknown, path: string[]) => unknown); remove?: boolean }
  hooks?: Hooks
  formatters?: Formatters
  /** `err: undefined` or `err: null` turns the default error serializer off, as in pino. */
  serializers?: Record<string | symbol, Serializer | null | undefined>
  base?: Bindings | null
  enabled?: boolean
  crlf?: boolean
  timestamp?: boolean | TimeFn
  messageKey?: string
  errorKey?: string
  nestedKey?: string | null
  msgPrefix?: string
  browser?: Record<string, unknown>
  transport?: TransportOptions
  onChild?: (child: any) => void
  /** Bindings from an AsyncLocalStorage store on every line logged while it is active. */
  asyncContext?: AsyncContextOptions
  /** `trace_id`, `span_id`, `trace_flags` of the active OpenTelemetry span on every line (needs @opentelemetry/api). */
  otel?: boolean | OtelOptions
}

export interface NormalizedOptions {
  name: string | undefined
  level: string | number
  customLevels: Record<string, number> | null
  useOnlyCustomLevels: boolean
  levelComparison: LevelComparison | undefined
  depthLimit: number
  edgeLimit: number
  mixin: LoggerOptions['mixin']
  mixinMergeStrategy: LoggerOptions['mixinMergeStrategy']
  redact: LoggerOptions['redact'] | undefined
  hooks: Hooks
  formatters: Required<Pick<Formatters, 'level' | 'bindings'>> & Pick<Formatters, 'log'>
  serializers: Record<string | symbol, Serializer>
  base: Bindings | null
  crlf: boolean
  time: TimeFn
  messageKey: string
  errorKey: string
  nestedKey: string | null
  msgPrefix: string | undefined
  transport: TransportOptions | undefined
  onChild: ((child: any) => void) | undefined
  asyncContext: AsyncContextOptions | undefined
  otel: boolean | OtelOptions | undefined
}

export const defaultLevelFormatter = (_label: string, value: number): object => ({ level: value })
const identityBindings = (bindings: Bindings): Bindings => bindings

function fail(option: string, message: string): never {
  throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${option}: ${message}`, option)
}

function expectType(options: LoggerOptions, key: keyof LoggerOptions, type: 'string' | 'function' | 'boolean' | 'number' | 'object'): void {
  const value = options[key]
  if (value === undefined) return
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  if (actual !== type) fail(key, `expected a ${type}, got ${actual}`)
}

/** Is this the destination passed in the options position (`logx(stream)`)? */
export function looksLikeStream(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Record<string, unknown>
  return typeof candidate.write === 'function' && (candidate.writable === true || candidate._writableState !== undefined || typeof candidate.flushSync === 'function' || !hasKnownOption(candidate))
}

const KNOWN_OPTIONS = new Set<string>([
  'name', 'level', 'customLevels', 'useOnlyCustomLevels', 'levelComparison', 'depthLimit', 'edgeLimit', 'mixin',
  'mixinMergeStrategy', 'redact', 'hooks', 'formatters', 'serializers', 'base', 'enabled', 'crlf', 'timestamp',
  'messageKey', 'errorKey', 'nestedKey', 'msgPrefix', 'browser', 'transport', 'onChild', 'asyncContext', 'otel',
])

function hasKnownOption(value: Record<string, unknown>): boolean {
  for (const key of Object.keys(value)) if (KNOWN_OPTIONS.has(key)) return true
  return false
}

export function normalizeOptions(options: LoggerOptions): NormalizedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'options must be an object', 'options')
  }
  if ('prettyPrint' in options) fail('prettyPrint', 'no longer supported: use the pino-pretty transport (transport: { target: "pino-pretty" })')
  for (const key of ['name', 'messageKey', 'errorKey', 'msgPrefix'] as const) expectType(options, key, 'string')
  for (const key of ['mixin', 'mixinMergeStrategy', 'onChild'] as const) expectType(options, key, 'function')
  for (const key of ['useOnlyCustomLevels', 'enabled', 'crlf'] as const) expectType(options, key, 'boolean')
  for (const key of ['depthLimit', 'edgeLimit'] as const) {
    expectType(options, key, 'number')
    const value = options[key]
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) fail(key, `expected a non-negative integer, got ${value}`)
  }
  for (const key of ['hooks', 'formatters', 'serializers', 'browser', 'transport'] as const) expectType(options, key, 'object')
  if (options.timestamp !== undefined && typeof options.timestamp !== 'boolean' && typeof options.timestamp !== 'function') {
    fail('timestamp', `expected a boolean or a function returning ',"time":…', got ${typeof options.timestamp}`)
  }
  if (options.level !== undefined && typeof options.level !== 'string' && typeof options.level !== 'number') {
    fail('level', `expected a level name, got ${typeof options.level}`)
  }
  if (options.nestedKey !== undefined && options.nestedKey !== null && typeof options.nestedKey !== 'string') fail('nestedKey', 'expected a string')
  if (options.base !== undefined && options.base !== null && (typeof options.base !== 'object' || Array.isArray(options.base))) fail('base', 'expected an object or null')
  if (options.customLevels !== undefined && options.customLevels !== null) {
    assertCustomLevels(options.customLevels)
    if (!options.useOnlyCustomLevels) {
      // Restating a built-in level as it is is harmless; changing one would silently renumber lines.
      const changed = Object.fromEntries(Object.entries(options.customLevels).filter(([label, value]) => DEFAULT_LEVELS[label] !== value))
      assertNoLevelCollisions(createLevelMapping(null), changed)
    }
  }
  if (options.useOnlyCustomLevels && !options.customLevels) fail('useOnlyCustomLevels', 'customLevels is required if useOnlyCustomLevels is set true')
  for (const key of ['level', 'bindings', 'log'] as const) {
    const formatter = options.formatters?.[key]
    if (formatter !== undefined && typeof formatter !== 'function') fail(`formatters.${key}`, 'expected a function')
  }
  for (const key of ['logMethod', 'streamWrite'] as const) {
    const hook = options.hooks?.[key]
    if (hook !== undefined && typeof hook !== 'function') fail(`hooks.${key}`, 'expected a function')
  }
  if (options.serializers) {
    for (const key of Object.keys(options.serializers)) {
      const serializer = options.serializers[key]
      if (serializer !== undefined && serializer !== null && typeof serializer !== 'function') fail(`serializers.${key}`, 'expected a function, or null to turn it off')
    }
  }
  if (options.asyncContext !== undefined) assertAsyncContextOptions(options.asyncContext)
  assertOtelOptions(options.otel)

  let level: string | number = options.level ?? 'info'
  if (typeof level === 'string' && DEFAULT_LEVELS[level.toLowerCase()] !== undefined) level = level.toLowerCase()
  if (options.enabled === false) level = 'silent'

  const timestamp = options.timestamp ?? true
  const base = options.base === undefined ? { pid: process.pid, hostname: hostname() } : options.base

  return {
    name: options.name,
    level,
    customLevels: options.customLevels ?? null,
    useOnlyCustomLevels: options.useOnlyCustomLevels ?? false,
    levelComparison: options.levelComparison,
    depthLimit: options.depthLimit ?? 5,
    edgeLimit: options.edgeLimit ?? 100,
    mixin: options.mixin,
    mixinMergeStrategy: options.mixinMergeStrategy,
    redact: options.redact,
    hooks: { logMethod: options.hooks?.logMethod, streamWrite: options.hooks?.streamWrite },
    formatters: {
      level: options.formatters?.level ?? defaultLevelFormatter,
      bindings: options.formatters?.bindings ?? identityBindings,
      log: options.formatters?.log,
    },
    serializers: withoutNulls(Object.assign(Object.create(null), { err: errSerializer }, options.serializers)),
    base,
    crlf: options.crlf ?? false,
    time: typeof timestamp === 'function' ? timestamp : timestamp ? epochTime : nullTime,
    messageKey: options.messageKey ?? 'msg',
    errorKey: options.errorKey ?? 'err',
    nestedKey: options.nestedKey ?? null,
    msgPrefix: options.msgPrefix,
    transport: options.transport,
    onChild: options.onChild,
    asyncContext: options.asyncContext,
    otel: options.otel,
  }
}

/** A serializer given as null or undefined is no serializer (how pino users turn the default `err` off). */
function withoutNulls(serializers: Record<string | symbol, Serializer | null | undefined>): Record<string | symbol, Serializer> {
  for (const key of [...Object.keys(serializers), ...Object.getOwnPropertySymbols(serializers)]) {
    if (serializers[key] === undefined || serializers[key] === null) delete serializers[key]
  }
  return serializers as Record<string | symbol, Serializer>
}
