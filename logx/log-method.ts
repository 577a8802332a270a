// The level methods (`info`, `error`, custom levels...). They are cached per (level, hook) and
// shared by every logger, so changing a level or creating a child allocates no functions.
import { mapHttpRequest, mapHttpResponse } from './serializers'
import { formatMessage } from './format'
import { formatOptsSym, msgPrefixSym, streamSym, writeSym } from './symbols'
import { writeFailedCall } from './write'

import type { LogFn, LogMethodHook } from './option-types'

export type { LogFn, LogMethodHook }

import type { LoggerState } from './logger-state'

export function noop(): void {}

/** Request and response objects are logged through their standard serializers, as pino does. */
function mapMergingObject(value: HttpLike): unknown {
  if (value.method && value.headers && value.socket) return mapHttpRequest(value)
  if (typeof value.setHeader === 'function') return mapHttpResponse(value)
  return value
}

/** The keys that tell an HTTP request or response from any other merging object. */
interface HttpLike {
  method?: unknown
  headers?: unknown
  socket?: unknown
  setHeader?: unknown
}

/**
 * Sorts a call's arguments into pino's (merging object, message, interpolation values): an object
 * first (null included, unless alone) is the merging object, undefined first is skipped, anything
 * else first is the message. A prefix is added to any message but null and undefined, and the
 * message is interpolated only when values follow it.
 */
function createPlainLogMethod(level: number): LogFn {
  return function LOG(this: LoggerState, first?: unknown, second?: unknown, ...rest: unknown[]): void {
    try {
      const argc = arguments.length
      let obj: unknown = null
      let msg: unknown
      let params: unknown[] = rest
      if (typeof first === 'object') {
        if (first !== null) obj = mapMergingObject(first as HttpLike)
        msg = first === null && argc <= 1 ? null : second
      } else if (first === undefined) {
        msg = second
      } else {
        msg = first
        params = argc <= 1 ? rest : rest.length === 0 ? [second] : [second, ...rest]
      }
      const prefix = this[msgPrefixSym]
      if (typeof prefix === 'string' && msg !== undefined && msg !== null) msg = prefix + (msg as string)
      if (params.length > 0) msg = formatMessage(msg, params, this[formatOptsSym].stringify)
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
