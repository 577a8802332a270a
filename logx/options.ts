// Factory arguments: (options?, destination?) in every shape pino accepts, validated with errors
// that name the option, then normalized into one fully-defaulted object.
import { hostname } from 'node:os'
import { LogxError, LogxErrorCodes } from './errors'
import { err as errSerializer } from './serializers'
import { epochTime, nullTime, type TimeFn } from './time'
import { DEFAULT_LEVELS, assertCustomLevels, type LevelComparison } from './levels'
import type { TransportOptions } from './transport'
import { assertAsyncContextOptions } from './async-context'
import { identityBindings } from './chindings'
import { assertOtelOptions, type OtelOptions } from './otel'
import type { AsyncContextOptions, Bindings, Formatters, Hooks, Serializer } from './option-types'

export type { AsyncContextOptions, Bindings, Formatters, Hooks, Serializer }

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
  redact?:
    string[] | { paths: string[]; censor?: string | ((value: unknown, path: string[]) => unknown); remove?: boolean }
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
  onChild?: OnChild
  /** Bindings from an AsyncLocalStorage store on every line logged while it is active. */
  asyncContext?: AsyncContextOptions
  /** `trace_id`, `span_id`, `trace_flags` of the active OpenTelemetry span on every line (needs @opentelemetry/api). */
  otel?: boolean | OtelOptions
}

/**
 * Called with each new child. Method syntax keeps the parameter bivariant, so a callback typed
 * with the user's own Logger is accepted while logx hands it the child as it is.
 */
export type OnChild = { onChild(child: unknown): void }['onChild']

export interface NormalizedOptions {
  name: string | undefined
  level: string | number
  customLevels: Record<string, number> | null
  useOnlyCustomLevels: boolean
  levelComparison: LevelComparison | undefined
  depthLimit: number | undefined
  edgeLimit: number | undefined
  mixin: LoggerOptions['mixin']
  mixinMergeStrategy: LoggerOptions['mixinMergeStrategy']
  redact: LoggerOptions['redact'] | undefined
  hooks: Hooks
  formatters: Required<Pick<Formatters, 'level' | 'bindings'>> & Pick<Formatters, 'log'>
  serializers: Record<string | symbol, Serializer>
  /** undefined when the option was given as undefined: no pid or hostname, as in pino. */
  base: Bindings | null | undefined
  crlf: boolean
  time: TimeFn
  messageKey: string
  errorKey: string
  nestedKey: string | null | undefined
  msgPrefix: string | undefined
  transport: TransportOptions | undefined
  onChild: OnChild | undefined
  asyncContext: AsyncContextOptions | undefined
  otel: boolean | OtelOptions | undefined
}

export const defaultLevelFormatter = (_label: string, value: number): object => ({ level: value })

