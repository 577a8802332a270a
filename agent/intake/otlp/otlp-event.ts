// OTLP log records -> intake events. Pure. Rules:
// 1. the level is severityNumber's range: 1-4 trace, 5-8 debug, 9-12 info, 13-16 warn, 17-20 error,
//    21-24 fatal; 0 (unspecified) takes severityText's word (`ERROR`, `warning`), else no level;
// 2. a string body is the message; a map (kvlist) body is spread into the record as fields and its
//    `message` or `msg` entry (a string) is the message, else the map as JSON; any other body (number,
//    list, bytes) is its JSON text; no body is an empty message;
// 3. the record's attributes are fields; the resource's attributes are under `resource`, and two of
//    them are also fields of their own: `service.name` as `service`, `host.name` as `hostname`;
// 4. trace and span ids are kept as lower-case hex (`trace_id`, `span_id`); an id of the wrong length
//    (a trace id is 16 bytes, a span id 8) or not hex refuses that record alone: the export is
//    answered with partial success naming how many were refused and why;
// 5. the time is timeUnixNano (or observedTimeUnixNano when that is 0) in milliseconds (`time`); the
//    scope's name is `scope`, an event name `event_name`, severityText `severity_text`;
// 6. an attribute or body field whose name is one the record sets itself (msg, level, time, trace_id,
//    span_id, service, hostname, resource, scope, event_name, severity_text) is kept under `attributes`
//    instead, so a sender cannot forge them;
// 7. a record whose level (rule 1) is below `lowest`, the lowest level any rule takes, is counted in
//    `passed` and becomes no event: it could not page, and most records are such (the file path's
//    byte pre-filter drops its lines the same way). A record without a level is kept. The protobuf
//    decoder applies it (belowLowest) before it builds a record, after rule 4's id lengths.
import { levelOfWord, type AlertLine } from '../../../alerts'
import type { IntakeEvent } from '../types'
import { setOwn, type OtlpAttributes, type OtlpRecord, type OtlpResourceLogs, type OtlpValue } from './otlp-types'

const RESERVED = new Set([
  'msg',
  'level',
  'time',
  'trace_id',
  'span_id',
  'service',
  'hostname',
  'resource',
  'scope',
  'event_name',
  'severity_text',
  'attributes',
])
const TRACE_ID = /^[0-9a-f]{32}$/
const SPAN_ID = /^[0-9a-f]{16}$/

export interface OtlpEvents {
  events: IntakeEvent[]
  /** Records refused by rule 4. */
  rejected: number
  /** Records taken but below every rule (rule 7). */
  passed: number
  /** Why the first was refused, for the partial-success message. */
  rejection: string | undefined
}

const LEVEL_OF_QUARTER = [10, 20, 30, 40, 50, 60]

/** Rule 1. */
export function levelOfSeverity(severityNumber: number, severityText: string): number | undefined {
  if (severityNumber >= 1 && severityNumber <= 24) return LEVEL_OF_QUARTER[(severityNumber - 1) >> 2]
  return severityText === '' ? undefined : levelOfWord(severityText)
}

/**
 * Rule 7's test, for a decoder that applies it before it builds a record (protobuf-codec.ts): the
 * record's level is known and below `lowest`.
 */
export function belowLowest(severityNumber: number, severityText: string, lowest: number): boolean {
  const level = levelOfSeverity(severityNumber, severityText)
  return level !== undefined && level < lowest
}

/** Every record of the request, as events of source `source`, and the ones refused (rule 4). */
export function otlpEvents(request: readonly OtlpResourceLogs[], source: string, lowest = -Infinity): OtlpEvents {
  const result: OtlpEvents = { events: [], rejected: 0, passed: 0, rejection: undefined }
  for (const resourceLogs of request) {
    const resource = resourceFields(resourceLogs.resource)
    for (const scope of resourceLogs.scopes) {
      for (const record of scope.records) {
        const problem = idProblem(record)
        if (problem !== undefined) {
          result.rejected++
          result.rejection ??= `${record.path}: ${problem}`
          continue
        }
        if (belowLowest(record.severityNumber, record.severityText, lowest)) {
          result.passed++
          continue
        }
        result.events.push({ line: recordLine(record, resource, scope.scopeName, source) })
      }
    }
  }
  return result
}

function idProblem(record: OtlpRecord): string | undefined {
  if (record.traceId !== '' && !TRACE_ID.test(record.traceId)) return 'traceId is not 16 bytes of hex'
  if (record.spanId !== '' && !SPAN_ID.test(record.spanId)) return 'spanId is not 8 bytes of hex'
  return undefined
}

/** Rule 3: what every record of one resource carries. */
function resourceFields(resource: OtlpAttributes): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  const service = resource['service.name']
  const host = resource['host.name']
  if (typeof service === 'string') fields.service = service
  if (typeof host === 'string') fields.hostname = host
  if (Object.keys(resource).length > 0) fields.resource = { ...resource }
  return fields
}

function recordLine(record: OtlpRecord, resource: Record<string, unknown>, scope: string, source: string): AlertLine {
  const fields: Record<string, unknown> = {}
  const moved: Record<string, unknown> = {}
  const put = (key: string, value: OtlpValue): void => {
    if (RESERVED.has(key) || key === '__proto__') setOwn(moved, key, value)
    else fields[key] = value
  }
  for (const key of Object.keys(record.attributes)) put(key, record.attributes[key] as OtlpValue)
  const msg = messageOf(record.body, put)
  const level = levelOfSeverity(record.severityNumber, record.severityText)
  const out: Record<string, unknown> = { level, msg, ...fields, ...resource }
  if (level === undefined) delete out.level
  if (record.timeMs !== undefined) out.time = record.timeMs
  if (record.traceId !== '') out.trace_id = record.traceId
  if (record.spanId !== '') out.span_id = record.spanId
  if (scope !== '') out.scope = scope
  if (record.eventName !== '') out.event_name = record.eventName
  if (record.severityText !== '') out.severity_text = record.severityText
  if (Object.keys(moved).length > 0) out.attributes = moved
  return { raw: JSON.stringify(out), record: out, level, msg, source, json: true }
}

/** Rule 2: the message, and a map body's entries through `put`. */
function messageOf(body: OtlpValue | undefined, put: (key: string, value: OtlpValue) => void): string {
  if (body === undefined || body === null) return ''
  if (typeof body === 'string') return body
  if (typeof body !== 'object' || Array.isArray(body)) return JSON.stringify(body)
  for (const key of Object.keys(body)) {
    if (key !== 'message' && key !== 'msg') put(key, body[key] as OtlpValue)
  }
  const text = body.message ?? body.msg
  return typeof text === 'string' ? text : JSON.stringify(body)
}
