// OTLP/JSON (the protobuf JSON mapping as OTLP amends it): an ExportLogsServiceRequest into the shape of
// otlp-types.ts. Rules:
// 1. keys are lowerCamelCase; unknown keys are ignored (OTLP: receivers MUST ignore unknown fields);
// 2. traceId and spanId are hex strings (not base64, OTLP's exception); any other text keeps the
//    record's id as sent, and otlp-event.ts refuses the record (partial success);
// 3. int64 and fixed64 values come as decimal strings or numbers; enums (severityNumber) as integers;
// 4. a value of the wrong JSON type (a list that is an object, a string that is a number) is a payload
//    error naming its path (`resourceLogs[0].scopeLogs[0].logRecords[2].severityNumber`): nothing of the
//    request is taken;
// 5. an AnyValue is an object with one of stringValue, boolValue, intValue, doubleValue, arrayValue,
//    kvlistValue, bytesValue (base64); an empty object is null.
import { payloadError } from '../errors'
import {
  millisOfNanoText,
  setOwn,
  type OtlpAttributes,
  type OtlpRecord,
  type OtlpResourceLogs,
  type OtlpScopeLogs,
} from './otlp-types'
import type { OtlpValue } from './otlp-types'

type Json = Record<string, unknown>

/** The request's resource logs (rules 1-5). */
export function decodeJsonRequest(body: Buffer): OtlpResourceLogs[] {
  let request: unknown
  try {
    request = JSON.parse(body.toString('utf8'))
  } catch (error) {
    throw payloadError('body', `not JSON (${(error as Error).message})`)
  }
  const top = object(request, 'body')
  return array(top.resourceLogs, 'resourceLogs').map((item, r) => {
    const path = `resourceLogs[${r}]`
    const resourceLogs = object(item, path)
    const resource = optionalObject(resourceLogs.resource, `${path}.resource`)
    return {
      resource: attributes(resource?.attributes, `${path}.resource.attributes`),
      scopes: array(resourceLogs.scopeLogs, `${path}.scopeLogs`).map((scope, s) =>
        scopeLogs(scope, `${path}.scopeLogs[${s}]`),
      ),
    }
  })
}

function scopeLogs(value: unknown, path: string): OtlpScopeLogs {
  const scopeLogs = object(value, path)
  const scope = optionalObject(scopeLogs.scope, `${path}.scope`)
  return {
    scopeName: string(scope?.name, `${path}.scope.name`),
    scopeVersion: string(scope?.version, `${path}.scope.version`),
    records: array(scopeLogs.logRecords, `${path}.logRecords`).map((record, l) =>
      logRecord(record, `${path}.logRecords[${l}]`),
    ),
  }
}

function logRecord(value: unknown, path: string): OtlpRecord {
  const record = object(value, path)
  return {
    timeMs:
      millis(record.timeUnixNano, `${path}.timeUnixNano`) ??
      millis(record.observedTimeUnixNano, `${path}.observedTimeUnixNano`),
    severityNumber: severity(record.severityNumber, `${path}.severityNumber`),
    severityText: string(record.severityText, `${path}.severityText`),
    body: record.body === undefined || record.body === null ? undefined : anyValue(record.body, `${path}.body`),
    attributes: attributes(record.attributes, `${path}.attributes`),
    traceId: string(record.traceId, `${path}.traceId`).toLowerCase(),
    spanId: string(record.spanId, `${path}.spanId`).toLowerCase(),
    eventName: string(record.eventName, `${path}.eventName`),
    path,
  }
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw payloadError(path, 'expected an object')
  return value as Json
}

function optionalObject(value: unknown, path: string): Json | undefined {
  return value === undefined || value === null ? undefined : object(value, path)
}

function array(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw payloadError(path, 'expected a list')
  return value
}

function string(value: unknown, path: string): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') throw payloadError(path, 'expected a string')
  return value
}

/** Rule 3: an int64 as a number when it is a safe integer, else its decimal text. */
function int64(value: unknown, path: string): number | string {
  if (typeof value === 'number' && Number.isInteger(value)) return value
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) {
    const number = Number(value)
    return Number.isSafeInteger(number) ? number : value
  }
  throw payloadError(path, 'expected an integer (a number or decimal text)')
}

function millis(nanos: unknown, path: string): number | undefined {
  if (nanos === undefined || nanos === null) return undefined
  return millisOfNanoText(String(int64(nanos, path)))
}

function severity(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 24) {
    throw payloadError(path, 'expected an integer from 0 to 24')
  }
  return value
}

function attributes(value: unknown, path: string): OtlpAttributes {
  const result: OtlpAttributes = {}
  array(value, path).forEach((item, i) => {
    const pair = object(item, `${path}[${i}]`)
    const key = string(pair.key, `${path}[${i}].key`)
    const value = pair.value === undefined || pair.value === null ? null : anyValue(pair.value, `${path}[${i}].value`)
    setOwn(result, key, value)
  })
  return result
}

/** Rule 5. */
function anyValue(value: unknown, path: string): OtlpValue {
  const any = object(value, path)
  if (any.stringValue !== undefined) return string(any.stringValue, `${path}.stringValue`)
  if (any.boolValue !== undefined) {
    if (typeof any.boolValue !== 'boolean') throw payloadError(`${path}.boolValue`, 'expected true or false')
    return any.boolValue
  }
  if (any.intValue !== undefined) return int64(any.intValue, `${path}.intValue`)
  if (any.doubleValue !== undefined) return double(any.doubleValue, `${path}.doubleValue`)
  if (any.bytesValue !== undefined) return string(any.bytesValue, `${path}.bytesValue`)
  if (any.arrayValue !== undefined) {
    const list = object(any.arrayValue, `${path}.arrayValue`)
    return array(list.values, `${path}.arrayValue.values`).map((item, i) =>
      anyValue(item, `${path}.arrayValue.values[${i}]`),
    )
  }
  if (any.kvlistValue !== undefined) {
    const map = object(any.kvlistValue, `${path}.kvlistValue`)
    return attributes(map.values, `${path}.kvlistValue.values`)
  }
  return null
}

/** A double: a number, or "NaN", "Infinity", "-Infinity" as the JSON mapping writes them. */
function double(value: unknown, path: string): number | string {
  if (typeof value === 'number') return value
  if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return value
  throw payloadError(path, 'expected a number')
}
