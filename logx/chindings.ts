// Child bindings are serialized once, when the child is created, into a `,"key":value` string.
import { jsonString, quoteString, stringifyValue } from './stringify'
import {
  chindingsSym,
  formattersSym,
  redactStringifiersSym,
  serializersSym,
  stringifySafeSym,
  wildcardFirstSym,
} from './symbols'

import type { LoggerState } from './logger-state'

/** The bindings formatter a child gets unless its options bring one: the root's shapes only `base`. */
export const identityBindings = (bindings: Record<string, unknown>): Record<string, unknown> => bindings

// Keys a binding can never set: they configure a child in its options instead.
const RESERVED_BINDING_KEYS = new Set(['level', 'serializers', 'formatters', 'customLevels'])

/**
 * Appends `bindings`, after the logger's bindings formatter (unless `format` is false) and its
 * serializers and redaction, to `base` (the logger's chindings by default), as pino does: every
 * value is encoded as a whole (JSON.stringify, then the safe encoder).
 */
export function serializeBindings(
  logger: LoggerState,
  bindings: Record<string, unknown> | undefined,
  base: string = logger[chindingsSym],
  format = true,
): string {
  // `base: undefined` reaches the formatter as it is, as in pino: the formatter's type hides that case.
  const formatted: Record<string, unknown> | undefined = format
    ? logger[formattersSym].bindings(bindings as Record<string, unknown>)
    : bindings
  const serializers = logger[serializersSym]
  const stringifiers = logger[redactStringifiersSym]
  const safe = logger[stringifySafeSym]
  let out = base
  for (const key in formatted) {
    if (RESERVED_BINDING_KEYS.has(key) || !Object.prototype.hasOwnProperty.call(formatted, key)) continue
    let value = formatted[key]
    if (value === undefined) continue
    const serializer = serializers[key]
    if (serializer) value = serializer(value)
    const stringifier = stringifiers === null ? undefined : stringifiers[key] || stringifiers[wildcardFirstSym]
    let encoded: string | undefined
    if (stringifier !== undefined) encoded = stringifier(value)
    else encoded = typeof value === 'string' ? jsonString(value) : stringifyValue(value, safe)
    if (encoded === undefined) continue
    out += ',' + quoteString(key) + ':' + encoded
  }
  return out
}
