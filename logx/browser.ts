// The browser build of logx (package.json "browser" field). Browsers have no file descriptors and
// no worker threads, so lines go to the console (or to `browser.write`) as arguments or as objects.
// Like the Node logger, the work is done when the level is set: a disabled method is a shared no-op
// and an enabled one is a closure that already knows its console method and bindings.
// This file imports only the version constant so it can run after a minimal CommonJS wrap.

import type { LogxErrorCode } from './errors.js'
import { version } from './version.js'

type LogFn = (...args: unknown[]) => void
type Serializer = (value: any) => unknown
type TimeFn = () => unknown

interface BrowserOptions {
  /** Log one pino-like object ({ level, time, ...bindings, ...obj, msg }) instead of raw arguments. */
  asObject?: boolean
  /** Receives the log objects instead of the console: one function, or one per level. Implies asObject. */
  write?: LogFn | Partial<Record<string, LogFn>>
  /** Apply serializers: true for all, or a list of keys ('!stdSerializers.err' turns off the error one). */
  serialize?: boolean | string[]
  /** Same as `level: 'silent'`. */
  disabled?: boolean
  formatters?: { level?: (label: string, value: number) => Record<string, unknown> }
}

interface BrowserLoggerOptions {
  level?: string
  customLevels?: Record<string, number>
  useOnlyCustomLevels?: boolean
  enabled?: boolean
  messageKey?: string
  timestamp?: boolean | TimeFn
  serializers?: Record<string, Serializer>
  onChild?: (child: BrowserLogger) => void
  browser?: BrowserOptions
  [option: string]: unknown
}

interface ChildOptions {
  level?: string
  serializers?: Record<string, Serializer>
  [option: string]: unknown
}

interface Levels {
  values: Record<string, number>
  labels: Record<number, string>
}

const builtinValues: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
}

function levelsOf(values: Record<string, number>): Levels {
  const labels: Record<number, string> = {}
  for (const [label, value] of Object.entries(values)) labels[value] = label
  return { values, labels }
}

const errorBrand = Symbol.for('logx.error')

// Not the LogxError class (that would pull in the Node module graph), but the same brand, name and
// code, so `err instanceof LogxError` and matching on `code` behave the same in both builds.
function logxError(code: LogxErrorCode, message: string, path?: string): Error {
  const error = new Error(message) as Error & { code: LogxErrorCode; path: string | undefined }
  error.name = 'LogxError'
  error.code = code
  error.path = path
  Object.defineProperty(error, errorBrand, { value: true })
  return error
}

// ---- time and serializers -------------------------------------------------------------------

// Browser time functions return the value itself: there is no JSON line to splice it into.
const stdTimeFunctions = {
  epochTime: (): number => Date.now(),
  unixTime: (): number => Math.round(Date.now() / 1000),
  nullTime: (): false => false,
  isoTime: (): string => new Date(Date.now()).toISOString(),
}

function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err
  const out: Record<string, unknown> = { type: err.constructor?.name ?? err.name, message: err.message, stack: err.stack }
  for (const key in err) {
    if (out[key] === undefined) out[key] = (err as unknown as Record<string, unknown>)[key]
  }
  return out
}

// Requests and responses do not exist here; their serializers keep the shape of the Node API.
const emptyObject = (): Record<string, never> => ({})
const identity = <T>(value: T): T => value

const stdSerializers = {
  err: serializeError,
  errWithCause: serializeError,
  req: emptyObject,
  res: emptyObject,
  mapHttpRequest: emptyObject,
  mapHttpResponse: emptyObject,
  wrapErrorSerializer: identity,
  wrapRequestSerializer: identity,
  wrapResponseSerializer: identity,
}

// ---- message interpolation ------------------------------------------------------------------

function stringifyArg(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (typeof value === 'function') return value.name || '<anonymous>'
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return '"[Circular]"'
  }
}

