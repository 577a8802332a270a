// What an OTLP logs export says once decoded, whether it came as protobuf or as JSON: the one shape
// otlp-event.ts maps to events. A leaf: types only.

/** An AnyValue as plain data: a kvlist is an object, an array a list, bytes base64, a large int64 a string. */
export type OtlpValue = string | number | boolean | null | OtlpValue[] | { [key: string]: OtlpValue }

/** Attributes by key (a null-prototype object: a key `__proto__` stays a key). */
export type OtlpAttributes = Record<string, OtlpValue>

export interface OtlpRecord {
  /** Nanoseconds since the epoch as decimal text; undefined when 0 (unknown). */
  timeUnixNano: string | undefined
  observedTimeUnixNano: string | undefined
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
