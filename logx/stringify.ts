// JSON encoding for the write path: a quick string quoter, JSON.stringify for the common case,
// and a safe encoder (circular refs, depth and breadth limits, BigInt) only when JSON.stringify
// refuses a value. A value that cannot be read at all (a getter, toJSON or Proxy trap that throws
// somewhere inside it) is written as pino writes it: the whole value becomes UNSERIALIZABLE_JSON.

/** pino's placeholder (its wording) for a value whose encoding threw, as a JSON string literal. */
export const UNSERIALIZABLE_JSON = '"[unable to serialize, circular reference is too complex to analyze]"'

/**
 * A JSON string literal. Short strings are scanned in JS and quoted without a copy when nothing
 * needs escaping (the common case for messages and keys); anything with a quote, backslash,
 * control character or surrogate, and every long string, goes through JSON.stringify, which also
 * escapes lone surrogates so the output stays valid UTF-8.
 */
export function quoteString(str: string): string {
  const length = str.length
  if (length > 80) return JSON.stringify(str)
  for (let i = 0; i < length; i++) {
    const code = str.charCodeAt(i)
    if (code < 32 || code === 34 || code === 92 || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(str)
  }
  return '"' + str + '"'
}

export interface SafeStringifyLimits {
  depthLimit: number
  edgeLimit: number
}

export type SafeStringify = (value: unknown) => string | undefined

/**
 * Builds an encoder that never throws: `[Circular]` for cycles, `[Object]`/`[Array]` past
 * depthLimit, at most edgeLimit keys/elements per container, BigInt as a number, and
 * UNSERIALIZABLE_JSON for the whole value when reading any part of it throws.
 */
export function createSafeStringify({ depthLimit, edgeLimit }: SafeStringifyLimits): SafeStringify {
  // Ancestors of the value being encoded; a fresh array per call keeps re-entrant calls (a toJSON that logs) apart.
  let stack: unknown[] = []

  // A throw anywhere below propagates to safeStringify, which gives up on the whole value.
  function encodeProperty(holder: Record<string, unknown>, key: string): string | undefined {
    let value = holder[key]
    if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      value = (value as { toJSON: (k: string) => unknown }).toJSON(key)
    }
    return encodeValue(value)
  }

  function encodeValue(value: unknown): string | undefined {
    switch (typeof value) {
      case 'string':
        return quoteString(value)
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null'
      case 'boolean':
        return value ? 'true' : 'false'
      case 'bigint':
        return String(value)
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined
      default:
        break
    }
    if (value === null) return 'null'
    if (stack.includes(value)) return '"[Circular]"'
    const isArray = Array.isArray(value)
    if (stack.length >= depthLimit) return isArray ? '"[Array]"' : '"[Object]"'
    stack.push(value)
    try {
      return isArray ? encodeArray(value as unknown[]) : encodeObject(value as Record<string, unknown>)
    } finally {
      stack.pop()
    }
  }

  function encodeArray(array: unknown[]): string {
    if (array.length === 0) return '[]'
    const shown = Math.min(array.length, edgeLimit)
    let out = '['
    for (let i = 0; i < shown; i++) {
      if (i > 0) out += ','
      out += encodeProperty(array as unknown as Record<string, unknown>, String(i)) ?? 'null'
    }
    const hidden = array.length - shown
    if (hidden > 0) out += ',"... ' + hidden + ' item' + (hidden === 1 ? '' : 's') + ' not stringified"'
    return out + ']'
  }

  function encodeObject(object: Record<string, unknown>): string {
    const keys = Object.keys(object)
    let out = '{'
    let written = 0
    let shownKeys = 0
    for (const key of keys) {
      if (shownKeys >= edgeLimit) break
      shownKeys++
      const encoded = encodeProperty(object, key)
      if (encoded === undefined) continue
      if (written > 0) out += ','
      out += quoteString(key) + ':' + encoded
      written++
    }
    const hidden = keys.length - shownKeys
    if (hidden > 0) {
      out += (written > 0 ? ',' : '') + '"...":"' + hidden + ' item' + (hidden === 1 ? '' : 's') + ' not stringified"'
    }
    return out + '}'
  }

  return function safeStringify(value: unknown): string | undefined {
    const outer = stack
    stack = []
    try {
      if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        value = (value as { toJSON: (k: string) => unknown }).toJSON('')
      }
      return encodeValue(value)
    } catch {
      return UNSERIALIZABLE_JSON
    } finally {
      stack = outer
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