/** printf-like: %s %d %i %f %o %O %j %%; arguments without a placeholder are dropped. */
function formatMessage(template: string, args: readonly unknown[]): string {
  if (args.length === 0) return template
  let out = ''
  let next = 0
  let copied = 0
  for (let i = 0; i < template.length - 1; i++) {
    if (template.charCodeAt(i) !== 37) continue
    const kind = template[i + 1] as string
    let replacement: string | undefined
    if (kind === '%') {
      replacement = '%'
    } else if (next < args.length && 'sdifoOj'.includes(kind)) {
      const arg = args[next++]
      if (kind === 's') replacement = String(arg)
      else if (kind === 'd' || kind === 'f') replacement = arg == null ? undefined : String(Number(arg))
      else if (kind === 'i') replacement = arg == null ? undefined : String(Math.floor(Number(arg)))
      else replacement = arg === undefined ? undefined : stringifyArg(arg)
    }
    if (replacement === undefined) continue
    out += template.slice(copied, i) + replacement
    copied = i + 2
    i++
  }
  return copied === 0 ? template : out + template.slice(copied)
}

// ---- the logger -----------------------------------------------------------------------------

/** Settings shared by a root logger and all its children. */
interface Shared {
  levels: Levels
  methodNames: string[]
  sinks: Record<string, { fn: LogFn; self: unknown }>
  asObject: boolean
  levelFormatter: ((label: string, value: number) => Record<string, unknown>) | undefined
  messageKey: string
  time: TimeFn
  /** Keys whose serializers run, or false when serializers are off (the browser default). */
  serializeKeys: string[] | 'all' | false
  serializeErrors: boolean
  onChild: (child: BrowserLogger) => void
}

const noop: LogFn = () => {}

interface BrowserLogger {
  [method: string]: unknown
  level: string
  readonly levelVal: number
  readonly levels: Levels
  readonly version: string
  child(bindings: Record<string, unknown>, options?: ChildOptions): BrowserLogger
  bindings(): Record<string, unknown>
  setBindings(bindings: Record<string, unknown>): void
  isLevelEnabled(level: string): boolean
  flush(): void
  silent: LogFn
  fatal: LogFn
  error: LogFn
  warn: LogFn
  info: LogFn
  debug: LogFn
  trace: LogFn
}

class Logger {
  [method: string]: unknown
  readonly version = version
  readonly levels: Levels
  serializers: Record<string, Serializer>
  readonly #shared: Shared
  /** Own bindings of each logger from the root down to this one (already serialized). */
  readonly #chain: Record<string, unknown>[]
  #level = 'info'

  constructor(shared: Shared, chain: Record<string, unknown>[], serializers: Record<string, Serializer>, level: string) {
    this.#shared = shared
    this.#chain = chain
    this.levels = shared.levels
    this.serializers = serializers
    this.level = level
  }

  get level(): string {
    return this.#level
  }

  set level(label: string) {
    const { levels, methodNames } = this.#shared
    if (label !== 'silent' && !Object.hasOwn(levels.values, label)) {
      throw logxError('LOGX_ERR_UNKNOWN_LEVEL', `unknown level "${String(label)}"`, 'level')
    }
    this.#level = label
    const threshold = this.levelVal
    for (const name of methodNames) {
      this[name] = (levels.values[name] as number) >= threshold ? this.#method(name) : noop
    }
  }

  get [Symbol.for('logx.serializers')](): Record<string, Serializer> {
    return this.serializers
  }

  get levelVal(): number {
    return this.#level === 'silent' ? Infinity : (this.#shared.levels.values[this.#level] as number)
  }

  isLevelEnabled(label: string): boolean {
    const value = this.#shared.levels.values[label]
    return value !== undefined && value >= this.levelVal
  }

