// The package entry: `require('logx')` is the factory itself, with pino's statics on it.
import { LogxError, LogxErrorCodes } from './errors'
import {
  normalizeOptions,
  looksLikeStream,
  defaultLevelFormatter,
  type LoggerOptions,
  type NormalizedOptions,
} from './options'
import { transport as createTransport, type TransportOptions } from './transport'
import { multistream as createMultistream } from './multistream'
import { createRootLogger, type WritableDestination } from './logger'
import { destination as createDestination, createSafeDestination } from './destination'
import { createLevelMapping, DEFAULT_LEVELS } from './levels'
import { stdSerializers as standardSerializers } from './serializers'
import { stdTimeFunctions as standardTimeFunctions } from './time'
import * as allSymbols from './symbols'
import { version } from './version'

function stdoutWasReplaced(): boolean {
  const stdout = process.stdout as unknown as { write: unknown; constructor: { prototype: { write: unknown } } }
  return stdout.write !== stdout.constructor.prototype.write
}

function defaultDestination(): WritableDestination {
  // A replaced process.stdout.write (test runners, capture libraries) must see our lines.
  if (stdoutWasReplaced()) return process.stdout as unknown as WritableDestination
  return createSafeDestination({ fd: process.stdout.fd || 1 })
}

function toDestination(value: unknown): WritableDestination {
  if (typeof value === 'string' || typeof value === 'number') return createDestination(value)
  if (typeof value === 'object' && value !== null && typeof (value as { write?: unknown }).write === 'function')
    return value as WritableDestination
  throw new LogxError(
    LogxErrorCodes.INVALID_DESTINATION,
    'destination must be a path, a file descriptor, or an object with a write method',
    'destination',
  )
}

// pino's two call shapes, generic in the custom level names as pino's are: `logx<'notice'>(...)`,
// or the names inferred from `customLevels`, gives a logger with a typed `notice()`.
function logx<CustomLevels extends string = never, UseOnlyCustomLevels extends boolean = boolean>(
  optionsOrStream?: logx.LoggerOptions<CustomLevels, UseOnlyCustomLevels> | logx.DestinationStream | string,
): logx.Logger<CustomLevels, UseOnlyCustomLevels>
function logx<CustomLevels extends string = never, UseOnlyCustomLevels extends boolean = boolean>(
  options: logx.LoggerOptions<CustomLevels, UseOnlyCustomLevels>,
  stream?: logx.DestinationStream | string | number | null,
): logx.Logger<CustomLevels, UseOnlyCustomLevels>
// Last, so that `ReturnType<typeof logx>` is the plain logger (not Logger<string>, which nothing is).
function logx(
  options?: logx.LoggerOptions | logx.DestinationStream | string,
  stream?: logx.DestinationStream | string | number | null,
): logx.Logger
function logx(options?: unknown, dest?: unknown): logx.Logger {
  let opts: LoggerOptions
  let stream: WritableDestination | undefined
  if (typeof options === 'string') {
    stream = createDestination(options)
    opts = {}
  } else if (looksLikeStream(options)) {
    stream = options as WritableDestination
    opts = {}
  } else {
    opts = (options as LoggerOptions | undefined) ?? {}
    if (dest !== undefined && dest !== null) {
      if (opts.transport !== undefined) {
        throw new LogxError(
          LogxErrorCodes.TRANSPORT_AND_DESTINATION,
          'only one of option.transport or stream can be specified',
          'transport',
        )
      }
      stream = toDestination(dest)
    }
  }
  const normalized = normalizeOptions(opts)
  if (normalized.transport !== undefined) stream = createTransportStream(normalized.transport, normalized)
  return createRootLogger(normalized, stream ?? defaultDestination()) as unknown as logx.Logger
}

// The transport errors below carry pino's messages word for word (pino's name included): code
// written for pino matches on them. The code and path say the same for logx.
function createTransportStream(transportOptions: TransportOptions, normalized: NormalizedOptions): WritableDestination {
  if (looksLikeStream(transportOptions)) {
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      'option.transport do not allow stream, please pass to option directly. e.g. pino(transport)',
      'transport',
    )
  }
  const targets = transportOptions.targets
  if (Array.isArray(targets) && targets.length > 0 && normalized.formatters.level !== defaultLevelFormatter) {
    // Each target filters on the numeric level; a reshaped level would route nothing.
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      'option.transport.targets do not allow custom level formatters',
      'formatters.level',
    )
  }
  let levels: Record<string, number> | undefined
  if (normalized.customLevels !== null) {
    levels = normalized.useOnlyCustomLevels
      ? { ...normalized.customLevels }
      : { ...DEFAULT_LEVELS, ...normalized.customLevels }
  }
  const stream = createTransport({ ...transportOptions, levels })
  // The app asked for a logger, not for a stream to watch: a failing transport is reported as a
  // warning instead of crashing the app through an unhandled 'error' event. A listener the app
  // adds itself (logger[logx.symbols.streamSym].on('error', ...)) still sees every error.
  // Each distinct failure is warned once: after the worker is gone, every log call is an 'error'
  // ("the worker has exited"), which must not become a warning per line.
  const warned = new Set<string>()
  stream.on('error', (err: Error) => {
    if (stream.listenerCount('error') > 1 || warned.has(err.message)) return
    warned.add(err.message)
    process.emitWarning(`logx: ${err.message}`, { code: 'LOGX_TRANSPORT_FAILED' })
  })
  return stream as unknown as WritableDestination
}

