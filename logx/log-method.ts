// The level methods (`info`, `error`, custom levels...). They are cached per (level, hook) and
// shared by every logger, so changing a level or creating a child allocates no functions.
import { mapHttpRequest, mapHttpResponse } from './serializers'
import { formatMessage } from './format'
import { formatOptsSym, msgPrefixSym, streamSym, writeSym } from './symbols'
import { writeFailedCall } from './write'

export type LogFn = (...args: unknown[]) => void
export type LogMethodHook = (this: any, args: unknown[], method: LogFn, level: number) => void

type LoggerState = Record<symbol, any>

export function noop(): void {}

/** Request and response objects are logged through their standard serializers, as pino does. */
function mapMergingObject(value: any): unknown {
  if (value.method && value.headers && value.socket) return mapHttpRequest(value)
  if (typeof value.setHeader === 'function') return mapHttpResponse(value)
  return value
}

function applyPrefix(logger: LoggerState, msg: unknown): unknown {
  const prefix = logger[msgPrefixSym]
  return typeof prefix === 'string' && msg !== undefined && msg !== null ? prefix + (msg as string) : msg
}

/**
 * The general path: more than two arguments, or a template with one argument. The rest are
 * interpolated into the message; pino's argument rules apply.
 */
function logInterpolated(logger: LoggerState, level: number, first: unknown, second: unknown, rest: unknown[]): void {
  let obj: unknown = null
  let msg: unknown
  let params: unknown[]
  if (typeof first === 'object') {
    if (first !== null) obj = mapMergingObject(first)
    msg = second
    params = rest
  } else if (first === undefined) {
    msg = second
    params = rest
  } else {
    msg = first
    params = rest.length === 0 ? [second] : [second, ...rest]
  }
  msg = applyPrefix(logger, msg)
  if (params.length > 0) msg = formatMessage(msg, params, logger[formatOptsSym].stringify)
  logger[writeSym](obj, msg, level)
}

function createPlainLogMethod(level: number): LogFn {
  // The one- and two-argument calls (nearly all of them) take the short path below.
  return function LOG(this: LoggerState, first?: unknown, second?: unknown, ...rest: unknown[]): void {
    try {
      const argc = arguments.length
      if (rest.length > 0 || (argc === 2 && typeof first === 'string' && first.indexOf('%') !== -1)) {
        logInterpolated(this, level, first, second, rest)
        return
      }
      let obj: unknown = null
      let msg: unknown
      if (typeof first === 'object') {
        if (first === null) msg = argc === 1 ? null : second
        else {
          obj = mapMergingObject(first)
          msg = second
        }
      } else if (first === undefined) {
        msg = second
      } else {
        msg = first
      }
      if (this[msgPrefixSym] !== undefined) msg = applyPrefix(this, msg)
      this[writeSym](obj, msg, level)
    } catch (err) {
      writeFailedCall(this, level, first, err)
    }
  }
}

function createFatalMethod(log: LogFn): LogFn {
  return function fatal(this: LoggerState, ...args: unknown[]): void {
    log.apply(this, args)
    const stream = this[streamSym]
    if (typeof stream.flushSync === 'function') {
      try {
        stream.flushSync()
      } catch {
        // A destination that cannot flush right now (still opening, or closed) must not make fatal throw.
      }
    }
  }
}

const plainMethods = new Map<number, LogFn>()
const hookedMethods = new WeakMap<LogMethodHook, Map<number, LogFn>>()
const fatalMethods = new WeakMap<LogFn, LogFn>()

/** The method for `level`, wrapped by the logMethod hook when one is set. */
export function getLogMethod(level: number, hook: LogMethodHook | undefined, flushAfterWrite: boolean): LogFn {
  let method = plainMethods.get(level)
  if (method === undefined) {
    method = createPlainLogMethod(level)
    plainMethods.set(level, method)
  }
  if (hook !== undefined) {
    let byLevel = hookedMethods.get(hook)
    if (byLevel === undefined) {
      byLevel = new Map()
      hookedMethods.set(hook, byLevel)
    }
    let hooked = byLevel.get(level)
    if (hooked === undefined) {
      const inner = method
      hooked = function hookedLog(this: LoggerState, ...args: unknown[]): void {
        try {
          hook.call(this, args, inner, level)
        } catch (err) {
          writeFailedCall(this, level, args[0], err)
        }
      }
      byLevel.set(level, hooked)
    }
    method = hooked
  }
  if (!flushAfterWrite) return method
  let fatal = fatalMethods.get(method)
  if (fatal === undefined) {
    fatal = createFatalMethod(method)
    fatalMethods.set(method, fatal)
  }
  return fatal
}
