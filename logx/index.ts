// The package entry: `require('logx')` is the factory itself, with pino's statics on it.
import { LogxError, LogxErrorCodes } from './errors'
import { normalizeOptions, looksLikeStream, defaultLevelFormatter, type LoggerOptions, type NormalizedOptions } from './options'
import { transport, type TransportOptions } from './transport'
import { multistream } from './multistream'
import { createRootLogger, type WritableDestination } from './logger'
import { destination, createSafeDestination } from './destination'
import { createLevelMapping, DEFAULT_LEVELS } from './levels'
import { stdSerializers } from './serializers'
import { stdTimeFunctions } from './time'
import * as allSymbols from './symbols'
import { version } from './version'
import type { Logger } from './types'

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
  if (typeof value === 'string' || typeof value === 'number') return destination(value)
  if (typeof value === 'object' && value !== null && typeof (value as { write?: unknown }).write === 'function') return value as WritableDestination
  throw new LogxError(LogxErrorCodes.INVALID_DESTINATION, 'destination must be a path, a file descriptor, or an object with a write method', 'destination')
}

function logx(options?: LoggerOptions | string | WritableDestination, dest?: string | number | WritableDestination): Logger {
  let opts: LoggerOptions
  let stream: WritableDestination | undefined
  if (typeof options === 'string') {
    stream = destination(options)
    opts = {}
  } else if (looksLikeStream(options)) {
    stream = options as WritableDestination
    opts = {}
  } else {
    opts = (options as LoggerOptions | undefined) ?? {}
    if (dest !== undefined && dest !== null) {
      if (opts.transport !== undefined) {
        throw new LogxError(LogxErrorCodes.TRANSPORT_AND_DESTINATION, 'only one of option.transport or a destination argument can be given', 'transport')
      }
      stream = toDestination(dest)
    }
  }
  const normalized = normalizeOptions(opts)
  if (normalized.transport !== undefined) stream = createTransportStream(normalized.transport, normalized)
  return createRootLogger(normalized, stream ?? defaultDestination()) as unknown as Logger
}

function createTransportStream(transportOptions: TransportOptions, normalized: NormalizedOptions): WritableDestination {
  if (looksLikeStream(transportOptions)) {
    throw new LogxError(LogxErrorCodes.INVALID_TRANSPORT, 'option.transport takes transport options, not a stream: pass the stream as the destination, logx(options, stream)', 'transport')
  }
  const targets = transportOptions.targets
  if (Array.isArray(targets) && targets.length > 0 && normalized.formatters.level !== defaultLevelFormatter) {
    // Each target filters on the numeric level; a reshaped level would route nothing.
    throw new LogxError(LogxErrorCodes.INVALID_TRANSPORT, 'option.transport.targets do not allow custom level formatters (formatters.level)', 'formatters.level')
  }
  let levels: Record<string, number> | undefined
  if (normalized.customLevels !== null) {
    levels = normalized.useOnlyCustomLevels ? { ...normalized.customLevels } : { ...DEFAULT_LEVELS, ...normalized.customLevels }
  }
  const stream = transport({ ...transportOptions, levels })
  // The app asked for a logger, not for a stream to watch: a failing transport is reported as a
  // warning instead of crashing the app through an unhandled 'error' event. A listener the app
  // adds itself (logger[logx.symbols.streamSym].on('error', ...)) still sees every error.
  stream.on('error', (err: Error) => {
    if (stream.listenerCount('error') > 1) return
    process.emitWarning(`logx: ${err.message}`, { code: 'LOGX_TRANSPORT_FAILED' })
  })
  return stream as unknown as WritableDestination
}

const statics = {
  destination,
  transport,
  multistream,
  levels: createLevelMapping(null),
  stdSerializers,
  stdTimeFunctions: { ...stdTimeFunctions },
  symbols: allSymbols,
  version,
  LogxError,
  errorCodes: LogxErrorCodes,
}

const exported = Object.assign(logx, statics, { default: logx, logx })

// pino-style CommonJS export: the factory itself, with `.default` and `.logx` for ESM/TS interop.
export = exported
