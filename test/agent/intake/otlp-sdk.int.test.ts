// The OTLP intake behind the intake listener, fed by the real OpenTelemetry JS SDK (sdk-logs with the
// otlp-http exporter, JSON, and the otlp-proto exporter, protobuf, gzip or not), and the replies the
// OTLP specification asks for: partial success, a Status on a bad payload, 415 for another type.
import { gzipSync } from 'node:zlib'
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api'
import { SeverityNumber } from '@opentelemetry/api-logs'
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http'
import { OTLPLogExporter as ProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { LoggerProvider, SimpleLogRecordProcessor, type LogRecordExporter } from '@opentelemetry/sdk-logs'
import * as protobuf from 'protobufjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IntakeSourceConfig } from '../../../agent/config/types'
import { createIntakeHost, type RunningIntake } from '../../../agent/intake'
import type { IntakeEvent, IntakeSink } from '../../../agent/intake/types'
import schema from '../../../agent/intake/otlp/otlp-schema.json'

const TRACE = '5b8efff798038103d269b633813fc60c'
const SPAN = 'eee19b7ec3c1b174'
const events: IntakeEvent[] = []
/** What the sink says is the lowest level any rule takes; the sources it was asked for; what was passed. */
const levels = { lowest: 0, askedFor: new Set<string>(), passed: new Map<string, number>() }
const sink: IntakeSink = {
  busy: () => false,
  lowestLevel(source) {
    levels.askedFor.add(source)
    return levels.lowest
  },
  countPassed(source, count) {
    levels.passed.set(source, (levels.passed.get(source) ?? 0) + count)
  },
  accept(batch) {
    events.push(...batch)
    return Promise.resolve()
  },
}
const silentLog = { info() {}, warn() {}, error() {} }
let intake: RunningIntake
let url: string

beforeAll(async () => {
  const source = {
    name: 'otel',
    type: 'otlp',
    paths: [],
    intake: {
      listen: { host: '127.0.0.1', port: 0 },
      token: undefined,
      tls: undefined,
      maxBodyBytes: 4 * 1024 * 1024,
      rateLimit: { requests: 1000, perMs: 1000 },
      paths: ['/v1/logs'],
    },
  } as unknown as IntakeSourceConfig
  intake = await createIntakeHost({ sink, log: silentLog, now: () => Date.now() }).start(source)
  url = intake.urls[0] as string
})

afterAll(async () => {
  await intake?.close()
})

/** Emits one error record with a span context through the SDK and `exporter`, flushed. */
async function emitWith(exporter: LogRecordExporter, body: string): Promise<void> {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'checkout', 'host.name': 'web-3' }),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  })
  const context = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED })
  provider.getLogger('orders', '1.0.0').emit({
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    body,
    attributes: { 'order.id': 1017, retry: false },
    context,
  })
  await provider.forceFlush()
  await provider.shutdown()
}

const eventWith = (msg: string) => events.find((event) => event.line.msg === msg)

describe('the OTLP intake with the OpenTelemetry JS SDK', () => {
  it('takes an error record from the JSON exporter: level, attributes, resource, trace ids', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/logs$/)
    await emitWith(new JsonExporter({ url }), 'payment failed (json)')
    const event = eventWith('payment failed (json)')
    expect(event?.line).toMatchObject({ level: 50, source: 'otel', json: true })
    expect(event?.line.record).toMatchObject({
      'order.id': 1017,
      retry: false,
      service: 'checkout',
      hostname: 'web-3',
      trace_id: TRACE,
      span_id: SPAN,
      scope: 'orders',
      severity_text: 'ERROR',
    })
  })

  it('takes the same from the protobuf exporter, gzip and not', async () => {
    await emitWith(new ProtoExporter({ url }), 'payment failed (proto)')
    // CompressionAlgorithm.GZIP is 'gzip'; its enum is in otlp-exporter-base, which we do not depend on directly.
    await emitWith(new ProtoExporter({ url, compression: 'gzip' as never }), 'payment failed (proto, gzip)')
    for (const msg of ['payment failed (proto)', 'payment failed (proto, gzip)']) {
      expect(eventWith(msg)?.line.record).toMatchObject({ level: 50, trace_id: TRACE, service: 'checkout' })
    }
  })
})

