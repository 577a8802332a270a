// The asyncContext option: bindings taken from an AsyncLocalStorage store on every line, so a
// request id, user or tenant set once (`als.run({ reqId }, handler)`) reaches every line logged
// while handling it, with no child logger passed around. Read per line because the store changes
// per request; a line logged outside any store pays for one getStore().
import { LogxError, LogxErrorCodes } from './errors'
import { serializeBindings } from './chindings'
import type { AsyncContextOptions, Bindings } from './option-types'

export type { AsyncContextOptions }

import type { LoggerState } from './logger-state'

export function assertAsyncContextOptions(value: unknown): asserts value is AsyncContextOptions {
  const fail = (path: string, message: string): never => {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, `${path}: ${message}`, path)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('asyncContext', 'expected { storage, bindings? }')
  const { storage, bindings } = value as Partial<AsyncContextOptions>
  if (typeof storage !== 'object' || storage === null || typeof storage.getStore !== 'function') {
    fail('asyncContext.storage', 'expected an AsyncLocalStorage (an object with getStore())')
  }
  if (bindings !== undefined && typeof bindings !== 'function')
    fail('asyncContext.bindings', 'expected a function (store) => bindings')
}

/** `(logger) => ',"key":value...'` of the active store's bindings, '' when there are none. */
export function createAsyncContextBindings(options: AsyncContextOptions): (logger: LoggerState) => string {
  const { storage, bindings: select } = options
  return (logger) => {
    const store = storage.getStore()
    if (store === undefined || store === null) return ''
    const bindings = select === undefined ? store : select(store)
    if (typeof bindings !== 'object' || bindings === null) return ''
    // Serializers and redaction apply as to a child's bindings; formatters.bindings does not (it
    // shapes the logger's own base and child bindings, and would reshape the store's).
    return serializeBindings(logger, bindings as Bindings, '', false)
  }
}
