// JSON encoding for the write path: a quick string quoter, JSON.stringify for the common case,
// and a safe encoder (circular refs, depth and breadth limits, BigInt) only when JSON.stringify
// refuses a value. A value that cannot be read at all (a getter, toJSON or Proxy trap that throws
// somewhere inside it) is written as pino writes it: the whole value becomes UNSERIALIZABLE_JSON.

/** pino's placeholder (its wording) for a value whose encoding threw, as a JSON string literal. */
export const UNSERIALIZABLE_JSON = '"[unable to serialize, circular reference is too complex to analyze]"'

const nodeMajor = Number(process.versions.node.split('.')[0])

/**
 * A JSON string literal, as pino quotes keys and string values: a string with a control character,
 * or a long one, goes through JSON.stringify; a short one gets its quotes and backslashes escaped
 * and nothing else (a lone surrogate stays as it is, as in pino's lines). From Node 25 on, pino
 * uses JSON.stringify for every string, and so does this.
 */
export function quoteString(str: string): string {
  const length = str.length
  if (length > 100 || nodeMajor >= 25) return JSON.stringify(str)
  let escaped = ''
  let copiedUpTo = 0
  for (let i = 0; i < length; i++) {
    const code = str.charCodeAt(i)
    if (code < 32) return JSON.stringify(str)
    if (code === 34 || code === 92) {
      escaped += str.slice(copiedUpTo, i) + '\\'
      copiedUpTo = i
    }
  }
  return escaped === '' ? '"' + str + '"' : '"' + escaped + str.slice(copiedUpTo) + '"'
}

/**
 * Exactly JSON.stringify(str) (lone surrogates escaped), quicker for the short plain strings that
 * bindings mostly are: those are quoted without a copy.
 */
export function jsonString(str: string): string {
  const length = str.length
  if (length > 100) return JSON.stringify(str)
  for (let i = 0; i < length; i++) {
    const code = str.charCodeAt(i)
    if (code < 32 || code === 34 || code === 92 || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(str)
  }
  return '"' + str + '"'
}

export interface SafeStringifyLimits {
  /** Containers nested deeper than this are written as "[Object]" / "[Array]". */
  depthLimit: number | undefined
  /** Keys or elements written per container. */
  edgeLimit: number | undefined
}

export type SafeStringify = (value: unknown) => string | undefined

// The limits are checked as pino's encoder (safe-stable-stringify) checks them, with its errors
// (a TypeError or RangeError, as an app catching pino's would expect), carrying logx's code and
// the option's path as well.
function checkLimit(value: unknown, name: string, option: string): number {
  const fail = (ErrorClass: typeof TypeError, message: string): never => {
    throw Object.assign(new ErrorClass(message), { code: 'LOGX_ERR_INVALID_OPTION', path: option })
  }
  if (typeof value !== 'number') fail(TypeError, `The "${name}" argument must be of type number`)
  if (!Number.isInteger(value)) fail(TypeError, `The "${name}" argument must be an integer`)
  if ((value as number) < 1) fail(RangeError, `The "${name}" argument must be >= 1`)
  return value as number
}

const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag)
  ?.get as (this: unknown) => string | undefined

function itemCount(count: number): string {
  return count === 1 ? '1 item' : count + ' items'
}

/**
 * The encoder used when JSON.stringify refuses a value (a cycle, a BigInt, a throwing getter).
 * Its output is pino's byte for byte: keys sorted, `[Circular]` for cycles, `[Object]`/`[Array]`
 * past depthLimit, at most edgeLimit keys or elements per container (pino's counts included),
 * BigInt as a number, and UNSERIALIZABLE_JSON for the whole value when reading it throws.
 */
export function createSafeStringify(limits: SafeStringifyLimits): SafeStringify {
  const maxDepth = checkLimit(limits.depthLimit, 'maximumDepth', 'depthLimit')
  const maxBreadth = checkLimit(limits.edgeLimit, 'maximumBreadth', 'edgeLimit')

  // A throw anywhere below propagates to safeStringify, which gives up on the whole value.
  function encode(key: string, input: unknown, stack: unknown[]): string | undefined {
    let value = input
    if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      value = (value as { toJSON: (k: string) => unknown }).toJSON(key)
    }
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value)
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null'
      case 'boolean':
        return value ? 'true' : 'false'
      case 'bigint':
        return String(value)
      case 'object':
        if (value === null) return 'null'
        if (stack.includes(value)) return '"[Circular]"'
        return Array.isArray(value) ? encodeArray(value, stack) : encodeObject(value as Record<string, unknown>, stack)
      default:
        return undefined
    }
  }

  function encodeArray(array: unknown[], stack: unknown[]): string {
    if (array.length === 0) return '[]'
    if (stack.length >= maxDepth) return '"[Array]"'
    stack.push(array)
    const shown = Math.min(array.length, maxBreadth)
    let out = ''
    for (let i = 0; i < shown; i++) out += (i > 0 ? ',' : '') + (encode(String(i), array[i], stack) ?? 'null')
    // pino's encoder counts one item fewer than it leaves out (and says nothing for one).
    if (array.length - 1 > maxBreadth) out += ',"... ' + itemCount(array.length - maxBreadth - 1) + ' not stringified"'
    stack.pop()
    return '[' + out + ']'
  }

  function encodeObject(object: Record<string, unknown>, stack: unknown[]): string {
    let keys = Object.keys(object)
    const keyCount = keys.length
    if (keyCount === 0) return '{}'
    if (stack.length >= maxDepth) return '"[Object]"'
    let out = ''
    let separator = ''
    let shown = Math.min(keyCount, maxBreadth)
    const length = (object as { length?: unknown }).length
    if (length !== undefined && typedArrayTag.call(object) !== undefined && length !== 0) {
      const typed = object as unknown as ArrayLike<number>
      const elements = Math.min(typed.length, maxBreadth)
      for (let i = 0; i < elements; i++) out += (i > 0 ? ',' : '') + '"' + i + '":' + typed[i]
      keys = keys.slice(typed.length)
      shown -= typed.length
      separator = ','
    }
    keys.sort()
    stack.push(object)
    for (let i = 0; i < shown; i++) {
      const key = keys[i] as string
      const encoded = encode(key, object[key], stack)
      if (encoded === undefined) continue
      out += separator + JSON.stringify(key) + ':' + encoded
      separator = ','
    }
    if (keyCount > maxBreadth) out += separator + '"...":"' + itemCount(keyCount - maxBreadth) + ' not stringified"'
    stack.pop()
    return '{' + out + '}'
  }

  return function safeStringify(value: unknown): string | undefined {
    try {
      return encode('', value, [])
    } catch {
      return UNSERIALIZABLE_JSON
    }
  }
}

/** JSON.stringify first (fast, exact), the safe encoder only when it throws (cycles, BigInt, throwing getters). */
export function stringifyValue(value: unknown, safe: SafeStringify): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return safe(value)
  }
}