describe('records below every rule', () => {
  it("are counted for the source's ratio rules and never made events (protobuf and JSON)", async () => {
    levels.lowest = 40
    try {
      const provider = new LoggerProvider({
        processors: [new SimpleLogRecordProcessor({ exporter: new ProtoExporter({ url }) })],
      })
      const logger = provider.getLogger('orders')
      logger.emit({ severityNumber: SeverityNumber.INFO, body: 'served (proto)' })
      logger.emit({ severityNumber: SeverityNumber.WARN, body: 'slow (proto)' })
      await provider.forceFlush()
      await provider.shutdown()
      const json = {
        resourceLogs: [
          { scopeLogs: [{ logRecords: [{ severityNumber: 9, body: { stringValue: 'served (json)' } }] }] },
        ],
      }
      const response = await fetch(url, {
        method: 'POST',
        body: JSON.stringify(json),
        headers: { 'content-type': 'application/json' },
      })
      expect(response.status).toBe(200)
      expect(levels.askedFor).toEqual(new Set(['otel']))
      expect(levels.passed.get('otel')).toBe(2)
      expect(eventWith('served (proto)')).toBeUndefined()
      expect(eventWith('served (json)')).toBeUndefined()
      expect(eventWith('slow (proto)')?.line.level).toBe(40)
    } finally {
      levels.lowest = 0
    }
  })
})

describe("the OTLP intake's replies", () => {
  const root = protobuf.Root.fromJSON(schema as protobuf.INamespace)
  const post = (body: Buffer | string, type: string, encoding?: string) =>
    fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': type, ...(encoding === undefined ? {} : { 'content-encoding': encoding }) },
    })
  const record = (traceId: string, msg: string) => ({ traceId, body: { stringValue: msg } })
  const exportOf = (records: unknown[]) => JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: records }] }] })

  it('200 with an empty ExportLogsServiceResponse when all are taken (JSON, gzip)', async () => {
    const response = await post(gzipSync(exportOf([record(TRACE, 'zipped')])), 'application/json', 'gzip')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({})
    expect(eventWith('zipped')).toBeDefined()
  })

  it('200 with partial success naming the refused records', async () => {
    const response = await post(exportOf([record(TRACE, 'kept'), record('abc', 'refused')]), 'application/json')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      partialSuccess: {
        rejectedLogRecords: '1',
        errorMessage: 'resourceLogs[0].scopeLogs[0].logRecords[1]: traceId is not 16 bytes of hex',
      },
    })
    expect(eventWith('kept')).toBeDefined()
    expect(eventWith('refused')).toBeUndefined()
  })

  it('400 with a google.rpc.Status in the request encoding for a bad payload; nothing taken', async () => {
    const before = events.length
    const json = await post('{"resourceLogs":[{"scopeLogs":{}}]}', 'application/json')
    expect(json.status).toBe(400)
    expect(await json.json()).toEqual({ code: 3, message: 'resourceLogs[0].scopeLogs: expected a list' })
    const proto = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff]), 'application/x-protobuf')
    expect(proto.status).toBe(400)
    expect(proto.headers.get('content-type')).toBe('application/x-protobuf')
    const status = root.lookupType('google.rpc.Status').decode(Buffer.from(await proto.arrayBuffer()))
    expect(status.toJSON()).toMatchObject({ code: 3, message: expect.stringMatching(/^body: not an OTLP/) as string })
    expect(events.length).toBe(before)
  })

  it('415 for a content type OTLP does not use', async () => {
    const response = await post('x', 'text/plain')
    expect(response.status).toBe(415)
  })
})
