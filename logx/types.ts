// The public types, shaped like pino's (its `pino.d.ts` names and generics), so that an app typed
// against pino compiles against logx with only the import changed. The runtime option checks live
// in options.ts; these are what a user's editor sees.
import type { EventEmitter } from 'node:events'
import type { LevelMapping } from './levels'
import type { Bindings, Formatters, LoggerOptions as CheckedLoggerOptions, Serializer } from './options'
import type { SerializedError, SerializedRequest, SerializedResponse } from './serializers'

export type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
export type LevelOrString = Level | (string & {})
export type LevelWithSilent = Level | 'silent'
export type LevelWithSilentOrString = LevelWithSilent | (string & {})

/** A value serializer, as `serializers: { key: fn }` takes it. */
export type SerializerFn = Serializer

export type LogFn = {
  (obj: unknown, msg?: string, ...args: unknown[]): void
  (msg: string, ...args: unknown[]): void
}

export interface RedactOptions {
  paths: string[]
  censor?: string | ((value: unknown, path: string[]) => unknown)
  remove?: boolean
}

export interface ChildOptions<CustomLevels extends string = never> {
  level?: LevelOrString
  serializers?: Record<string, Serializer>
  formatters?: Formatters
  customLevels?: { [level in CustomLevels]: number }
  redact?: string[] | RedactOptions
  msgPrefix?: string
}

/** pino's name for the options of `child()`. */
export type ChildLoggerOptions<CustomLevels extends string = never> = ChildOptions<CustomLevels>

export type LevelChangeEventListener<
  CustomLevels extends string = never,
  UseOnlyCustomLevels extends boolean = boolean,
> = (
  label: LevelWithSilentOrString,
  value: number,
  previousLabel: LevelWithSilentOrString,
  previousValue: number,
  logger: Logger<CustomLevels, UseOnlyCustomLevels>,
) => void

/** What every logger has whatever its levels: the level and the built-in level methods. */
export interface BaseLogger {
  level: LevelWithSilentOrString
  fatal: LogFn
  error: LogFn
  warn: LogFn
  info: LogFn
  debug: LogFn
  trace: LogFn
  silent: LogFn
  readonly msgPrefix: string | undefined
}

export interface LoggerExtras<
  CustomLevels extends string = never,
  UseOnlyCustomLevels extends boolean = boolean,
> extends EventEmitter {
  readonly levelVal: number
  readonly levels: LevelMapping
  readonly version: string
  child<ChildCustomLevels extends string = never>(
    bindings: Bindings,
    options?: ChildOptions<ChildCustomLevels>,
  ): Logger<CustomLevels | ChildCustomLevels>
  bindings(): Bindings
  setBindings(bindings: Bindings): void
  flush(cb?: (err?: Error | null) => void): void
  isLevelEnabled(level: LevelWithSilentOrString): boolean
  /** Called with each child made from now on (the `onChild` option's callback, reassignable as in pino). */
  // Method syntax: its parameter is checked bivariantly, so a Logger<'notice'> is still a Logger.
  onChild(child: Logger<CustomLevels>): void
  on(event: 'level-change', listener: LevelChangeEventListener<CustomLevels, UseOnlyCustomLevels>): this
  // EventEmitter's and pino's own listener type: an untyped `(a) => ...` listener must compile.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the event's arguments are the emitter's
  on(event: string | symbol, listener: (...args: any[]) => void): this
  once(event: 'level-change', listener: LevelChangeEventListener<CustomLevels, UseOnlyCustomLevels>): this
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as on() above
  once(event: string | symbol, listener: (...args: any[]) => void): this
}

/** The built-in level methods (absent with `useOnlyCustomLevels: true`) and one per custom level. */
export type CustomLevelLogger<CustomLevels extends string, UseOnlyCustomLevels extends boolean = boolean> = {
  [level in Exclude<Level, CustomLevels>]: UseOnlyCustomLevels extends true ? never : LogFn
} & {
  [level in CustomLevels]: LogFn
}

/** A logger; `Logger<'notice'>` has a typed `notice()` method, as with pino. */
export type Logger<CustomLevels extends string = never, UseOnlyCustomLevels extends boolean = boolean> = BaseLogger &
  LoggerExtras<CustomLevels, UseOnlyCustomLevels> &
  CustomLevelLogger<CustomLevels, UseOnlyCustomLevels>

/** The factory's options, generic in the custom level names as pino's are. */
export type LoggerOptions<CustomLevels extends string = never, UseOnlyCustomLevels extends boolean = boolean> = Omit<
  CheckedLoggerOptions,
  'level' | 'customLevels' | 'useOnlyCustomLevels' | 'mixin' | 'onChild' | 'hooks' | 'redact'
> & {
  level?: LevelWithSilentOrString
  customLevels?: { [level in CustomLevels]: number }
  useOnlyCustomLevels?: UseOnlyCustomLevels
  mixin?: (mergeObject: object, level: number, logger: Logger<CustomLevels>) => object
  onChild?: (child: Logger<CustomLevels>) => void
  redact?: string[] | RedactOptions
  hooks?: {
    logMethod?: (this: Logger, args: Parameters<LogFn>, method: LogFn, level: number) => void
    streamWrite?: (line: string) => string
  }
}

/** What a destination needs: a `write(line)` method. */
export interface DestinationStream {
  write(msg: string): unknown
}

/** `logx.stdSerializers`, typed as pino's. */
export interface StdSerializers {
  err(err: Error): SerializedError
  /** A value that is not an error is returned as it is. */
  err(value: unknown): unknown
  errWithCause(err: Error): SerializedError
  errWithCause(value: unknown): unknown
  req(req: unknown): SerializedRequest
  res(res: unknown): SerializedResponse
  mapHttpRequest(req: unknown): { req: SerializedRequest }
  mapHttpResponse(res: unknown): { res: SerializedResponse }
  wrapErrorSerializer(custom: (err: SerializedError) => unknown): Serializer
  wrapRequestSerializer(custom: (req: SerializedRequest) => unknown): Serializer
  wrapResponseSerializer(custom: (res: SerializedResponse) => unknown): Serializer
}
