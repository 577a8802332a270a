// OTLP protobuf, by protobufjs and the published schema (otlp-schema.json, made from proto/): an
// ExportLogsServiceRequest decoded into the shape of otlp-types.ts, and the replies encoded. Loaded on
// the first protobuf request, so an agent without an OTLP source never reads protobufjs.
import { Root, type INamespace, type Message } from 'protobufjs/light'
import { payloadError } from '../errors'
import schema from './otlp-schema.json'
import { setOwn, type OtlpAttributes, type OtlpRecord, type OtlpResourceLogs, type OtlpValue } from './otlp-types'

const root = Root.fromJSON(schema as INamespace)
const requestType = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest')
const responseType = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse')
const statusType = root.lookupType('google.rpc.Status')

/** A decoded message's fields: protobufjs's instances carry them as plain properties. */
type Fields = Record<string, unknown>

/** A Long (int64 and fixed64 fields, from the `long` package protobufjs brings) or a number. */
interface LongLike {
  toString(): string
}

/** The request's resource logs; a body that is not an ExportLogsServiceRequest is a payload error. */
export function decodeProtobufRequest(body: Buffer): OtlpResourceLogs[] {
  let request: Fields
  try {
    request = requestType.decode(body) as unknown as Fields
  } catch (error) {
    throw payloadError('body', `not an OTLP ExportLogsServiceRequest (${(error as Error).message})`)
  }
  return list(request.resourceLogs).map((resourceLogs, r) => ({
    resource: attributesOf(list((resourceLogs.resource as Fields | null | undefined)?.attributes)),
    scopes: list(resourceLogs.scopeLogs).map((scopeLogs, s) => {
      const scope = (scopeLogs.scope as Fields | null | undefined) ?? {}
      return {
        scopeName: String(scope.name ?? ''),
        scopeVersion: String(scope.version ?? ''),
        records: list(scopeLogs.logRecords).map((record, l) =>
          recordOf(record, `resourceLogs[${r}].scopeLogs[${s}].logRecords[${l}]`),
        ),
      }
    }),
  }))
}

function list(value: unknown): Fields[] {
  return Array.isArray(value) ? (value as Fields[]) : []
}

function recordOf(record: Fields, path: string): OtlpRecord {
  return {
    timeUnixNano: nanos(record.timeUnixNano),
    observedTimeUnixNano: nanos(record.observedTimeUnixNano),
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

function nanos(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  const text = typeof value === 'number' ? String(value) : (value as LongLike).toString()
  return text === '0' ? undefined : text
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
  const text = (value as LongLike).toString()
  const number = Number(text)
  return Number.isSafeInteger(number) ? number : text
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
