// The OTLP intake (`type: otlp`): OTLP/HTTP logs on `POST /v1/logs`, protobuf or JSON (gzip is
// inflated by the listener). Replies as the OTLP specification asks: 200 with an
// ExportLogsServiceResponse (partial_success when some records were refused), and a google.rpc.Status
// in the request's encoding on a refusal (400 bad payload, 429/503 with Retry-After from the listener).
import type { IntakeSourceConfig } from '../../config/types'
import type { HttpIntakeFactory, HttpIntakeHandler, IntakeReply, IntakeRequest } from '../types'
import { decodeJsonRequest } from './json-codec'
import { otlpEvents } from './otlp-event'

export { levelOfSeverity, otlpEvents } from './otlp-event'

export const OTLP_PROTOBUF = 'application/x-protobuf'
export const OTLP_JSON = 'application/json'

type ProtobufCodec = typeof import('./protobuf-codec.js')
let protobufCodec: Promise<ProtobufCodec> | undefined
let loadedProtobuf: ProtobufCodec | undefined
/** protobufjs and the schema: read when the first OTLP source is made, not by an agent without one. */
function loadProtobuf(): Promise<ProtobufCodec> {
  protobufCodec ??= import('./protobuf-codec.js').then((codec) => (loadedProtobuf = codec))
  return protobufCodec
}

/** What a decode refused, kept for its reply (the listener hands decode and reply the same request). */
interface Refused {
  rejected: number
  message: string
}

/** gRPC status codes (google.rpc.Code) for the HTTP statuses an intake refuses with. */
const GRPC_CODES: Readonly<Record<number, number>> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 3, 415: 3, 429: 8 }
const UNAVAILABLE = 14

export const createOtlpIntake: HttpIntakeFactory = (source: IntakeSourceConfig): HttpIntakeHandler => {
  const refusedByRequest = new WeakMap<IntakeRequest, Refused>()
  // Started now so a refusal before the first decode (401, 429) can already answer in protobuf.
  loadProtobuf().catch(() => undefined)
  return {
    source: source.name,
    paths: source.intake.paths,
    contentTypes: [OTLP_PROTOBUF, OTLP_JSON],
    async decode(body, request) {
      const decoded =
        request.contentType === OTLP_PROTOBUF
          ? (await loadProtobuf()).decodeProtobufRequest(body, request.lowestLevel)
          : { logs: decodeJsonRequest(body), passed: 0 }
      const { events, rejected, rejection, passed } = otlpEvents(decoded.logs, source.name, request.lowestLevel)
      request.passed = decoded.passed + passed
      if (rejected > 0) refusedByRequest.set(request, { rejected, message: rejection ?? '' })
      return events
    },
    reply(_accepted, request) {
      const refused = refusedByRequest.get(request)
      return exportResponse(request, refused?.rejected ?? 0, refused?.message ?? '')
    },
    refusal(status, message, request) {
      return statusReply(request, GRPC_CODES[status] ?? UNAVAILABLE, message)
    },
  }
}

function exportResponse(request: IntakeRequest, rejected: number, errorMessage: string): IntakeReply {
  if (request.contentType === OTLP_PROTOBUF) {
    // Loaded: this request was decoded with it.
    const codec = loadedProtobuf as ProtobufCodec
    return { contentType: OTLP_PROTOBUF, body: codec.encodeProtobufResponse(rejected, errorMessage) }
  }
  const body = rejected === 0 ? {} : { partialSuccess: { rejectedLogRecords: String(rejected), errorMessage } }
  return { contentType: OTLP_JSON, body: JSON.stringify(body) }
}

function statusReply(request: IntakeRequest, code: number, message: string): IntakeReply {
  if (request.contentType === OTLP_PROTOBUF && loadedProtobuf !== undefined) {
    return { contentType: OTLP_PROTOBUF, body: loadedProtobuf.encodeProtobufStatus(code, message) }
  }
  return { contentType: OTLP_JSON, body: JSON.stringify({ code, message }) }
}
