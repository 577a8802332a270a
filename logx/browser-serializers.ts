// Serializers in the browser build. They are off by default (`browser.serialize` turns them on, for
// all keys or for a list), and they never change the caller's objects: a serialized copy is logged.

import type { Serializer, Shared } from './browser-types.js'

/** The part of the shared settings that decides which serializers run. */
type SerializeSettings = Pick<Shared, 'serializeKeys' | 'serializeErrors'>

function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? err.name,
    message: err.message,
    stack: err.stack,
  }
  for (const key in err) {
    if (out[key] === undefined) out[key] = (err as unknown as Record<string, unknown>)[key]
  }
  return out
}

// Requests and responses do not exist here; their serializers keep the shape of the Node API.
const emptyObject = (): Record<string, never> => ({})
const identity = <T>(value: T): T => value

export const stdSerializers = {
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

function wantsSerializer(key: string, settings: SerializeSettings): boolean {
  return settings.serializeKeys === 'all' || (settings.serializeKeys !== false && settings.serializeKeys.includes(key))
}

/** A copy of `obj` with the selected serializers applied; the caller's object is never changed. */
export function serializeObject(
  obj: Record<string, unknown>,
  serializers: Record<string, Serializer>,
  settings: SerializeSettings,
): Record<string, unknown> {
  if (settings.serializeKeys === false) return { ...obj }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const serializer = serializers[key]
    const value = obj[key]
    if (serializer !== undefined && wantsSerializer(key, settings)) out[key] = serializer(value)
    else out[key] = value instanceof Error && settings.serializeErrors ? serializeError(value) : value
  }
  return out
}

export function serializeArgs(
  args: unknown[],
  serializers: Record<string, Serializer>,
  settings: SerializeSettings,
): unknown[] {
  if (settings.serializeKeys === false) return args
  return args.map((arg) => {
    if (arg instanceof Error) return settings.serializeErrors ? serializeError(arg) : arg
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg
    return serializeObject(arg as Record<string, unknown>, serializers, settings)
  })
}