type LogxFactory = typeof logx

// The statics and the public types, so TypeScript users can write `logx.Logger`,
// `logx.LoggerOptions`... as with pino. Values are attached below; this only declares them.
declare namespace logx {
  // pino's type names (pino.d.ts), with the same generics, then logx's own.
  export type Logger<
    CustomLevels extends string = never,
    UseOnlyCustomLevels extends boolean = boolean,
  > = import('./types').Logger<CustomLevels, UseOnlyCustomLevels>
  export type BaseLogger = import('./types').BaseLogger
  export type LoggerExtras<
    CustomLevels extends string = never,
    UseOnlyCustomLevels extends boolean = boolean,
  > = import('./types').LoggerExtras<CustomLevels, UseOnlyCustomLevels>
  export type LogFn = import('./types').LogFn
  export type LoggerOptions<
    CustomLevels extends string = never,
    UseOnlyCustomLevels extends boolean = boolean,
  > = import('./types').LoggerOptions<CustomLevels, UseOnlyCustomLevels>
  export type ChildLoggerOptions<CustomLevels extends string = never> =
    import('./types').ChildLoggerOptions<CustomLevels>
  export type ChildOptions<CustomLevels extends string = never> = import('./types').ChildOptions<CustomLevels>
  export type Level = import('./types').Level
  export type LevelOrString = import('./types').LevelOrString
  export type LevelWithSilent = import('./types').LevelWithSilent
  export type LevelWithSilentOrString = import('./types').LevelWithSilentOrString
  export type LevelChangeEventListener<
    CustomLevels extends string = never,
    UseOnlyCustomLevels extends boolean = boolean,
  > = import('./types').LevelChangeEventListener<CustomLevels, UseOnlyCustomLevels>
  export type SerializerFn = import('./types').SerializerFn
  export type redactOptions = import('./types').RedactOptions
  export type RedactOptions = import('./types').RedactOptions
  export type DestinationStream = import('./types').DestinationStream
  export type SerializedError = import('./serializers').SerializedError
  export type SerializedRequest = import('./serializers').SerializedRequest
  export type SerializedResponse = import('./serializers').SerializedResponse
  export type TransportTargetOptions<TargetOptions = object> =
    import('./transport').TransportTargetOptions<TargetOptions>
  export type TransportSingleOptions<TargetOptions = object> =
    import('./transport').TransportSingleOptions<TargetOptions>
  export type TransportMultiOptions<TargetOptions = object> = import('./transport').TransportMultiOptions<TargetOptions>
  export type TransportPipelineOptions<TargetOptions = object> =
    import('./transport').TransportPipelineOptions<TargetOptions>
  export type MultiStreamOptions = import('./multistream').MultiStreamOptions
  export type MultiStreamRes = import('./multistream').MultiStreamRes
  export type StreamEntry = import('./multistream').StreamEntry
  export type Bindings = import('./options').Bindings
  export type LevelMapping = import('./levels').LevelMapping
  export type Serializer = import('./options').Serializer
  export type Formatters = import('./options').Formatters
  export type Hooks = import('./options').Hooks
  export type DestinationOptions = import('./destination').DestinationOptions
  /** What `logx.destination()` returns (a sonic-boom stream). */
  export type FileDestination = import('./destination').DestinationStream
  export type TransportOptions<TargetOptions = object> = import('./transport').TransportOptions<TargetOptions>
  export type TransportStream = import('./transport').TransportStream
  export type LogxErrorCode = import('./errors').LogxErrorCode
  export const destination: typeof createDestination
  export const transport: typeof createTransport
  export const multistream: typeof createMultistream
  export const levels: LevelMapping
  export const stdSerializers: import('./types').StdSerializers
  export const stdTimeFunctions: typeof standardTimeFunctions
  export const symbols: typeof allSymbols
  export const version: string
  export const LogxError: typeof import('./errors').LogxError
  export const errorCodes: typeof LogxErrorCodes
  /** The factory itself, for `import { logx } from 'logx'`. */
  export const logx: LogxFactory
  /** The factory itself, for pino's `import { pino } from 'pino'`. */
  export const pino: LogxFactory
}

Object.assign(logx, {
  destination: createDestination,
  transport: createTransport,
  multistream: createMultistream,
  levels: createLevelMapping(null),
  stdSerializers: standardSerializers,
  stdTimeFunctions: { ...standardTimeFunctions },
  symbols: allSymbols,
  version,
  LogxError,
  errorCodes: LogxErrorCodes,
  // pino-style interop: require('logx').default and .logx are the factory too.
  default: logx,
  logx,
  pino: logx,
})

// pino-style CommonJS export: require('logx') is the factory itself, with its statics.
export = logx