function fail(option: string, message: string): never {
  throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${option}: ${message}`, option)
}

type OptionType = 'string' | 'function' | 'boolean' | 'object'

function expectType(options: LoggerOptions, key: keyof LoggerOptions, type: OptionType): void {
  const value = options[key]
  if (value === undefined) return
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  if (actual !== type) fail(key, `expected a ${type}, got ${actual}`)
}

/** Is this the destination passed in the options position (`logx(stream)`)? */
export function looksLikeStream(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Record<string, unknown>
  if (typeof candidate.write !== 'function') return false
  return (
    candidate.writable === true ||
    candidate._writableState !== undefined ||
    typeof candidate.flushSync === 'function' ||
    !hasKnownOption(candidate)
  )
}

const KNOWN_OPTIONS = new Set<string>([
  'name',
  'level',
  'customLevels',
  'useOnlyCustomLevels',
  'levelComparison',
  'depthLimit',
  'edgeLimit',
  'mixin',
  'mixinMergeStrategy',
  'redact',
  'hooks',
  'formatters',
  'serializers',
  'base',
  'enabled',
  'crlf',
  'timestamp',
  'messageKey',
  'errorKey',
  'nestedKey',
  'msgPrefix',
  'browser',
  'transport',
  'onChild',
  'asyncContext',
  'otel',
])

function hasKnownOption(value: Record<string, unknown>): boolean {
  for (const key of Object.keys(value)) if (KNOWN_OPTIONS.has(key)) return true
  return false
}

/**
 * Type checks of logx's own (pino writes odd lines or fails later instead). The checks pino makes
 * itself (useOnlyCustomLevels, mixin, msgPrefix, the level, the limits) are made where pino makes
 * them, in createRootLogger, with pino's errors.
 */
function checkTypes(options: LoggerOptions): void {
  if ('prettyPrint' in options && (options as { prettyPrint?: unknown }).prettyPrint) {
    throw new LogxError(
      LogxErrorCodes.INVALID_OPTION,
      'prettyPrint option is no longer supported, see the pino-pretty package (https://github.com/pinojs/pino-pretty)',
      'prettyPrint',
    )
  }
  for (const key of ['name', 'messageKey', 'errorKey'] as const) expectType(options, key, 'string')
  for (const key of ['mixinMergeStrategy', 'onChild'] as const) expectType(options, key, 'function')
  for (const key of ['useOnlyCustomLevels', 'enabled', 'crlf'] as const) expectType(options, key, 'boolean')
  for (const key of ['hooks', 'formatters', 'serializers', 'browser', 'transport'] as const)
    expectType(options, key, 'object')
  const { timestamp, level, nestedKey, base } = options
  if (timestamp !== undefined && typeof timestamp !== 'boolean' && typeof timestamp !== 'function') {
    fail('timestamp', `expected a boolean or a function returning ',"time":…', got ${typeof timestamp}`)
  }
  if (level !== undefined && typeof level !== 'string' && typeof level !== 'number') {
    fail('level', `expected a level name, got ${typeof level}`)
  }
  if (nestedKey !== undefined && nestedKey !== null && typeof nestedKey !== 'string')
    fail('nestedKey', 'expected a string')
  if (base !== undefined && base !== null && (typeof base !== 'object' || Array.isArray(base))) {
    fail('base', 'expected an object or null')
  }
  if (options.customLevels !== undefined && options.customLevels !== null) assertCustomLevels(options.customLevels)
  checkFunctions(options)
  if (options.asyncContext !== undefined) assertAsyncContextOptions(options.asyncContext)
  assertOtelOptions(options.otel)
}

function checkFunctions(options: LoggerOptions): void {
  for (const key of ['level', 'bindings', 'log'] as const) {
    const formatter = options.formatters?.[key]
    if (formatter !== undefined && typeof formatter !== 'function') fail(`formatters.${key}`, 'expected a function')
  }
  for (const key of ['logMethod', 'streamWrite'] as const) {
    const hook = options.hooks?.[key]
    if (hook !== undefined && typeof hook !== 'function') fail(`hooks.${key}`, 'expected a function')
  }
  if (!options.serializers) return
  for (const key of Object.keys(options.serializers)) {
    const serializer = options.serializers[key]
    if (serializer !== undefined && serializer !== null && typeof serializer !== 'function') {
      fail(`serializers.${key}`, 'expected a function, or null to turn it off')
    }
  }
}

/**
 * An option present with the value undefined replaces the default, as pino's Object.assign of the
 * options over its defaults does: `base: undefined` drops pid and hostname, `timestamp: undefined`
 * drops the time.
 */
function given<K extends keyof LoggerOptions>(options: LoggerOptions, key: K, fallback: unknown): unknown {
  return Object.prototype.propertyIsEnumerable.call(options, key) ? options[key] : fallback
}

function timeFunction(timestamp: unknown): TimeFn {
  if (typeof timestamp === 'function') return timestamp as TimeFn
  return timestamp ? epochTime : nullTime
}

export function normalizeOptions(options: LoggerOptions): NormalizedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'options must be an object', 'options')
  }
  checkTypes(options)
  let level = given(options, 'level', 'info') as string | number
  if (options.enabled === false) level = 'silent'
  if (typeof level === 'string' && DEFAULT_LEVELS[level.toLowerCase()] !== undefined) level = level.toLowerCase()

  return {
    name: options.name,
    level,
    customLevels: options.customLevels ?? null,
    useOnlyCustomLevels: options.useOnlyCustomLevels ?? false,
    levelComparison: options.levelComparison,
    depthLimit: given(options, 'depthLimit', 5) as number | undefined,
    edgeLimit: given(options, 'edgeLimit', 100) as number | undefined,
    mixin: options.mixin,
    mixinMergeStrategy: options.mixinMergeStrategy,
    redact: options.redact,
    hooks: { logMethod: options.hooks?.logMethod, streamWrite: options.hooks?.streamWrite },
    formatters: {
      level: options.formatters?.level ?? defaultLevelFormatter,
      bindings: options.formatters?.bindings ?? identityBindings,
      log: options.formatters?.log,
    },
    serializers: withoutNulls(
      Object.assign(
        Object.create(null) as Record<string | symbol, Serializer>,
        { err: errSerializer },
        options.serializers,
      ),
    ),
    base: given(options, 'base', { pid: process.pid, hostname: hostname() }) as Bindings | null | undefined,
    crlf: options.crlf ?? false,
    time: timeFunction(given(options, 'timestamp', true)),
    messageKey: given(options, 'messageKey', 'msg') as string,
    errorKey: given(options, 'errorKey', 'err') as string,
    nestedKey: given(options, 'nestedKey', null) as string | null | undefined,
    msgPrefix: options.msgPrefix,
    transport: options.transport,
    onChild: options.onChild,
    asyncContext: options.asyncContext,
    otel: options.otel,
  }
}

/** A serializer given as null or undefined is no serializer (how pino users turn the default `err` off). */
function withoutNulls(
  serializers: Record<string | symbol, Serializer | null | undefined>,
): Record<string | symbol, Serializer> {
  for (const key of [...Object.keys(serializers), ...Object.getOwnPropertySymbols(serializers)]) {
    if (serializers[key] === undefined || serializers[key] === null) delete serializers[key]
  }
  return serializers as Record<string | symbol, Serializer>
}
