// OTLP protobuf, by protobufjs and the published schema (otlp-schema.json, made from proto/): an
// ExportLogsServiceRequest decoded into the shape of otlp-types.ts, and the replies encoded. Loaded on
// the first protobuf request, so an agent without an OTLP source never reads protobufjs.
import { Root, type INamespace, type Message, type Type } from 'protobufjs/light'
import { payloadError } from '../errors'
import schema from './otlp-schema.json'
import { belowLowest } from './otlp-event'
import { setOwn, type OtlpAttributes, type OtlpRecord, type OtlpResourceLogs, type OtlpValue } from './otlp-types'

const root = Root.fromJSON(schema as INamespace)
const requestType = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest')
const responseType = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse')
const statusType = root.lookupType('google.rpc.Status')

/** A decoded message's fields: protobufjs's instances carry them as plain properties. */
type Fields = Record<string, unknown>

/** A generated decoder as protobufjs calls it for a nested message (reader, length, end tag, depth). */
type NestedDecode = (reader: unknown, length?: number, end?: number, depth?: number) => unknown

/** Rule 7's threshold for the decode under way (decoding is synchronous: one at a time). */
let decodingLowest = -Infinity

/**
 * Each LogRecord is taken as protobufjs finishes decoding it, inside the request's decode: left out
 * (undefined in its scope's list) when below the lowest level, else made an OtlpRecord at once. A busy
 * export holds thousands of records; decoded whole, each record's dozen objects would live until the
 * request is done, long enough for the agent's small young generation (--max-semi-space-size=1) to
 * promote them and for its collector to sweep them again: most of the decode's cost. Taken one at a time
 * they die young. protobufjs still reads every byte: its ScopeLogs decoder calls the LogRecord type's
 * decode for each record, which is this, around the one protobufjs generated from the schema.
 */
function takeRecordsAsDecoded(logRecordType: Type): void {
  const generated = logRecordType.setup().decode as unknown as NestedDecode
  const take: NestedDecode = (reader, length, end, depth) => {
    const record = generated.call(logRecordType, reader, length, end, depth) as Fields
    return leftOut(record, decodingLowest) ? undefined : recordOf(record, '')
  }
  logRecordType.decode = take as unknown as Type['decode']
}
takeRecordsAsDecoded(root.lookupType('opentelemetry.proto.logs.v1.LogRecord'))

/** A Long (int64 and fixed64 fields, from the `long` package protobufjs brings) or a number. */
interface LongLike {
  low: number
  high: number
  toNumber(): number
  toString(): string
}

/** What a protobuf request holds: its resource logs, and how many records rule 7 left out unbuilt. */
export interface DecodedProtobuf {
  logs: OtlpResourceLogs[]
  passed: number
}

/**
 * The request's resource logs; a body that is not an ExportLogsServiceRequest is a payload error.
 * A record below `lowest` (otlp-event.ts rule 7) is counted in `passed` and nothing of it is built: it is
 * most of a busy export, and each object it would make is garbage the agent would collect.
 */
export function decodeProtobufRequest(body: Buffer, lowest = -Infinity): DecodedProtobuf {
  let request: Fields
  decodingLowest = lowest
  try {
    request = requestType.decode(body) as unknown as Fields
  } catch (error) {
    throw payloadError('body', `not an OTLP ExportLogsServiceRequest (${(error as Error).message})`)
  } finally {
    decodingLowest = -Infinity
  }
  const decoded: DecodedProtobuf = { logs: [], passed: 0 }
  list(request.resourceLogs).forEach((resourceLogs, r) => {
    const scopes = list(resourceLogs.scopeLogs).map((scopeLogs, s) => {
      const scope = (scopeLogs.scope as Fields | null | undefined) ?? {}
      const records: OtlpRecord[] = []
      // Taken as decoded (takeRecordsAsDecoded): an OtlpRecord, or undefined where one was left out.
      const taken = (scopeLogs.logRecords as (OtlpRecord | undefined)[] | undefined) ?? []
      taken.forEach((record, l) => {
        if (record === undefined) return void decoded.passed++
        // A protobufjs whose ScopeLogs decoder no longer calls the type's decode would hand its own objects.
        if (typeof record.path !== 'string') throw new Error('protobufjs decoded a LogRecord past its hook')
        record.path = `resourceLogs[${r}].scopeLogs[${s}].logRecords[${l}]`
        records.push(record)
      })
      return { scopeName: String(scope.name ?? ''), scopeVersion: String(scope.version ?? ''), records }
    })
    const resource = resourceLogs.resource as Fields | null | undefined
    decoded.logs.push({ resource: attributesOf(list(resource?.attributes)), scopes })
  })
  return decoded
}