  child(bindings: Record<string, unknown>, options: ChildOptions = {}): BrowserLogger {
    if (bindings === null || typeof bindings !== 'object') {
      throw logxError('LOGX_ERR_MISSING_BINDINGS', 'child() needs a bindings object', 'bindings')
    }
    const { serializers: legacySerializers, ...own } = bindings as { serializers?: Record<string, Serializer> }
    const extra = options.serializers ?? legacySerializers
    const serializers = extra === undefined ? this.serializers : { ...this.serializers, ...extra }
    const chain = [...this.#chain, serializeObject(own, serializers, this.#shared)]
    const child = new Logger(this.#shared, chain, serializers, options.level ?? this.#level) as unknown as BrowserLogger
    this.#shared.onChild(child)
    return child
  }

  bindings(): Record<string, unknown> {
    return Object.assign({}, ...this.#chain)
  }

  /** Adds bindings to this logger (not to loggers already created from it). */
  setBindings(bindings: Record<string, unknown>): void {
    const own = this.#chain.pop() ?? {}
    this.#chain.push({ ...own, ...serializeObject(bindings, this.serializers, this.#shared) })
    this.level = this.#level
  }

  flush(): void {}
  silent(): void {}

  // The Node logger is an event emitter; here nothing emits, so listeners are accepted and ignored.
  on(): this {
    return this
  }
  once(): this {
    return this
  }
  addListener(): this {
    return this
  }
  prependListener(): this {
    return this
  }
  prependOnceListener(): this {
    return this
  }
  removeListener(): this {
    return this
  }
  off(): this {
    return this
  }
  removeAllListeners(): this {
    return this
  }
  emit(): boolean {
    return false
  }
  listeners(): unknown[] {
    return []
  }
  listenerCount(): number {
    return 0
  }
  eventNames(): string[] {
    return []
  }

  #method(name: string): LogFn {
    const shared = this.#shared
    const sink = shared.sinks[name] as { fn: LogFn; self: unknown }
    const value = shared.levels.values[name] as number
    const chain = this.#chain
    const logger = this
    if (shared.asObject) {
      const merged = Object.assign({}, ...chain) as Record<string, unknown>
      return function logAsObject(...args: unknown[]): void {
        // As in the Node logger: an error first argument is logged under `err` and lends its message.
        const list = args[0] instanceof Error ? [{ err: args[0] }, ...args.slice(1)] : args
        sink.fn.call(sink.self, toObject(shared, name, value, merged, serializeArgs(list, logger.serializers, shared)))
      }
    }
    return function logToConsole(...args: unknown[]): void {
      sink.fn.apply(sink.self, [...chain, ...serializeArgs(args, logger.serializers, shared)])
    }
  }
}

function wantsSerializer(key: string, shared: Shared): boolean {
  return shared.serializeKeys === 'all' || (shared.serializeKeys !== false && shared.serializeKeys.includes(key))
}

/** A copy of `obj` with the selected serializers applied; the caller's object is never changed. */
function serializeObject(obj: Record<string, unknown>, serializers: Record<string, Serializer>, shared: Shared): Record<string, unknown> {
  if (shared.serializeKeys === false) return { ...obj }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const serializer = serializers[key]
    const value = obj[key]
    if (serializer !== undefined && wantsSerializer(key, shared)) out[key] = serializer(value)
    else out[key] = value instanceof Error && shared.serializeErrors ? serializeError(value) : value
  }
  return out
}

function serializeArgs(args: unknown[], serializers: Record<string, Serializer>, shared: Shared): unknown[] {
  if (shared.serializeKeys === false) return args
  return args.map((arg) => {
    if (arg instanceof Error) return shared.serializeErrors ? serializeError(arg) : arg
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg
    return serializeObject(arg as Record<string, unknown>, serializers, shared)
  })
}

function toObject(shared: Shared, label: string, value: number, bindings: Record<string, unknown>, args: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = shared.levelFormatter ? { ...shared.levelFormatter(label, value) } : { level: value }
  const time = shared.time()
  if (time !== false && time !== undefined && time !== null) out.time = time
  Object.assign(out, bindings)

  let index = 0
  let fallbackMessage: unknown
  const first = args[0]
  if (first !== null && typeof first === 'object') {
    Object.assign(out, first)
    const err = (first as { err?: unknown }).err
    if (err !== null && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
      fallbackMessage = (err as { message: string }).message
    }
    index = 1
  }
  if (index < args.length) {
    const message = args[index]
    out[shared.messageKey] = typeof message === 'string' ? formatMessage(message, args.slice(index + 1)) : message
  } else if (fallbackMessage !== undefined) {
    out[shared.messageKey] = fallbackMessage
  }
  return out
}

// The console has no `fatal`, and old consoles lack some methods: fall back to the nearest.
const consoleFallback: Readonly<Record<string, readonly string[]>> = {
  fatal: ['error', 'log'],
  error: ['error', 'log'],
  warn: ['warn', 'error', 'log'],
}

function consoleSink(name: string): { fn: LogFn; self: unknown } {
  const c = (globalThis as unknown as { console?: Record<string, unknown> }).console ?? {}
  for (const candidate of consoleFallback[name] ?? [name, 'log']) {
    const fn = c[candidate]
    if (typeof fn === 'function') return { fn: fn as LogFn, self: c }
  }
  return { fn: noop, self: c }
}

function buildShared(options: BrowserLoggerOptions): Shared {
  const browser = options.browser ?? {}
  const customLevels = options.customLevels ?? {}
  for (const [name, value] of Object.entries(customLevels)) {
    if (typeof value !== 'number') {
      throw logxError('LOGX_ERR_INVALID_OPTION', `customLevels.${name} must be a number`, `customLevels.${name}`)
    }
  }
  const values = options.useOnlyCustomLevels === true ? { ...customLevels } : { ...builtinValues, ...customLevels }
  const levels = levelsOf(values)
  const methodNames = Object.keys(values)

  const write = browser.write
  const sinks: Shared['sinks'] = {}
  for (const name of methodNames) {
    if (typeof write === 'function') sinks[name] = { fn: write, self: undefined }
    else if (write !== undefined && typeof write[name] === 'function') sinks[name] = { fn: write[name] as LogFn, self: write }
    else sinks[name] = consoleSink(name)
  }

  const serialize = browser.serialize
  const serializeKeys: Shared['serializeKeys'] =
    serialize === true ? 'all' : Array.isArray(serialize) ? serialize.filter((key) => key !== '!stdSerializers.err') : false
  const serializeErrors = serialize === true || (Array.isArray(serialize) && !serialize.includes('!stdSerializers.err'))

  const timestamp = options.timestamp
  const time: TimeFn =
    typeof timestamp === 'function' ? timestamp : timestamp === false ? stdTimeFunctions.nullTime : stdTimeFunctions.epochTime

  return {
    levels,
    methodNames,
    sinks,
    asObject: browser.asObject === true || write !== undefined || browser.formatters?.level !== undefined,
    levelFormatter: browser.formatters?.level,
    messageKey: options.messageKey ?? 'msg',
    time,
    serializeKeys,
    serializeErrors,
    onChild: options.onChild ?? (() => {}),
  }
}

/** Creates a browser logger. A destination argument is accepted for isomorphic code and ignored. */
function logx(options: BrowserLoggerOptions = {}, _destination?: unknown): BrowserLogger {
  const shared = buildShared(options)
  const disabled = options.enabled === false || options.browser?.disabled === true
  const level = disabled ? 'silent' : (options.level ?? (options.useOnlyCustomLevels === true ? undefined : 'info'))
  if (level === undefined) {
    throw logxError('LOGX_ERR_DEFAULT_LEVEL_NOT_FOUND', 'useOnlyCustomLevels needs `level` set to a custom level', 'level')
  }
  const serializers = { ...options.serializers }
  return new Logger(shared, [], serializers, level) as unknown as BrowserLogger
}

logx.levels = levelsOf({ ...builtinValues })
logx.stdSerializers = stdSerializers
logx.stdTimeFunctions = stdTimeFunctions
logx.version = version
logx.symbols = {
  serializersSym: Symbol.for('logx.serializers'),
  needsMetadataGsym: Symbol.for('logx.metadata'),
}
logx.logx = logx
logx.default = logx

export = logx
