// Child bindings are serialized once, when the child is created, into a `,"key":value` string.
import { quoteString, stringifyValue } from './stringify'
import { chindingsSym, formattersSym, redactStringifiersSym, serializersSym, stringifySafeSym, wildcardFirstSym } from './symbols'

type LoggerState = Record<symbol, any>

// Keys a binding can never set: they configure the child instead (see child()).
const RESERVED_BINDING_KEYS = new Set(['level', 'serializers', 'formatters', 'customLevels'])

/** Appends `bindings` (after the bindings formatter, unless `format` is false, and serializers) to the logger's existing chindings. */
export function serializeBindings(logger: LoggerState, bindings: Record<string, unknown>, base: string = logger[chindingsSym], format = true): string {
  const formatBindings = format ? logger[formattersSym].bindings : undefined
  const formatted: Record<string, unknown> = formatBindings === undefined ? bindings : formatBindings(bindings)
  const serializers = logger[serializersSym]
  const stringifiers = logger[redactStringifiersSym]
  const safe = logger[stringifySafeSym]
  let out = base
  for (const key in formatted) {
    if (!Object.prototype.hasOwnProperty.call(formatted, key) || RESERVED_BINDING_KEYS.has(key)) continue
    let value = formatted[key]
    if (value === undefined) continue
    const serializer = serializers[key]
    if (serializer !== undefined) value = serializer(value)
    const stringifier = stringifiers === null ? undefined : stringifiers[key] || stringifiers[wildcardFirstSym]
    const encoded = stringifier !== undefined ? stringifier(value) : typeof value === 'string' ? quoteString(value) : stringifyValue(value, safe)
    if (encoded === undefined) continue
    out += ',' + quoteString(key) + ':' + encoded
  }
  return out
}
