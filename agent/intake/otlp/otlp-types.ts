// What an OTLP logs export says once decoded, whether it came as protobuf or as JSON: the one shape
// otlp-event.ts maps to events. A leaf: its types, and the one way its maps are filled.

/** An AnyValue as plain data: a kvlist is an object, an array a list, bytes base64, a large int64 a string. */
export type OtlpValue = string | number | boolean | null | OtlpValue[] | { [key: string]: OtlpValue }

/** Attributes by key (a key `__proto__` is an own property: setOwn). */
export type OtlpAttributes = Record<string, OtlpValue>

/**
 * Sets an own key, `__proto__` too, on a plain object: a null-prototype object would be a V8 dictionary,
 * several times slower to fill and to walk on every record.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true })
  else target[key] = value
}

export interface OtlpRecord {
  /**
   * Milliseconds since the epoch, from timeUnixNano or, when that is 0, observedTimeUnixNano (exact:
   * nanoseconds cut to whole milliseconds); undefined when both are 0 (unknown).
   */
  timeMs: number | undefined
  /** 0 (unspecified) to 24. */
  severityNumber: number
  severityText: string
  body: OtlpValue | undefined
  attributes: OtlpAttributes
  /** Lower-case hex; '' when not sent. */
  traceId: string
  spanId: string
  eventName: string
  /** Where the record is in the request, for a refusal's message (`resourceLogs[0]...logRecords[3]`). */
  path: string
}

export interface OtlpScopeLogs {
  scopeName: string
  scopeVersion: string
  records: OtlpRecord[]
}

export interface OtlpResourceLogs {
  resource: OtlpAttributes
  scopes: OtlpScopeLogs[]
}

/** Nanoseconds since the epoch as decimal text (a JSON int64), to whole milliseconds; 0 is unknown. */
export function millisOfNanoText(text: string): number | undefined {
  const nanos = Number(text)
  if (nanos === 0) return undefined
  // Past 2^53 a number is not exact, but its text is: cut the last six digits instead.
  return Number.isSafeInteger(nanos) ? Math.trunc(nanos / 1_000_000) : Number(text.slice(0, -6))
}