function list(value: unknown): Fields[] {
  return Array.isArray(value) ? (value as Fields[]) : []
}

const TRACE_ID_BYTES = 16
const SPAN_ID_BYTES = 8

/** Rule 7 before the record is built; a record with an id of the wrong length is built, to be refused. */
function leftOut(record: Fields, lowest: number): boolean {
  const traceId = (record.traceId as Uint8Array | undefined)?.length ?? 0
  const spanId = (record.spanId as Uint8Array | undefined)?.length ?? 0
  if ((traceId !== 0 && traceId !== TRACE_ID_BYTES) || (spanId !== 0 && spanId !== SPAN_ID_BYTES)) return false
  return belowLowest(Number(record.severityNumber ?? 0), String(record.severityText ?? ''), lowest)
}

function recordOf(record: Fields, path: string): OtlpRecord {
  return {
    timeMs: millis(record.timeUnixNano) ?? millis(record.observedTimeUnixNano),
    severityNumber: Number(record.severityNumber ?? 0),
    severityText: String(record.severityText ?? ''),
    body: record.body === null || record.body === undefined ? undefined : anyValue(record.body as Fields),
    attributes: attributesOf(list(record.attributes)),
    traceId: hex(record.traceId),
    spanId: hex(record.spanId),
    eventName: String(record.eventName ?? ''),
    path,
  }
}

/** 2^32 = 4294 * 10^6 + 967296: what the high half of a fixed64 is worth in milliseconds and nanoseconds. */
const HIGH_MS = 4294
const HIGH_NS_REST = 967_296
const NS_PER_MS = 1_000_000

/**
 * A fixed64 of nanoseconds to whole milliseconds, exactly, from its two 32-bit halves: no decimal text,
 * no BigInt (each was a cost per record). 0 is unknown.
 */
function millis(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number') return value === 0 ? undefined : Math.trunc(value / NS_PER_MS)
  const { low, high } = value as LongLike
  if (low === 0 && high === 0) return undefined
  const lo = low >>> 0
  const hi = high >>> 0
  // Every product and sum stays below 2^53.
  return hi * HIGH_MS + Math.floor((hi * HIGH_NS_REST + lo) / NS_PER_MS)
}

function hex(value: unknown): string {
  return value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex') : ''
}

function attributesOf(pairs: Fields[]): OtlpAttributes {
  const attributes: OtlpAttributes = {}
  for (const pair of pairs) {
    const value = pair.value as Fields | null | undefined
    setOwn(attributes, String(pair.key ?? ''), value === null || value === undefined ? null : anyValue(value))
  }
  return attributes
}

/** An AnyValue by the field its `value` oneof names. */
function anyValue(value: Fields): OtlpValue {
  switch (value.value) {
    case 'stringValue':
    case 'boolValue':
    case 'doubleValue':
      return value[value.value] as OtlpValue
    case 'intValue':
      return int64(value.intValue)
    case 'bytesValue':
      return Buffer.from(value.bytesValue as Uint8Array).toString('base64')
    case 'arrayValue':
      return list((value.arrayValue as Fields).values).map(anyValue)
    case 'kvlistValue':
      return attributesOf(list((value.kvlistValue as Fields).values))
    default:
      return null
  }
}

function int64(value: unknown): number | string {
  if (typeof value === 'number') return value
  const number = (value as LongLike).toNumber()
  return Number.isSafeInteger(number) ? number : (value as LongLike).toString()
}

/** An ExportLogsServiceResponse: empty, or with partial_success when records were refused. */
export function encodeProtobufResponse(rejected: number, errorMessage: string): Buffer {
  const fields = rejected === 0 ? {} : { partialSuccess: { rejectedLogRecords: rejected, errorMessage } }
  return Buffer.from(responseType.encode(responseType.fromObject(fields)).finish())
}

/** A google.rpc.Status: the body of a refused request. */
export function encodeProtobufStatus(code: number, message: string): Buffer {
  return Buffer.from(statusType.encode(statusType.fromObject({ code, message })).finish())
}

/** For tests and the benchmark: a request object (camelCase, ids as bytes) encoded. */
export function encodeProtobufRequest(request: Record<string, unknown>): Buffer {
  const message: Message = requestType.fromObject(request)
  return Buffer.from(requestType.encode(message).finish())
}
